package cfg

import (
	"math"
	"math/big"

	"modernc.org/cc/v4"
)

// lval is a lowered lvalue: a register, or memory at a pure address.
type lval struct {
	reg      *Var
	addr     Expr
	ctype    cc.Type
	field    *cc.Field // bit-field (addr is its storage unit)
	addrOnly bool
}

// ---- values ----

func intValue(v cc.Value) (int64, bool) {
	switch x := v.(type) {
	case cc.Int64Value:
		return int64(x), true
	case cc.UInt64Value:
		return int64(x), true
	}
	return 0, false
}

func floatValue(v cc.Value) (float64, bool) {
	switch x := v.(type) {
	case cc.Float64Value:
		return float64(x), true
	case *cc.LongDoubleValue:
		f, _ := ((*big.Float)(x)).Float64()
		return f, true
	}
	return 0, false
}

func floatConst(f float64, t Type) *Const {
	if t.Kind != FloatType {
		return &Const{Type: t, Value: wrap(int64(f), t)}
	}
	if t.Bits == 32 {
		f = float64(float32(f))
	}
	return &Const{Type: t, Value: int64(math.Float64bits(f))}
}

// wrap truncates v to t's width and sign-extends when t is signed.
func wrap(v int64, t Type) int64 {
	if t.Kind != IntType && t.Kind != PtrType || t.Bits == 0 || t.Bits >= 64 {
		return v
	}
	sh := uint(64 - t.Bits)
	if t.Signed {
		return v << sh >> sh
	}
	return int64(uint64(v) << sh >> sh)
}

func typeMin(t Type) int64 {
	if !t.Signed || t.Bits == 0 {
		return 0
	}
	return -1 << uint(t.Bits-1)
}

func typeMax(t Type) int64 {
	if t.Bits >= 64 {
		if t.Signed {
			return math.MaxInt64
		}
		return -1 // all bits
	}
	if t.Signed {
		return 1<<uint(t.Bits-1) - 1
	}
	return 1<<uint(t.Bits) - 1
}

func isCmp(op BinOp) bool { return op >= Eq && op <= Ge || op == LAnd || op == LOr }

// truth turns a value into a condition (non-zero test).
func truth(v Expr) Expr {
	switch x := v.(type) {
	case *Binary:
		if isCmp(x.Op) {
			return v
		}
	case *Unary:
		if x.Op == Not {
			return v
		}
	}
	return &Binary{Op: Ne, X: v, Y: &Const{Type: v.ExprType()}, Type: Bool}
}

// negate gives the condition !c.
func negate(c Expr) Expr {
	switch x := c.(type) {
	case *Const:
		if x.Value != 0 {
			return &Const{Type: Bool}
		}
		return &Const{Type: Bool, Value: 1}
	case *Binary:
		var op BinOp
		switch x.Op {
		case Eq:
			op = Ne
		case Ne:
			op = Eq
		case Lt:
			op = Ge
		case Le:
			op = Gt
		case Gt:
			op = Le
		case Ge:
			op = Lt
		default:
			if x.Op == LAnd || x.Op == LOr {
				return &Unary{Op: Not, X: c, Type: Bool}
			}
			return &Binary{Op: Eq, X: c, Y: &Const{Type: c.ExprType()}, Type: Bool}
		}
		if x.X.ExprType().Kind == FloatType {
			// !(a < b) is not a >= b with NaNs.
			return &Unary{Op: Not, X: c, Type: Bool}
		}
		return &Binary{Op: op, X: x.X, Y: x.Y, Type: Bool}
	case *Unary:
		if x.Op == Not {
			return truth(x.X)
		}
	}
	return &Binary{Op: Eq, X: c, Y: &Const{Type: c.ExprType()}, Type: Bool}
}

// ---- conversions ----

