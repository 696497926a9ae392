package cfg

import "modernc.org/cc/v4"

// Address-taken locals and parameters.
//
// A local or parameter whose address is never taken is a register (one
// per thread, strong updates, relational cells); otherwise it is a
// LocalObject reached through points-to. cc marks the declarator an &
// resolves to (Declarator.AddressTaken); as a conservative complement the
// builder used to count every &name of the unit against every local of
// that name, so a parameter m of __VERIFIER_atomic_acquire(int *m) became
// an object as soon as some function wrote &m of the global m (SV-COMP's
// 25_stack: the lock pointer then went through memory and the atomic
// sections were no longer seen as a lock, cfg/atomiclock.go).
//
// localAddrTaken counts an & against a declarator when the identifier at
// its base resolves to that declarator (cc's scope resolution, the one
// every read of the name uses too), and against every local of the name
// only when cc did not resolve it. So each &x still marks the variable it
// denotes, and a variable whose address may be taken is never a register.

// localAddrTaken reports whether the address of local or parameter d may
// be taken.
func (b *builder) localAddrTaken(d *cc.Declarator) bool {
	if d == nil {
		return false
	}
	if d.AddressTaken() {
		return true
	}
	for _, ast := range b.asts {
		u := b.unitUsesOf(ast)
		if u.addrOfDecls[d] || u.addrOfUnresolved[d.Name()] {
			return true
		}
	}
	return false
}

// noteAddrOf records the & of operand e (unitUsesOf's walk) by the
// declarator its base identifier resolves to, or by name when cc
// resolved it to nothing we recognize.
func (u *unitUses) noteAddrOf(e cc.ExpressionNode) {
	pe := basePrimary(e)
	if pe == nil {
		return
	}
	switch d := pe.ResolvedTo().(type) {
	case *cc.Declarator:
		if d != nil {
			u.addrOfDecls[d] = true
			return
		}
	case *cc.Parameter:
		if d != nil && d.Declarator != nil {
			u.addrOfDecls[d.Declarator] = true
			return
		}
	}
	u.addrOfUnresolved[pe.Token.SrcStr()] = true
}

// basePrimary is baseIdent's identifier expression (nil when none).
func basePrimary(n cc.ExpressionNode) *cc.PrimaryExpression {
	for {
		switch x := n.(type) {
		case *cc.PrimaryExpression:
			switch x.Case {
			case cc.PrimaryExpressionIdent:
				return x
			case cc.PrimaryExpressionExpr:
				n = x.ExpressionList
				continue
			}
			return nil
		case *cc.PostfixExpression:
			switch x.Case {
			case cc.PostfixExpressionSelect:
				n = x.PostfixExpression
				continue
			case cc.PostfixExpressionIndex:
				if x.PostfixExpression.Type().Kind() == cc.Array {
					n = x.PostfixExpression
					continue
				}
			}
			return nil
		case *cc.ExpressionList:
			if x.ExpressionList == nil {
				n = x.AssignmentExpression
				continue
			}
			return nil
		}
		return nil
	}
}
