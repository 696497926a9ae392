package cfg

// StrongTarget returns the one variable e surely denotes: a register, or a
// Deref of exactly one non-summary memory cell of e's type (a store through
// it is strong). It returns nil for anything else: a Deref that may denote
// several cells or a summary, or an expression that is no lvalue.
func StrongTarget(e Expr) *Var {
	switch x := e.(type) {
	case *VarRef:
		if !x.Var.IsCell() {
			return x.Var
		}
	case *Deref:
		if len(x.Cells) == 1 {
			if c := x.Cells[0]; !c.Summary && c.Type == x.Type {
				return c
			}
		}
	}
	return nil
}

// ReadsGlobal reports whether evaluating e reads a Global register or may
// read a Global-scope memory cell (through a Deref's cells or its address).
func ReadsGlobal(e Expr) bool {
	found := false
	InspectExpr(e, func(x Expr) bool {
		switch x := x.(type) {
		case *VarRef:
			found = found || x.Var.Scope == Global
		case *Deref:
			for _, c := range x.Cells {
				found = found || c.Scope == Global
			}
		}
		return !found
	})
	return found
}

// InspectExpr calls f on e and then, while f returns true, on the operands
// below it, in pre-order: a Deref's address, a Unary's or Cast's operand, a
// Binary's left then right operand. Const, VarRef and AddrOf are leaves (an
// AddrOf names an object, it reads none of its cells). A nil e is skipped.
// It is the one descent through expressions; the packages that ask
// questions of an expression use it instead of a type switch of their own.
func InspectExpr(e Expr, f func(Expr) bool) {
	if e == nil || !f(e) {
		return
	}
	switch x := e.(type) {
	case *Deref:
		InspectExpr(x.Addr, f)
	case *Unary:
		InspectExpr(x.X, f)
	case *Binary:
		InspectExpr(x.X, f)
		InspectExpr(x.Y, f)
	case *Cast:
		InspectExpr(x.X, f)
	}
}