// conv converts a value of C type from to C type to.
func (b *builder) conv(v Expr, from, to cc.Type) Expr {
	if v == nil || to == nil || to.Kind() == cc.Void {
		return v
	}
	if isAggregate(to) || to.Kind() == cc.Function {
		return v
	}
	tt, ok := b.scalarType(to)
	if !ok {
		return v
	}
	if (isWideInt(from) || isWideInt(to)) && (from == nil || from.Kind() != to.Kind()) {
		// Into or out of 128 bits: any value, but for an exact constant.
		if k, ok := v.(*Const); ok {
			if c, ok := b.exactWideConst(k, from, to); ok {
				return c
			}
		}
		return b.wideValue(nil, to)
	}
	if to.Kind() == cc.Bool && (from == nil || from.Kind() != cc.Bool) {
		if k, ok := v.(*Const); ok {
			if k.Value != 0 {
				return &Const{Type: tt, Value: 1}
			}
			return &Const{Type: tt}
		}
		return &Cast{X: truth(v), Type: tt}
	}
	return b.castTo(v, tt)
}

func (b *builder) castTo(v Expr, tt Type) Expr {
	ft := v.ExprType()
	if ft == tt {
		return v
	}
	if k, ok := v.(*Const); ok {
		switch {
		case ft.Kind == FloatType && tt.Kind == FloatType:
			return floatConst(math.Float64frombits(uint64(k.Value)), tt)
		case ft.Kind == FloatType:
			f := math.Float64frombits(uint64(k.Value))
			if math.IsNaN(f) || math.IsInf(f, 0) || f >= 9.3e18 || f <= -9.3e18 {
				return &Cast{X: v, Type: tt}
			}
			return &Const{Type: tt, Value: wrap(int64(f), tt)}
		case tt.Kind == FloatType:
			if ft.Signed || ft.Bits < 64 {
				return floatConst(float64(k.Value), tt)
			}
			return floatConst(float64(uint64(k.Value)), tt)
		}
		return &Const{Type: tt, Value: wrap(k.Value, tt)}
	}
	return &Cast{X: v, Type: tt}
}

// ---- rvalues ----

// rvalue lowers e for its value: a pure expression. Aggregates, arrays and
// functions evaluate to their address.
func (b *builder) rvalue(e cc.ExpressionNode) Expr {
	b.depth++
	if b.depth > 2*maxNesting {
		b.fail("expression nested too deeply")
	}
	defer func() { b.depth-- }()
	if e == nil {
		b.fail("missing expression")
	}
	if t := e.Type(); isWideInt(t) {
		// Lowered for its side effects and checks; its value is any value
		// (wideint.go).
		b.rvalueOf(e, t)
		return b.wideValue(e, t)
	}
	return b.rvalueOf(e, e.Type())
}

