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
	switch e := e.(type) {
	case nil:
		return false
	case *VarRef:
		return e.Var.Scope == Global
	case *Deref:
		for _, c := range e.Cells {
			if c.Scope == Global {
				return true
			}
		}
		return ReadsGlobal(e.Addr)
	case *Unary:
		return ReadsGlobal(e.X)
	case *Binary:
		return ReadsGlobal(e.X) || ReadsGlobal(e.Y)
	case *Cast:
		return ReadsGlobal(e.X)
	}
	return false
}
