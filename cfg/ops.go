package cfg

import (
	"strconv"

	"modernc.org/cc/v4"
)

func fmtInt(v int64) string { return strconv.FormatInt(v, 10) }

func (b *builder) postfix(x *cc.PostfixExpression, discard bool) Expr {
	b.setPos(x)
	switch x.Case {
	case cc.PostfixExpressionPrimary:
		return b.rvalue(x.PrimaryExpression)
	case cc.PostfixExpressionCall:
		return b.call(x, discard)
	case cc.PostfixExpressionInc, cc.PostfixExpressionDec:
		return b.incDec(x, x.PostfixExpression, x.Case == cc.PostfixExpressionInc, true, discard)
	case cc.PostfixExpressionIndex, cc.PostfixExpressionSelect, cc.PostfixExpressionPSelect, cc.PostfixExpressionComplit:
		return b.load(b.lvalue(x))
	}
	b.fail("unsupported postfix expression")
	return nil
}

func (b *builder) unary(x *cc.UnaryExpression, discard bool) Expr {
	b.setPos(x)
	switch x.Case {
	case cc.UnaryExpressionPostfix:
		return b.rvalue(x.PostfixExpression)
	case cc.UnaryExpressionInc, cc.UnaryExpressionDec:
		return b.incDec(x, x.UnaryExpression, x.Case == cc.UnaryExpressionInc, false, discard)
	case cc.UnaryExpressionAddrof:
		return b.addrOf(x.CastExpression)
	case cc.UnaryExpressionDeref:
		if x.Type().Undecay().Kind() == cc.Function || x.Type().Kind() == cc.Function {
			return b.rvalue(x.CastExpression)
		}
		return b.load(b.lvalue(x))
	case cc.UnaryExpressionPlus:
		return b.conv(b.rvalue(x.CastExpression), x.CastExpression.Type(), x.Type())
	case cc.UnaryExpressionMinus:
		v := b.conv(b.rvalue(x.CastExpression), x.CastExpression.Type(), x.Type())
		t := b.mustScalar(x.Type())
		if k, ok := v.(*Const); ok && t.Kind == IntType {
			return &Const{Type: t, Value: wrap(-k.Value, t)}
		}
		if t.Kind == IntType && t.Signed {
			b.check(OverflowCheck, &Binary{Op: Ne, X: v, Y: &Const{Type: t, Value: typeMin(t)}, Type: Bool}, "signed overflow in "+nodeSrc(x))
		}
		return &Unary{Op: Neg, X: v, Type: t}
	case cc.UnaryExpressionCpl:
		v := b.conv(b.rvalue(x.CastExpression), x.CastExpression.Type(), x.Type())
		t := b.mustScalar(x.Type())
		if k, ok := v.(*Const); ok {
			return &Const{Type: t, Value: wrap(^k.Value, t)}
		}
		return &Unary{Op: BitNot, X: v, Type: t}
	case cc.UnaryExpressionNot:
		v := b.rvalue(x.CastExpression)
		if k, ok := v.(*Const); ok {
			if k.Value == 0 {
				return &Const{Type: Bool, Value: 1}
			}
			return &Const{Type: Bool}
		}
		return &Unary{Op: Not, X: v, Type: Bool}
	case cc.UnaryExpressionSizeofExpr, cc.UnaryExpressionSizeofType, cc.UnaryExpressionAlignofExpr, cc.UnaryExpressionAlignofType:
		// The operand is not evaluated (unless it is a VLA), so its side
		// effects do not matter: cc's value is the answer.
		st := b.mustScalar(x.Type())
		if v, ok := intValue(x.Value()); ok {
			return &Const{Type: st, Value: wrap(v, st)}
		}
		// A variable length type: its size is computed when the
		// declaration runs, which the IR does not keep. Any value of the
		// result type (sound; said once per site). A type name's sizes
		// are evaluated here, side effects included (C11 6.5.3.4p2):
		// sizeof(int[h++]) increments h (lower.go arraySizeEffects).
		if x.Case == cc.UnaryExpressionSizeofType && x.TypeName != nil {
			b.abstractSizeEffects(x.TypeName.AbstractDeclarator)
		}
		b.approx(x, "sizeof of a variable length type is any value here")
		return b.nondet(x.Type())
	case cc.UnaryExpressionImag, cc.UnaryExpressionReal:
		b.fail("unsupported: complex numbers")
	case cc.UnaryExpressionLabelAddr:
		b.fail("unsupported: address of a label")
	}
	b.fail("unsupported unary expression")
	return nil
}