// rvalueOf is rvalue's lowering of e, of C type t.
func (b *builder) rvalueOf(e cc.ExpressionNode, t cc.Type) Expr {
	if c := b.constValue(e, t); c != nil {
		return c
	}
	switch x := e.(type) {
	case *cc.ExpressionList:
		if x.ExpressionList == nil {
			return b.rvalue(x.AssignmentExpression)
		}
		var v Expr
		for l := x; l != nil; l = l.ExpressionList {
			if l.ExpressionList == nil {
				v = b.rvalue(l.AssignmentExpression)
			} else {
				b.discard(l.AssignmentExpression)
			}
		}
		return v
	case *cc.PrimaryExpression:
		return b.primary(x)
	case *cc.PostfixExpression:
		return b.postfix(x, false)
	case *cc.UnaryExpression:
		return b.unary(x, false)
	case *cc.CastExpression:
		if x.Case == cc.CastExpressionUnary {
			return b.rvalue(x.UnaryExpression)
		}
		b.setPos(x)
		if x.Type().Kind() == cc.Void {
			b.discard(x.CastExpression)
			return nil
		}
		save := b.allocHint
		b.allocHint = x.Type()
		v := b.rvalue(x.CastExpression)
		b.allocHint = save
		return b.conv(v, x.CastExpression.Type(), x.Type())
	case *cc.MultiplicativeExpression:
		op := map[cc.MultiplicativeExpressionCase]BinOp{cc.MultiplicativeExpressionMul: Mul, cc.MultiplicativeExpressionDiv: Div, cc.MultiplicativeExpressionMod: Rem}[x.Case]
		if x.Case == cc.MultiplicativeExpressionCast {
			return b.rvalue(x.CastExpression)
		}
		return b.arith(x, op, x.MultiplicativeExpression, x.CastExpression, t)
	case *cc.AdditiveExpression:
		switch x.Case {
		case cc.AdditiveExpressionMul:
			return b.rvalue(x.MultiplicativeExpression)
		case cc.AdditiveExpressionAdd:
			return b.arith(x, Add, x.AdditiveExpression, x.MultiplicativeExpression, t)
		}
		return b.arith(x, Sub, x.AdditiveExpression, x.MultiplicativeExpression, t)
	case *cc.ShiftExpression:
		switch x.Case {
		case cc.ShiftExpressionAdd:
			return b.rvalue(x.AdditiveExpression)
		case cc.ShiftExpressionLsh:
			return b.arith(x, Shl, x.ShiftExpression, x.AdditiveExpression, t)
		}
		return b.arith(x, Shr, x.ShiftExpression, x.AdditiveExpression, t)
	case *cc.RelationalExpression:
		op := map[cc.RelationalExpressionCase]BinOp{cc.RelationalExpressionLt: Lt, cc.RelationalExpressionGt: Gt, cc.RelationalExpressionLeq: Le, cc.RelationalExpressionGeq: Ge}[x.Case]
		if x.Case == cc.RelationalExpressionShift {
			return b.rvalue(x.ShiftExpression)
		}
		return b.compare(x, op, x.RelationalExpression, x.ShiftExpression)
	case *cc.EqualityExpression:
		switch x.Case {
		case cc.EqualityExpressionRel:
			return b.rvalue(x.RelationalExpression)
		case cc.EqualityExpressionEq:
			return b.compare(x, Eq, x.EqualityExpression, x.RelationalExpression)
		}
		return b.compare(x, Ne, x.EqualityExpression, x.RelationalExpression)
	case *cc.AndExpression:
		if x.Case == cc.AndExpressionEq {
			return b.rvalue(x.EqualityExpression)
		}
		return b.arith(x, And, x.AndExpression, x.EqualityExpression, t)
	case *cc.ExclusiveOrExpression:
		if x.Case == cc.ExclusiveOrExpressionAnd {
			return b.rvalue(x.AndExpression)
		}
		return b.arith(x, Xor, x.ExclusiveOrExpression, x.AndExpression, t)
	case *cc.InclusiveOrExpression:
		if x.Case == cc.InclusiveOrExpressionXor {
			return b.rvalue(x.ExclusiveOrExpression)
		}
		return b.arith(x, Or, x.InclusiveOrExpression, x.ExclusiveOrExpression, t)
	case *cc.LogicalAndExpression:
		if x.Case == cc.LogicalAndExpressionOr {
			return b.rvalue(x.InclusiveOrExpression)
		}
		return b.boolValue(x)
	case *cc.LogicalOrExpression:
		if x.Case == cc.LogicalOrExpressionLAnd {
			return b.rvalue(x.LogicalAndExpression)
		}
		return b.boolValue(x)
	case *cc.ConditionalExpression:
		if x.Case == cc.ConditionalExpressionLOr {
			return b.rvalue(x.LogicalOrExpression)
		}
		return b.conditional(x)
	case *cc.AssignmentExpression:
		if x.Case == cc.AssignmentExpressionCond {
			return b.rvalue(x.ConditionalExpression)
		}
		return b.assignment(x, false)
	case *cc.ConstantExpression:
		return b.rvalue(x.ConditionalExpression)
	}
	b.failAt(e, "unsupported expression %T", e)
	return nil
}

// constValue folds expressions cc evaluated to a constant.
func (b *builder) constValue(e cc.ExpressionNode, t cc.Type) Expr {
	if t == nil || !e.Pure() || isWideInt(t) {
		return nil
	}
	st, ok := b.scalarType(t)
	if !ok || t.Kind() == cc.Ptr {
		return nil
	}
	switch v := e.Value().(type) {
	case cc.Int64Value, cc.UInt64Value:
		iv, _ := intValue(v)
		if st.Kind == FloatType {
			return floatConst(float64(iv), st)
		}
		return &Const{Type: st, Value: wrap(iv, st)}
	case cc.Float64Value, *cc.LongDoubleValue:
		f, _ := floatValue(v)
		return floatConst(f, st)
	}
	return nil
}

