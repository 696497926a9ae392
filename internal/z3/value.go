package z3

/*
#include <z3.h>
*/
import "C"

import (
	"errors"
	"math/big"
)

// Value is a term: an Int or a Bool.
type Value interface {
	// Sort returns the term's sort.
	Sort() Sort
	// String returns the term as an S-expression.
	String() string
	// Valid reports whether the term was built without error.
	Valid() bool
	impl() value
}

// value is the common representation of terms. A zero c marks an invalid
// term (see the package comment on errors).
type value struct {
	ctx *Context
	c   C.Z3_ast
}

func (v value) impl() value { return v }

// Valid reports whether the term was built without error and its Context is
// still open.
func (v value) Valid() bool { return v.c != nil && v.ctx != nil && v.ctx.h.c != nil }

// Sort returns the term's sort.
func (v value) Sort() Sort {
	if !v.Valid() {
		return Sort{ctx: v.ctx, kind: SortUnknown}
	}
	s := C.Z3_get_sort(v.ctx.h.c, v.c)
	switch SortKind(C.Z3_get_sort_kind(v.ctx.h.c, s)) {
	case SortInt:
		return v.ctx.intSort
	case SortBool:
		return v.ctx.boolSort
	}
	return Sort{ctx: v.ctx, c: s, kind: SortUnknown}
}

// String returns the term as an S-expression.
func (v value) String() string {
	if !v.Valid() {
		return "<invalid>"
	}
	return C.GoString(C.Z3_ast_to_string(v.ctx.h.c, v.c))
}

// lift wraps v in the Go type of its sort kind.
func lift(v value, kind SortKind) Value {
	if kind == SortBool {
		return Bool(v)
	}
	return Int(v)
}

// operands checks that all operands are valid terms of one open Context
// without a recorded error, and returns that Context (nil if not).
func operands(op string, vs ...value) *Context {
	ctx := vs[0].ctx
	if ctx == nil {
		return nil
	}
	for _, v := range vs {
		if v.ctx != ctx {
			ctx.fail(errors.New("z3: " + op + ": operands from different contexts"))
			return nil
		}
		if v.c == nil {
			ctx.fail(errors.New("z3: " + op + ": invalid operand"))
			return nil
		}
	}
	if !ctx.ok() {
		return nil
	}
	return ctx
}

func unary(op string, x value, mk func(C.Z3_context, C.Z3_ast) C.Z3_ast) value {
	ctx := operands(op, x)
	if ctx == nil {
		return value{ctx: x.ctx}
	}
	return ctx.wrapAST(op, mk(ctx.h.c, x.c))
}

func binary(op string, l, r value, mk func(C.Z3_context, C.Z3_ast, C.Z3_ast) C.Z3_ast) value {
	ctx := operands(op, l, r)
	if ctx == nil {
		return value{ctx: l.ctx}
	}
	return ctx.wrapAST(op, mk(ctx.h.c, l.c, r.c))
}

func nary(op string, args []value, mk func(C.Z3_context, C.uint, *C.Z3_ast) C.Z3_ast) value {
	ctx := operands(op, args...)
	if ctx == nil {
		return value{ctx: args[0].ctx}
	}
	cargs := make([]C.Z3_ast, len(args))
	for i, a := range args {
		cargs[i] = a.c
	}
	return ctx.wrapAST(op, mk(ctx.h.c, C.uint(len(cargs)), &cargs[0]))
}

// Int is an integer term (mathematical integers, no overflow).
type Int value

func (l Int) impl() value    { return value(l) }
func (l Int) Sort() Sort     { return value(l).Sort() }
func (l Int) String() string { return value(l).String() }
func (l Int) Valid() bool    { return value(l).Valid() }

func ints(l Int, r []Int) []value {
	vs := make([]value, 0, len(r)+1)
	vs = append(vs, value(l))
	for _, x := range r {
		vs = append(vs, value(x))
	}
	return vs
}

// Add returns l + r[0] + r[1] + ...
func (l Int) Add(r ...Int) Int {
	return Int(nary("add", ints(l, r), func(c C.Z3_context, n C.uint, a *C.Z3_ast) C.Z3_ast { return C.Z3_mk_add(c, n, a) }))
}

// Sub returns l - r[0] - r[1] - ...
func (l Int) Sub(r ...Int) Int {
	if len(r) == 0 {
		return l
	}
	return Int(nary("sub", ints(l, r), func(c C.Z3_context, n C.uint, a *C.Z3_ast) C.Z3_ast { return C.Z3_mk_sub(c, n, a) }))
}

// Mul returns l * r[0] * r[1] * ... (a constant factor is a literal from
// Context.FromInt; a product of two variables is nonlinear).
func (l Int) Mul(r ...Int) Int {
	return Int(nary("mul", ints(l, r), func(c C.Z3_context, n C.uint, a *C.Z3_ast) C.Z3_ast { return C.Z3_mk_mul(c, n, a) }))
}

// Neg returns -l.
func (l Int) Neg() Int {
	return Int(unary("neg", value(l), func(c C.Z3_context, a C.Z3_ast) C.Z3_ast { return C.Z3_mk_unary_minus(c, a) }))
}

