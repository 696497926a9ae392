package cfg

import (
	"strings"

	"modernc.org/cc/v4"
)

// GCC's arithmetic and bit builtins. They read only their arguments and
// write only through the overflow builtins' result pointer, so they are
// lowered here instead of reaching the unknown external model, which
// would havoc every address-taken global at each __builtin_bswap32.
//
//   - __builtin_{add,sub,mul}_overflow(a, b, res) and the typed forms
//     (__builtin_sadd_overflow, __builtin_umulll_overflow, ...): the
//     mathematical a op b is wrapped into *res's type T and stored there;
//     the result says whether the wrapped value differs from the
//     mathematical one (GCC's definition). The _p forms
//     (__builtin_add_overflow_p(a, b, (T)0)) only say so. Operands are
//     read into fresh registers first: __builtin_add_overflow(x, y, &x)
//     is common and the result must not see the store.
//   - popcount, parity, ffs, clrsb, clz, ctz (int, l, ll widths): any
//     value in the range the function can return for a W-bit operand;
//     clz and ctz of 0 are undefined in C, so for a zero operand the
//     result is any value of the result type.
//   - bswap16/32/64: any value of the result type.
//
// valueBuiltin reports false for any other name.
func (b *builder) valueBuiltin(name string, x *cc.PostfixExpression, vals []Expr) (Expr, bool) {
	if !strings.HasPrefix(name, "__builtin_") {
		return nil, false
	}
	base := strings.TrimPrefix(name, "__builtin_")
	if op, ok := overflowOp(base); ok {
		return b.overflowBuiltin(name, op, strings.HasSuffix(base, "_p"), x, vals), true
	}
	fn, width := bitFunc(base, b.model.PtrBits())
	if fn == "" {
		return nil, false
	}
	if len(vals) < 1 || vals[0] == nil {
		b.fail("%s: missing argument", name)
	}
	rt, ok := b.scalarType(x.Type())
	if !ok {
		b.fail("%s: result is not a scalar", name)
	}
	arg := b.temp(vals[0].ExprType())
	b.emit(&Assign{Dst: &VarRef{Var: arg}, Src: vals[0]})
	r := b.temp(rt)
	b.emit(&Havoc{Dst: &VarRef{Var: r}})
	var lo, hi int64
	switch fn {
	case "bswap":
		return &VarRef{Var: r}, true
	case "popcount", "ffs":
		lo, hi = 0, int64(width)
	case "parity":
		lo, hi = 0, 1
	case "clrsb":
		lo, hi = 0, int64(width)-1
	case "clz", "ctz":
		lo, hi = 0, int64(width)-1
	}
	inRangeCond := &Binary{Op: LAnd,
		X:    &Binary{Op: Le, X: &Const{Type: MathInt, Value: lo}, Y: toMath(&VarRef{Var: r}), Type: Bool},
		Y:    &Binary{Op: Le, X: toMath(&VarRef{Var: r}), Y: &Const{Type: MathInt, Value: hi}, Type: Bool},
		Type: Bool}
	var cond Expr = inRangeCond
	if fn == "clz" || fn == "ctz" {
		// (undefined for 0: no range then; one assume, so that the
		// analysis sees the operand and the result together)
		cond = &Binary{Op: LOr, X: &Binary{Op: Eq, X: &VarRef{Var: arg}, Y: &Const{Type: arg.Type}, Type: Bool}, Y: inRangeCond, Type: Bool}
	}
	b.emit(&Assume{Cond: cond})
	return &VarRef{Var: r}, true
}

// isValueBuiltin reports whether valueBuiltin lowers name.
func isValueBuiltin(name string) bool {
	base, ok := strings.CutPrefix(name, "__builtin_")
	if !ok {
		return false
	}
	if _, ok := overflowOp(base); ok {
		return true
	}
	fn, _ := bitFunc(base, 64)
	return fn != ""
}