// discard lowers e for its side effects only.
func (b *builder) discard(e cc.ExpressionNode) {
	if e == nil {
		return
	}
	if b.assertExpr(e) { // assert.go
		return
	}
	switch x := e.(type) {
	case *cc.ExpressionList:
		for l := x; l != nil; l = l.ExpressionList {
			b.discard(l.AssignmentExpression)
		}
		return
	case *cc.AssignmentExpression:
		if x.Case != cc.AssignmentExpressionCond {
			b.assignment(x, true)
			return
		}
	case *cc.PostfixExpression:
		switch x.Case {
		case cc.PostfixExpressionInc, cc.PostfixExpressionDec:
			b.postfix(x, true)
			return
		case cc.PostfixExpressionCall:
			b.call(x, true)
			return
		}
	case *cc.UnaryExpression:
		if x.Case == cc.UnaryExpressionInc || x.Case == cc.UnaryExpressionDec {
			b.unary(x, true)
			return
		}
	case *cc.CastExpression:
		if x.Case == cc.CastExpressionCast {
			b.discard(x.CastExpression)
			return
		}
	case *cc.PrimaryExpression:
		if x.Case == cc.PrimaryExpressionExpr {
			b.discard(x.ExpressionList)
			return
		}
	case *cc.ConditionalExpression:
		if x.Case == cc.ConditionalExpressionCond && x.ExpressionList != nil {
			t, f := b.cond(x.LogicalOrExpression)
			b.cur = t
			b.discard(x.ExpressionList)
			endT := b.cur
			b.cur = f
			b.discard(x.ConditionalExpression)
			b.cur = union(endT, b.cur)
			return
		}
	case *cc.LogicalAndExpression:
		if x.Case == cc.LogicalAndExpressionLAnd {
			t, f := b.cond(x.LogicalAndExpression)
			b.cur = t
			b.discard(x.InclusiveOrExpression)
			b.cur = union(b.cur, f)
			return
		}
	case *cc.LogicalOrExpression:
		if x.Case == cc.LogicalOrExpressionLOr {
			t, f := b.cond(x.LogicalOrExpression)
			b.cur = f
			b.discard(x.LogicalAndExpression)
			b.cur = union(b.cur, t)
			return
		}
	}
	b.rvalue(e)
}