// Div returns l / r rounded toward -inf for r > 0 (SMT-LIB div); unconstrained if r = 0.
func (l Int) Div(r Int) Int {
	return Int(binary("div", value(l), value(r), func(c C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_div(c, a, b) }))
}

// Mod returns l mod r (SMT-LIB: non-negative for r != 0).
func (l Int) Mod(r Int) Int {
	return Int(binary("mod", value(l), value(r), func(c C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_mod(c, a, b) }))
}

// LT returns l < r.
func (l Int) LT(r Int) Bool {
	return Bool(binary("lt", value(l), value(r), func(c C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_lt(c, a, b) }))
}

// LE returns l <= r.
func (l Int) LE(r Int) Bool {
	return Bool(binary("le", value(l), value(r), func(c C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_le(c, a, b) }))
}

// GT returns l > r.
func (l Int) GT(r Int) Bool {
	return Bool(binary("gt", value(l), value(r), func(c C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_gt(c, a, b) }))
}

// GE returns l >= r.
func (l Int) GE(r Int) Bool {
	return Bool(binary("ge", value(l), value(r), func(c C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_ge(c, a, b) }))
}

// Eq returns l == r.
func (l Int) Eq(r Int) Bool { return Bool(mkEq(value(l), value(r))) }

// NE returns l != r.
func (l Int) NE(r Int) Bool { return Bool(mkEq(value(l), value(r))).Not() }

func mkEq(l, r value) value {
	return binary("eq", l, r, func(c C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_eq(c, a, b) })
}

// AsInt64 returns the value of a literal. For a non-literal it returns
// 0, false, false; for a literal outside int64 it returns 0, true, false.
func (l Int) AsInt64() (val int64, isLiteral, ok bool) {
	if !l.isNumeral() {
		return 0, false, false
	}
	var out C.int64_t
	if !C.Z3_get_numeral_int64(l.ctx.h.c, l.c, &out) {
		return 0, true, false
	}
	return int64(out), true, true
}

// AsBigInt returns the value of a literal, or nil, false for a non-literal.
func (l Int) AsBigInt() (val *big.Int, isLiteral bool) {
	if !l.isNumeral() {
		return nil, false
	}
	v, ok := new(big.Int).SetString(C.GoString(C.Z3_get_numeral_string(l.ctx.h.c, l.c)), 10)
	if !ok {
		l.ctx.fail(errors.New("z3: AsBigInt: unparsable numeral"))
		return nil, false
	}
	return v, true
}

func (l Int) isNumeral() bool {
	return l.Valid() && C.Z3_get_ast_kind(l.ctx.h.c, l.c) == C.Z3_NUMERAL_AST
}

// Bool is a boolean term.
type Bool value

func (l Bool) impl() value    { return value(l) }
func (l Bool) Sort() Sort     { return value(l).Sort() }
func (l Bool) String() string { return value(l).String() }
func (l Bool) Valid() bool    { return value(l).Valid() }

func bools(l Bool, r []Bool) []value {
	vs := make([]value, 0, len(r)+1)
	vs = append(vs, value(l))
	for _, x := range r {
		vs = append(vs, value(x))
	}
	return vs
}

// And returns l && r[0] && r[1] && ...
func (l Bool) And(r ...Bool) Bool {
	return Bool(nary("and", bools(l, r), func(c C.Z3_context, n C.uint, a *C.Z3_ast) C.Z3_ast { return C.Z3_mk_and(c, n, a) }))
}

// Or returns l || r[0] || r[1] || ...
func (l Bool) Or(r ...Bool) Bool {
	return Bool(nary("or", bools(l, r), func(c C.Z3_context, n C.uint, a *C.Z3_ast) C.Z3_ast { return C.Z3_mk_or(c, n, a) }))
}

// Not returns !l.
func (l Bool) Not() Bool {
	return Bool(unary("not", value(l), func(c C.Z3_context, a C.Z3_ast) C.Z3_ast { return C.Z3_mk_not(c, a) }))
}

// Implies returns l => r.
func (l Bool) Implies(r Bool) Bool {
	return Bool(binary("implies", value(l), value(r), func(c C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_implies(c, a, b) }))
}

// Eq returns l <=> r.
func (l Bool) Eq(r Bool) Bool { return Bool(mkEq(value(l), value(r))) }

// NE returns l xor r.
func (l Bool) NE(r Bool) Bool { return l.Eq(r).Not() }

// IfThenElse returns cons if l holds, else alt; cons and alt must have the
// same sort, which is the result's.
func (l Bool) IfThenElse(cons, alt Value) Value {
	ctx := operands("ite", value(l), cons.impl(), alt.impl())
	if ctx == nil {
		return lift(value{ctx: l.ctx}, cons.Sort().kind)
	}
	v := ctx.wrapAST("ite", C.Z3_mk_ite(ctx.h.c, l.c, cons.impl().c, alt.impl().c))
	return lift(v, cons.Sort().kind)
}

// AsBool returns the value of a literal; isLiteral is false otherwise.
func (l Bool) AsBool() (val bool, isLiteral bool) {
	if !l.Valid() {
		return false, false
	}
	r := C.Z3_get_bool_value(l.ctx.h.c, l.c)
	return r == C.Z3_L_TRUE, r != C.Z3_L_UNDEF
}