// addrOf lowers &e.
func (b *builder) addrOf(e cc.ExpressionNode) Expr {
	if p := unparen(e); p != nil && p.Case == cc.PrimaryExpressionIdent {
		if d, ok := p.ResolvedTo().(*cc.Declarator); ok && d.Type().Kind() == cc.Function {
			return &AddrOf{Object: b.funcObject(b.lname(d)), Type: b.ptrType()}
		}
	}
	if pe, ok := e.(*cc.PostfixExpression); ok && pe.Case == cc.PostfixExpressionIndex {
		lv := b.index(pe, true)
		return lv.addr
	}
	if ue, ok := e.(*cc.UnaryExpression); ok && ue.Case == cc.UnaryExpressionDeref {
		return b.rvalue(ue.CastExpression) // &*p == p
	}
	lv := b.lvalue(e)
	if lv.reg != nil {
		b.failAt(e, "internal: address of register variable %s", lv.reg.Name)
	}
	if lv.field != nil {
		b.failAt(e, "address of a bit-field")
	}
	return lv.addr
}

// incDec lowers ++/-- (prefix or postfix).
func (b *builder) incDec(n cc.Node, operand cc.ExpressionNode, inc, post, discard bool) Expr {
	if isAtomicObject(operand) {
		// C11: ++/-- on an _Atomic object is one atomic read-modify-write.
		b.emit(&AtomicBegin{})
		defer b.emit(&AtomicEnd{})
	}
	lv := b.lvalue(operand)
	t := operand.Type()
	var old Expr
	if discard || !post {
		old = b.load(lv)
	} else {
		old = b.loadSnapshot(lv)
	}
	var nv Expr
	if t.Kind() == cc.Ptr {
		d := elemSize(t)
		if !inc {
			d = -d
		}
		nv = b.ptrAdd(old, &Const{Type: b.intptr(), Value: d})
	} else {
		op := Add
		if !inc {
			op = Sub
		}
		// The operation happens in the promoted type (char++ cannot
		// overflow: the conversion back is implementation-defined).
		pt := cc.IntegerPromotion(t)
		if !cc.IsIntegerType(t) {
			pt = t
		}
		one := b.conv(&Const{Type: Int32, Value: 1}, b.asts[0].Int, pt)
		nv = b.arithValues(n, op, old, t, one, pt, pt)
		nv = b.conv(nv, pt, t)
	}
	if !discard && !post {
		// The new value must survive the store (for registers).
		if _, ok := nv.(*Const); !ok {
			tmp := b.temp(b.mustScalar(t))
			b.emit(&Assign{Dst: &VarRef{Var: tmp}, Src: b.castTo(nv, tmp.Type)})
			nv = &VarRef{Var: tmp}
		}
	}
	b.store(lv, nv)
	if post {
		return old
	}
	return nv
}