// cond lowers e as a branch condition: the frontiers where e is true and
// false. && || ! and ?: become control flow.
func (b *builder) cond(e cc.ExpressionNode) (t, f []*Loc) {
	b.depth++
	if b.depth > 2*maxNesting {
		b.fail("expression nested too deeply")
	}
	defer func() { b.depth-- }()
	if e.Pure() {
		if v, ok := intValue(e.Value()); ok {
			if v != 0 {
				return b.cur, nil
			}
			return nil, b.cur
		}
	}
	switch x := e.(type) {
	case *cc.ExpressionList:
		if x.ExpressionList == nil {
			return b.cond(x.AssignmentExpression)
		}
		for l := x; l != nil; l = l.ExpressionList {
			if l.ExpressionList == nil {
				return b.cond(l.AssignmentExpression)
			}
			b.discard(l.AssignmentExpression)
		}
	case *cc.PrimaryExpression:
		if x.Case == cc.PrimaryExpressionExpr {
			return b.cond(x.ExpressionList)
		}
	case *cc.LogicalAndExpression:
		if x.Case == cc.LogicalAndExpressionLAnd {
			ta, fa := b.cond(x.LogicalAndExpression)
			b.cur = ta
			tb, fb := b.cond(x.InclusiveOrExpression)
			return tb, union(fa, fb)
		}
		return b.cond(x.InclusiveOrExpression)
	case *cc.LogicalOrExpression:
		if x.Case == cc.LogicalOrExpressionLOr {
			ta, fa := b.cond(x.LogicalOrExpression)
			b.cur = fa
			tb, fb := b.cond(x.LogicalAndExpression)
			return union(ta, tb), fb
		}
		return b.cond(x.LogicalAndExpression)
	case *cc.UnaryExpression:
		if x.Case == cc.UnaryExpressionNot {
			t, f := b.cond(x.CastExpression)
			return f, t
		}
	case *cc.CastExpression:
		if x.Case == cc.CastExpressionUnary {
			return b.cond(x.UnaryExpression)
		}
	case *cc.ConditionalExpression:
		switch x.Case {
		case cc.ConditionalExpressionLOr:
			return b.cond(x.LogicalOrExpression)
		case cc.ConditionalExpressionCond:
			if x.ExpressionList != nil {
				tc, fc := b.cond(x.LogicalOrExpression)
				b.cur = tc
				t1, f1 := b.cond(x.ExpressionList)
				b.cur = fc
				t2, f2 := b.cond(x.ConditionalExpression)
				return union(t1, t2), union(f1, f2)
			}
		}
	case *cc.AssignmentExpression:
		if x.Case == cc.AssignmentExpressionCond {
			return b.cond(x.ConditionalExpression)
		}
	case *cc.EqualityExpression:
		if x.Case == cc.EqualityExpressionRel {
			return b.cond(x.RelationalExpression)
		}
	case *cc.RelationalExpression:
		if x.Case == cc.RelationalExpressionShift {
			return b.cond(x.ShiftExpression)
		}
	}
	v := b.rvalue(e)
	if v == nil {
		b.failAt(e, "void value used as a condition")
	}
	return b.branch(truth(v))
}

// boolValue lowers && and || in value context: r := 1 / r := 0 per side.
func (b *builder) boolValue(e cc.ExpressionNode) Expr {
	t, f := b.cond(e)
	r := b.temp(Bool)
	b.cur = t
	b.emit(&Assign{Dst: &VarRef{Var: r}, Src: &Const{Type: Bool, Value: 1}})
	endT := b.cur
	b.cur = f
	b.emit(&Assign{Dst: &VarRef{Var: r}, Src: &Const{Type: Bool}})
	b.cur = union(endT, b.cur)
	return &VarRef{Var: r}
}

func (b *builder) conditional(x *cc.ConditionalExpression) Expr {
	rt := x.Type()
	void := rt.Kind() == cc.Void
	var r *Var
	mk := func(v Expr, from cc.Type) {
		if void || v == nil {
			return
		}
		var cv Expr
		if isAggregate(rt) || rt.Kind() == cc.Function {
			cv = v // an address
		} else {
			cv = b.conv(v, from, rt)
		}
		if r == nil {
			r = b.temp(cv.ExprType())
		}
		b.emit(&Assign{Dst: &VarRef{Var: r}, Src: b.castTo(cv, r.Type)})
	}
	if x.ExpressionList == nil {
		// GNU a ?: b
		v := b.rvalue(x.LogicalOrExpression)
		mk(v, x.LogicalOrExpression.Type())
		t, f := b.branch(truth(v))
		b.cur = f
		mk(b.rvalue(x.ConditionalExpression), x.ConditionalExpression.Type())
		b.cur = union(t, b.cur)
	} else {
		t, f := b.cond(x.LogicalOrExpression)
		b.cur = t
		mk(b.rvalue(x.ExpressionList), x.ExpressionList.Type())
		endT := b.cur
		b.cur = f
		mk(b.rvalue(x.ConditionalExpression), x.ConditionalExpression.Type())
		b.cur = union(endT, b.cur)
	}
	if r == nil {
		return nil
	}
	return &VarRef{Var: r}
}

// ---- arithmetic ----

// arith lowers a binary arithmetic operator with its checks.
func (b *builder) arith(n cc.Node, op BinOp, l, r cc.ExpressionNode, rt cc.Type) Expr {
	b.setPos(n)
	lt, rtp := l.Type().Decay(), r.Type().Decay()
	if (op == Add || op == Sub) && (lt.Kind() == cc.Ptr || rtp.Kind() == cc.Ptr) {
		return b.ptrArith(n, op, l, r)
	}
	lv := b.rvalue(l)
	rv := b.rvalue(r)
	return b.arithValues(n, op, lv, lt, rv, rtp, rt)
}

