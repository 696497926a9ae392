package analysis

import "chorus/cfg"

// fuseConditionLoads rewrites the pattern a frontend produces for a branch
// on one shared value,
//
//	L:  t := g                  (t a local register, g one global variable)
//	S1: assume(c1(t))   S2: assume(c2(t)) ...   (all successors of L)
//
// into
//
//	L:  skip
//	S1: assume(c1(g))   S2: assume(c2(g)) ...
//
// when t is read nowhere else and every Si has L as its only predecessor.
// DESIGN.md §4 needs the second form: the assume is then an observable
// condition over g (enabled literals, Φ̂), and it counts as a write of g,
// so the branch fact reaches the code it guards (Appendix A: "every path
// from u to v passes ... the assume counter > 0").
//
// Soundness (Lipton reduction): assume(ci(t)) reads only thread-local
// registers, so it commutes with every step of every other thread; moving
// it left next to the load makes "t := g; assume(ci(t))" one atomic step
// that checks ci on the value of g at that instant — exactly what
// assume(ci(g)) does when executed at any instant, the skip before it
// being local too. t is dead after the assumes (it is read nowhere else),
// so dropping its assignment changes no other value. The rewrite happens
// in place, before any analysis structure is built.
//
// It returns the number of loads fused.
func fuseConditionLoads(p *cfg.Program) int {
	uses := map[*cfg.Var]int{}
	for _, l := range p.Locs {
		forEachActionExpr(l.Act, func(e cfg.Expr) { countVarUses(e, uses) })
	}
	fused := 0
	for _, l := range p.Locs {
		a, ok := l.Act.(*cfg.Assign)
		if !ok || len(l.Succs) == 0 {
			continue
		}
		dst, ok := a.Dst.(*cfg.VarRef)
		if !ok || dst.Var.Scope != cfg.Local || dst.Var.IsCell() || dst.Var.Type.Kind != cfg.IntType {
			continue
		}
		t := dst.Var
		if !isSimpleGlobalRead(a.Src) || a.Src.ExprType() != t.Type {
			continue
		}
		n := 0
		okAll := true
		for _, s := range l.Succs {
			as, ok := s.Act.(*cfg.Assume)
			if !ok || len(s.Preds) != 1 || s.Preds[0] != l || s == l || !readsOnlyLocalRegisters(as.Cond) {
				okAll = false
				break
			}
			n += countIn(as.Cond, t)
		}
		if !okAll || n == 0 || n != uses[t] {
			continue
		}
		for _, s := range l.Succs {
			as := s.Act.(*cfg.Assume)
			s.Act = &cfg.Assume{Cond: substitute(as.Cond, t, a.Src)}
		}
		l.Act = &cfg.Skip{}
		uses[t] = 0
		fused++
	}
	return fused
}

// isSimpleGlobalRead: a global integer register, or a Deref of exactly one
// non-summary global cell with the access's type, at the cell's own
// address or through a local pointer register (the points-to analysis
// resolves it to that cell alone; as for dfg's strong updates).
func isSimpleGlobalRead(e cfg.Expr) bool {
	switch e := e.(type) {
	case *cfg.VarRef:
		return e.Var.Scope == cfg.Global && !e.Var.IsCell() && e.Var.Type.Kind == cfg.IntType
	case *cfg.Deref:
		if len(e.Cells) != 1 {
			return false
		}
		v := e.Cells[0]
		if v.Summary || v.Scope != cfg.Global || v.Mem == nil || v.Type != e.Type || e.Type.Kind != cfg.IntType {
			return false
		}
		switch a := e.Addr.(type) {
		case *cfg.AddrOf:
			return a.Object == v.Mem && a.Offset == v.Offset
		case *cfg.VarRef:
			return a.Var.Scope == cfg.Local && !a.Var.IsCell()
		}
	}
	return false
}

func readsOnlyLocalRegisters(e cfg.Expr) bool {
	switch e := e.(type) {
	case *cfg.Const:
		return true
	case *cfg.VarRef:
		return e.Var.Scope == cfg.Local && !e.Var.IsCell()
	case *cfg.Unary:
		return readsOnlyLocalRegisters(e.X)
	case *cfg.Binary:
		return readsOnlyLocalRegisters(e.X) && readsOnlyLocalRegisters(e.Y)
	case *cfg.Cast:
		return readsOnlyLocalRegisters(e.X)
	}
	return false
}

func countIn(e cfg.Expr, v *cfg.Var) int {
	m := map[*cfg.Var]int{}
	countVarUses(e, m)
	return m[v]
}

func countVarUses(e cfg.Expr, m map[*cfg.Var]int) {
	cfg.InspectExpr(e, func(x cfg.Expr) bool {
		if r, ok := x.(*cfg.VarRef); ok {
			m[r.Var]++
		}
		return true
	})
}

// forEachActionExpr calls f on every expression an action reads (a
// destination register itself is not a read; a Deref destination's
// address is).
func forEachActionExpr(a cfg.Action, f func(cfg.Expr)) {
	lv := func(l cfg.LValue) {
		if d, ok := l.(*cfg.Deref); ok {
			f(d.Addr)
		}
	}
	switch a := a.(type) {
	case *cfg.Assign:
		lv(a.Dst)
		f(a.Src)
	case *cfg.Assume:
		f(a.Cond)
	case *cfg.Havoc:
		lv(a.Dst)
	case *cfg.CheckAct:
		f(a.Cond)
	case *cfg.Acquire:
		f(a.Lock)
	case *cfg.Release:
		f(a.Lock)
	case *cfg.Spawn:
		if a.Fn != nil {
			f(a.Fn)
		}
		if a.Arg != nil {
			f(a.Arg)
		}
		if a.Handle != nil {
			lv(a.Handle)
		}
	case *cfg.Join:
		if a.Handle != nil {
			f(a.Handle)
		}
	case *cfg.Alloc:
		lv(a.Dst)
		if a.Size != nil {
			f(a.Size)
		}
	case *cfg.Output:
		for _, x := range a.Args {
			f(x)
		}
	}
}

// substitute returns e with every read of register v replaced by r.
func substitute(e cfg.Expr, v *cfg.Var, r cfg.Expr) cfg.Expr {
	switch x := e.(type) {
	case *cfg.VarRef:
		if x.Var == v {
			return r
		}
		return x
	case *cfg.Unary:
		return &cfg.Unary{Op: x.Op, X: substitute(x.X, v, r), Type: x.Type}
	case *cfg.Binary:
		return &cfg.Binary{Op: x.Op, X: substitute(x.X, v, r), Y: substitute(x.Y, v, r), Type: x.Type}
	case *cfg.Cast:
		return &cfg.Cast{X: substitute(x.X, v, r), Type: x.Type}
	}
	return e
}
