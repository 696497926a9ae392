package cfg

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