// arithValues computes lv op rv in the C type rt (the operation type) and
// emits the overflow / division checks before it.
func (b *builder) arithValues(n cc.Node, op BinOp, lv Expr, lt cc.Type, rv Expr, rtp cc.Type, rt cc.Type) Expr {
	t := b.mustScalar(rt)
	var x, y Expr
	if op == Shl || op == Shr {
		x = b.conv(lv, lt, rt)
		y = b.conv(rv, rtp, cc.IntegerPromotion(rtp))
	} else {
		x = b.conv(lv, lt, rt)
		y = b.conv(rv, rtp, rt)
	}
	if t.Kind == IntType {
		b.arithChecks(n, op, x, y, t)
		if op == Shl || op == Shr {
			width := t
			if isWideInt(rt) {
				width.Bits = 128 // only the count's range (wideint.go)
			}
			b.shiftCheck(n, y, width)
		}
	}
	return fold(&Binary{Op: op, X: x, Y: y, Type: t})
}

// arithChecks emits the division-by-zero and signed-overflow checks of
// x op y computed in t.
func (b *builder) arithChecks(n cc.Node, op BinOp, x, y Expr, t Type) {
	src := nodeSrc(n)
	if op == Div || op == Rem {
		if k, ok := y.(*Const); !ok || k.Value == 0 {
			b.check(DivByZeroCheck, &Binary{Op: Ne, X: y, Y: &Const{Type: y.ExprType()}, Type: Bool}, "division by zero in "+src)
		}
	}
	if !t.Signed || t.Bits == 0 {
		return
	}
	_, xc := x.(*Const)
	_, yc := y.(*Const)
	if xc && yc {
		return
	}
	switch op {
	case Add, Sub, Mul:
		if k, ok := y.(*Const); ok && k.Value == 0 {
			return
		}
		if k, ok := x.(*Const); ok && op == Mul && (k.Value == 0 || k.Value == 1) {
			return
		}
		if k, ok := y.(*Const); ok && op == Mul && k.Value == 1 {
			return
		}
		m := &Binary{Op: op, X: toMath(x), Y: toMath(y), Type: MathInt}
		b.check(OverflowCheck, inRange(m, t), "signed overflow in "+src)
	case Div, Rem:
		if k, ok := y.(*Const); ok && k.Value != -1 {
			return
		}
		c := &Binary{Op: LOr,
			X:    &Binary{Op: Ne, X: x, Y: &Const{Type: t, Value: typeMin(t)}, Type: Bool},
			Y:    &Binary{Op: Ne, X: y, Y: &Const{Type: t, Value: -1}, Type: Bool},
			Type: Bool}
		b.check(OverflowCheck, c, "signed overflow in "+src)
	}
}

// shiftCheck emits the check that the count y of a shift whose promoted
// left operand has type t lies in [0, t's width): a negative count or one
// of at least the width is undefined behaviour in C (C11 6.5.7p3), in GCC
// too (x86 masks the count, other targets do not; the optimiser assumes it
// cannot happen). A constant count in range needs no check; a constant
// count out of range gets one that cannot be proven.
//
// A left shift of a signed value into or past the sign bit (1 << 31) is
// also undefined in C11, but GCC documents that it does not use that
// latitude (GCC manual, "Integers implementation-defined behavior": it
// shifts the bits and the value wraps), and kernel and driver code
// relies on it; chorus follows GCC and does not check it. The IR's Shl
// and Shr already give the wrapped value for every count in range.
func (b *builder) shiftCheck(n cc.Node, y Expr, t Type) {
	yt := y.ExprType()
	if yt.Kind != IntType || t.Bits == 0 {
		return
	}
	width := int64(t.Bits)
	if k, ok := y.(*Const); ok && k.Value >= 0 && k.Value < width {
		return
	}
	var c Expr = &Binary{Op: Lt, X: y, Y: &Const{Type: yt, Value: width}, Type: Bool}
	if yt.Signed {
		c = &Binary{Op: LAnd,
			X:    &Binary{Op: Le, X: &Const{Type: yt}, Y: y, Type: Bool},
			Y:    c,
			Type: Bool}
	}
	b.check(ShiftCheck, c, "shift count out of range in "+nodeSrc(n))
}