// overflowOp recognizes the overflow builtins by the name without
// "__builtin_": add_overflow, sadd_overflow, uaddll_overflow,
// mul_overflow_p, ...
func overflowOp(base string) (BinOp, bool) {
	s := strings.TrimSuffix(base, "_p")
	if !strings.HasSuffix(s, "_overflow") {
		return 0, false
	}
	s = strings.TrimSuffix(s, "_overflow")
	if s != "add" && s != "sub" && s != "mul" {
		if base != strings.TrimSuffix(base, "_p") {
			return 0, false // only the generic forms have _p
		}
		if len(s) < 4 || s[0] != 's' && s[0] != 'u' {
			return 0, false
		}
		rest := s[1:]
		for _, suf := range []string{"ll", "l", ""} {
			if strings.HasSuffix(rest, suf) {
				if op := strings.TrimSuffix(rest, suf); op == "add" || op == "sub" || op == "mul" {
					s = op
					break
				}
			}
		}
	}
	switch s {
	case "add":
		return Add, true
	case "sub":
		return Sub, true
	case "mul":
		return Mul, true
	}
	return 0, false
}

// bitFunc recognizes the bit builtins by the name without "__builtin_"
// and returns the function and its operand width in bits.
func bitFunc(base string, longBits int) (string, int) {
	switch base {
	case "bswap16":
		return "bswap", 16
	case "bswap32":
		return "bswap", 32
	case "bswap64":
		return "bswap", 64
	}
	for _, f := range []string{"popcount", "parity", "ffs", "clrsb", "clz", "ctz"} {
		switch base {
		case f:
			return f, 32
		case f + "l":
			return f, longBits
		case f + "ll":
			return f, 64
		}
	}
	return "", 0
}

// overflowBuiltin lowers an overflow builtin (the model above).
func (b *builder) overflowBuiltin(name string, op BinOp, predicate bool, x *cc.PostfixExpression, vals []Expr) Expr {
	if len(vals) < 3 || vals[0] == nil || vals[1] == nil || vals[2] == nil {
		b.fail("%s: needs 3 arguments", name)
	}
	var t Type
	args := argList(x.ArgumentExpressionList)
	if predicate {
		st, ok := b.scalarType(args[2].Type())
		if !ok || st.Kind != IntType {
			b.fail("%s: the third argument is not an integer", name)
		}
		t = st
	} else {
		pt, ok := args[2].Type().Decay().(*cc.PointerType)
		if !ok {
			b.fail("%s: the third argument is not a pointer", name)
		}
		st, ok := b.scalarType(pt.Elem())
		if !ok || st.Kind != IntType {
			b.fail("%s: the result is not an integer", name)
		}
		t = st
	}
	wide := isWideInt(args[0].Type()) || isWideInt(args[1].Type())
	if predicate {
		wide = wide || isWideInt(args[2].Type())
	} else if pt, ok := args[2].Type().Decay().(*cc.PointerType); ok {
		wide = wide || isWideInt(pt.Elem())
	}
	if wide {
		// A 128-bit operand or result: the result and the flag are any
		// value (wideint.go).
		if !predicate {
			r := b.temp(t)
			b.emit(&Havoc{Dst: &VarRef{Var: r}})
			b.emit(&Assign{Dst: &Deref{Addr: vals[2], Type: t}, Src: &VarRef{Var: r}})
		}
		return b.wideTruth(x)
	}
	snap := func(v Expr) Expr {
		if _, ok := v.(*Const); ok {
			return toMath(v)
		}
		r := b.temp(v.ExprType())
		b.emit(&Assign{Dst: &VarRef{Var: r}, Src: v})
		return toMath(&VarRef{Var: r})
	}
	m := &Binary{Op: op, X: snap(vals[0]), Y: snap(vals[1]), Type: MathInt}
	r := b.temp(t)
	b.emit(&Assign{Dst: &VarRef{Var: r}, Src: &Cast{X: m, Type: t}})
	if !predicate {
		b.emit(&Assign{Dst: &Deref{Addr: vals[2], Type: t}, Src: &VarRef{Var: r}})
	}
	return &Binary{Op: Ne, X: toMath(&VarRef{Var: r}), Y: m, Type: Bool}
}
