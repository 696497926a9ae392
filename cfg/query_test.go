package cfg

import (
	"strings"
	"testing"
)

// TestInspectExprOrderAndPruning: pre-order over every operand kind, and a
// false answer skips exactly the subtree below it.
func TestInspectExprOrderAndPruning(t *testing.T) {
	g := &Var{Name: "g", Scope: Global}
	x := &Var{Name: "x", Scope: Local}
	cell := &Var{Name: "o.0", Scope: Global}
	obj := &Object{Name: "o"}
	// -(x + *(&o)) cast, then compared with g
	e := &Binary{Op: Lt,
		X: &Cast{X: &Unary{Op: Neg, X: &Binary{Op: Add,
			X: &VarRef{Var: x},
			Y: &Deref{Addr: &AddrOf{Object: obj}, Cells: []*Var{cell}}}}},
		Y: &VarRef{Var: g}}
	name := func(e Expr) string {
		switch e := e.(type) {
		case *Binary:
			return "bin"
		case *Cast:
			return "cast"
		case *Unary:
			return "neg"
		case *VarRef:
			return e.Var.Name
		case *Deref:
			return "deref"
		case *AddrOf:
			return "&" + e.Object.Name
		}
		return "?"
	}
	var seen []string
	InspectExpr(e, func(e Expr) bool { seen = append(seen, name(e)); return true })
	if got, want := strings.Join(seen, " "), "bin cast neg bin x deref &o g"; got != want {
		t.Errorf("visit order %q, want %q", got, want)
	}
	seen = seen[:0]
	InspectExpr(e, func(e Expr) bool { seen = append(seen, name(e)); _, isCast := e.(*Cast); return !isCast })
	if got, want := strings.Join(seen, " "), "bin cast g"; got != want {
		t.Errorf("pruned visit %q, want %q", got, want)
	}
	InspectExpr(nil, func(Expr) bool { t.Error("called on nil"); return true })

	if !ReadsGlobal(e) {
		t.Error("ReadsGlobal misses the global register g")
	}
	if ReadsGlobal(&Unary{Op: Neg, X: &VarRef{Var: x}}) {
		t.Error("ReadsGlobal on a local register")
	}
	if !ReadsGlobal(&Deref{Addr: &VarRef{Var: x}, Cells: []*Var{cell}}) {
		t.Error("ReadsGlobal misses a global cell behind a pointer")
	}
}