func toMath(e Expr) Expr {
	if k, ok := e.(*Const); ok && k.Type.Kind == IntType {
		return &Const{Type: MathInt, Value: k.Value}
	}
	return &Cast{X: e, Type: MathInt}
}

// inRange is lo <= m && m <= hi in mathematical integers.
func inRange(m Expr, t Type) Expr {
	return &Binary{Op: LAnd,
		X:    &Binary{Op: Le, X: &Const{Type: MathInt, Value: typeMin(t)}, Y: m, Type: Bool},
		Y:    &Binary{Op: Le, X: m, Y: &Const{Type: MathInt, Value: typeMax(t)}, Type: Bool},
		Type: Bool}
}

// fold evaluates a binary over constants (integers only).
func fold(e *Binary) Expr {
	x, ok1 := e.X.(*Const)
	y, ok2 := e.Y.(*Const)
	if !ok1 || !ok2 || e.Type.Kind != IntType || x.Type.Kind != IntType || y.Type.Kind != IntType {
		return e
	}
	a, c := x.Value, y.Value
	var r int64
	uns := !x.Type.Signed && x.Type.Bits > 0
	switch e.Op {
	case Add:
		r = a + c
	case Sub:
		r = a - c
	case Mul:
		r = a * c
	case Div, Rem:
		if c == 0 || (c == -1 && a == math.MinInt64) {
			return e
		}
		if uns {
			ua, uc := uint64(a), uint64(c)
			if x.Type.Bits < 64 {
				ua, uc = ua&(1<<uint(x.Type.Bits)-1), uc&(1<<uint(x.Type.Bits)-1)
			}
			if e.Op == Div {
				r = int64(ua / uc)
			} else {
				r = int64(ua % uc)
			}
		} else if e.Op == Div {
			r = a / c
		} else {
			r = a % c
		}
	case And:
		r = a & c
	case Or:
		r = a | c
	case Xor:
		r = a ^ c
	case Eq, Ne, Lt, Le, Gt, Ge:
		var res bool
		if uns {
			ua, uc := uint64(a), uint64(c)
			switch e.Op {
			case Eq:
				res = ua == uc
			case Ne:
				res = ua != uc
			case Lt:
				res = ua < uc
			case Le:
				res = ua <= uc
			case Gt:
				res = ua > uc
			case Ge:
				res = ua >= uc
			}
		} else {
			switch e.Op {
			case Eq:
				res = a == c
			case Ne:
				res = a != c
			case Lt:
				res = a < c
			case Le:
				res = a <= c
			case Gt:
				res = a > c
			case Ge:
				res = a >= c
			}
		}
		if res {
			r = 1
		}
	default:
		return e
	}
	return &Const{Type: e.Type, Value: wrap(r, e.Type)}
}

// ptrArith lowers pointer + integer, integer + pointer, pointer - integer
// and pointer - pointer.
func (b *builder) ptrArith(n cc.Node, op BinOp, l, r cc.ExpressionNode) Expr {
	lt, rt := l.Type().Decay(), r.Type().Decay()
	lv := b.rvalue(l)
	rv := b.rvalue(r)
	if lt.Kind() == cc.Ptr && rt.Kind() == cc.Ptr {
		// p - q: byte difference divided by the element size.
		d := &Binary{Op: PtrSub, X: lv, Y: rv, Type: b.intptr()}
		sz := elemSize(lt)
		res := b.mustScalar(n.(cc.ExpressionNode).Type())
		var q Expr = d
		if sz > 1 {
			q = &Binary{Op: Div, X: d, Y: &Const{Type: b.intptr(), Value: sz}, Type: b.intptr()}
		}
		return b.castTo(q, res)
	}
	p, pt, iv, it := lv, lt, rv, rt
	if lt.Kind() != cc.Ptr {
		p, pt, iv, it = rv, rt, lv, lt
	}
	off := b.scaled(iv, it, elemSize(pt))
	if op == Sub {
		off = b.negOff(off)
	}
	return b.ptrAdd(p, off)
}