// assignment lowers = and the compound assignments. It returns the value
// assigned (the address for aggregates).
func (b *builder) assignment(x *cc.AssignmentExpression, discard bool) Expr {
	b.setPos(x)
	lt := x.UnaryExpression.Type()
	if x.Case == cc.AssignmentExpressionAssign {
		lv := b.lvalue(x.UnaryExpression)
		save := b.allocHint
		b.allocHint = lt
		rv := b.rvalue(x.AssignmentExpression)
		b.allocHint = save
		if isAggregate(lt) {
			b.copyAgg(lv.addr, rv, lt)
			return lv.addr
		}
		v := b.conv(rv, x.AssignmentExpression.Type(), lt)
		if !discard {
			if _, ok := v.(*Const); !ok {
				tmp := b.temp(b.mustScalar(lt))
				b.emit(&Assign{Dst: &VarRef{Var: tmp}, Src: b.castTo(v, tmp.Type)})
				v = &VarRef{Var: tmp}
			}
		}
		b.store(lv, v)
		return v
	}
	var op BinOp
	switch x.Case {
	case cc.AssignmentExpressionMul:
		op = Mul
	case cc.AssignmentExpressionDiv:
		op = Div
	case cc.AssignmentExpressionMod:
		op = Rem
	case cc.AssignmentExpressionAdd:
		op = Add
	case cc.AssignmentExpressionSub:
		op = Sub
	case cc.AssignmentExpressionLsh:
		op = Shl
	case cc.AssignmentExpressionRsh:
		op = Shr
	case cc.AssignmentExpressionAnd:
		op = And
	case cc.AssignmentExpressionXor:
		op = Xor
	case cc.AssignmentExpressionOr:
		op = Or
	}
	if isAtomicObject(x.UnaryExpression) {
		// C11: compound assignment to an _Atomic object is one atomic
		// read-modify-write (the right operand is evaluated inside the
		// section too: it reads no shared state in well-formed code, and
		// a longer section only removes interleavings of local steps).
		b.emit(&AtomicBegin{})
		defer b.emit(&AtomicEnd{})
	}
	lv := b.lvalue(x.UnaryExpression)
	old := b.load(lv)
	rt := x.AssignmentExpression.Type().Decay()
	rv := b.rvalue(x.AssignmentExpression)
	var nv Expr
	if lt.Kind() == cc.Ptr {
		off := b.scaled(rv, rt, elemSize(lt))
		if op == Sub {
			off = b.negOff(off)
		}
		nv = b.ptrAdd(old, off)
	} else {
		var opT cc.Type
		if op == Shl || op == Shr {
			opT = cc.IntegerPromotion(lt)
		} else {
			opT = cc.UsualArithmeticConversions(cc.IntegerPromotion(lt), cc.IntegerPromotion(rt))
			if opT == nil {
				b.fail("unsupported compound assignment operands")
			}
		}
		nv = b.arithValues(x, op, old, lt, rv, rt, opT)
		nv = b.conv(nv, opT, lt)
	}
	if !discard {
		if _, ok := nv.(*Const); !ok {
			tmp := b.temp(b.mustScalar(lt))
			b.emit(&Assign{Dst: &VarRef{Var: tmp}, Src: b.castTo(nv, tmp.Type)})
			nv = &VarRef{Var: tmp}
		}
	}
	b.store(lv, nv)
	return nv
}

// isAtomicObject reports whether e names a variable declared _Atomic.
func isAtomicObject(e cc.ExpressionNode) bool {
	p := unparen(e)
	if p == nil || p.Case != cc.PrimaryExpressionIdent {
		return false
	}
	d, ok := p.ResolvedTo().(*cc.Declarator)
	return ok && d.IsAtomic()
}

// Negated is the comparison that holds exactly when op does not
// (Lt ↔ Ge, Le ↔ Gt, Eq ↔ Ne); other operators are returned unchanged.
func (op BinOp) Negated() BinOp {
	switch op {
	case Eq:
		return Ne
	case Ne:
		return Eq
	case Lt:
		return Ge
	case Le:
		return Gt
	case Gt:
		return Le
	case Ge:
		return Lt
	}
	return op
}

// Swapped is the comparison with its operands exchanged: l op r ⇔
// r op.Swapped() l (Lt ↔ Gt, Le ↔ Ge; Eq, Ne and others unchanged).
func (op BinOp) Swapped() BinOp {
	switch op {
	case Lt:
		return Gt
	case Le:
		return Ge
	case Gt:
		return Lt
	case Ge:
		return Le
	}
	return op
}