func (b *builder) intptr() Type { return Type{Kind: IntType, Bits: b.model.PtrBits(), Signed: true} }

func elemSize(pt cc.Type) int64 {
	if p, ok := pt.(*cc.PointerType); ok {
		if s := p.Elem().Size(); s > 0 {
			return s
		}
	}
	return 1 // void*, function pointers: GNU arithmetic in bytes
}

// scaled is i * size as a pointer-width signed byte offset.
func (b *builder) scaled(i Expr, it cc.Type, size int64) Expr {
	ip := b.intptr()
	var v Expr
	if it != nil && cc.IsIntegerType(it) && !cc.IsSignedInteger(it) && it.Size()*8 < int64(ip.Bits) {
		v = b.castTo(i, Type{Kind: IntType, Bits: int(it.Size() * 8)})
		v = b.castTo(v, ip)
	} else {
		v = b.castTo(i, ip)
	}
	if size == 1 {
		return v
	}
	return fold(&Binary{Op: Mul, X: v, Y: &Const{Type: ip, Value: size}, Type: ip})
}

func (b *builder) negOff(off Expr) Expr {
	if k, ok := off.(*Const); ok {
		return &Const{Type: k.Type, Value: -k.Value}
	}
	return &Unary{Op: Neg, X: off, Type: off.ExprType()}
}

func (b *builder) ptrAdd(p, off Expr) Expr {
	if k, ok := off.(*Const); ok {
		if k.Value == 0 {
			return p
		}
		if a, ok := p.(*AddrOf); ok {
			return &AddrOf{Object: a.Object, Offset: a.Offset + k.Value, Type: a.Type}
		}
	}
	if p.ExprType().Kind != PtrType {
		p = &Cast{X: p, Type: b.ptrType()}
	}
	return &Binary{Op: PtrAdd, X: p, Y: off, Type: b.ptrType()}
}

func (b *builder) addOff(base Expr, off int64) Expr {
	return b.ptrAdd(base, &Const{Type: b.intptr(), Value: off})
}

// compare lowers a relational or equality operator.
func (b *builder) compare(n cc.Node, op BinOp, l, r cc.ExpressionNode) Expr {
	b.setPos(n)
	lt, rt := l.Type().Decay(), r.Type().Decay()
	lv := b.rvalue(l)
	rv := b.rvalue(r)
	if lt.Kind() == cc.Ptr || rt.Kind() == cc.Ptr {
		pt := b.ptrType()
		return fold(&Binary{Op: op, X: b.castTo(lv, pt), Y: b.castTo(rv, pt), Type: Bool})
	}
	ct := cc.UsualArithmeticConversions(lt, rt)
	if ct == nil {
		b.failAt(n, "unsupported comparison operands %v, %v", lt, rt)
	}
	if isWideInt(ct) {
		// Two 64-bit unknowns would still decide x < INT64_MIN.
		return b.wideTruth(n)
	}
	return fold(&Binary{Op: op, X: b.conv(lv, lt, ct), Y: b.conv(rv, rt, ct), Type: Bool})
}

// ---- checks ----

// check emits a check site (skipped when trivially true).
func (b *builder) check(kind CheckKind, c Expr, msg string) {
	if k, ok := c.(*Const); ok && k.Value != 0 {
		return
	}
	ch := &Check{ID: len(b.prog.Checks), Kind: kind, Pos: b.pos, Func: b.curFunc, Msg: msg}
	b.prog.Checks = append(b.prog.Checks, ch)
	ch.Loc = b.emit(&CheckAct{Check: ch, Cond: c})
}

func nodeSrc(n cc.Node) string {
	if n == nil {
		return "?"
	}
	s := cc.NodeSource(n)
	if len(s) > 80 {
		s = s[:77] + "..."
	}
	return s
}
