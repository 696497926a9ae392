package explore

import (
	"chorus/cfg"
	"chorus/cfg/interp"
)

// invisibleLocs marks the locations whose action reads and writes only
// the running thread's own registers and whose moves cannot finish the
// thread: a skip; an assume, a check or a local assignment over local
// registers and constants; a havoc of a local register. Such a move
// commutes with every move of every other thread, neither enables nor
// disables any (others read neither the registers nor, since the thread
// does not reach its exit, its Done flag; entering or leaving an atomic
// section is not among them), and no other thread can disable it.
func invisibleLocs(p *cfg.Program) []bool {
	out := make([]bool, len(p.Locs))
	for i, l := range p.Locs {
		out[i] = invisibleAct(l.Act) && !reachesExit(l)
	}
	return out
}

func reachesExit(l *cfg.Loc) bool {
	for _, s := range l.Succs {
		if s == l.Template.Exit {
			return true
		}
	}
	return l == l.Template.Exit
}

func invisibleAct(a cfg.Action) bool {
	switch a := a.(type) {
	case *cfg.Skip:
		return true
	case *cfg.Assume:
		return localExpr(a.Cond)
	case *cfg.CheckAct:
		return localExpr(a.Cond)
	case *cfg.Assign:
		return localRegister(a.Dst) && localExpr(a.Src)
	case *cfg.Havoc:
		return localRegister(a.Dst)
	}
	return false
}

func localRegister(lv cfg.LValue) bool {
	r, ok := lv.(*cfg.VarRef)
	return ok && r.Var.Mem == nil && r.Var.Scope == cfg.Local
}

// localExpr reports whether e reads no memory and no global register
// (addresses are constants: taking one reads nothing).
func localExpr(e cfg.Expr) bool {
	switch e := e.(type) {
	case *cfg.Const, *cfg.AddrOf:
		return true
	case *cfg.VarRef:
		return e.Var.Mem == nil && e.Var.Scope == cfg.Local
	case *cfg.Unary:
		return localExpr(e.X)
	case *cfg.Binary:
		return localExpr(e.X) && localExpr(e.Y)
	case *cfg.Cast:
		return localExpr(e.X)
	}
	return false
}

// ample picks the thread whose moves alone expand s under the
// partial-order reduction: the lowest-numbered thread with enabled moves
// that all start at an invisible location. ok is false when there is
// none, or when only one thread can move anyway.
//
// Why no failed check, runtime error or deadlock is lost: let t stand at
// an invisible location in s and σ be any execution from s. If t moves in
// σ, its first move there starts at its current location and commutes
// with every earlier move of σ (those are other threads' moves, and t's
// move is independent of each), so some reduced successor (t's moves
// include every successor and every havoc value) begins an execution
// with the same events. If t never moves in σ, t's move followed by σ is
// an execution with the same events — unless t's move fails a check or
// errs, which ends t there: then Explore expands s fully. Repeating the argument needs the
// cycle proviso, which Explore applies: when a reduced successor was
// already visited the state is expanded fully. Then the t-only part of
// the reduced graph below s in which nothing is fully expanded is a tree
// (each successor was discovered by its edge), finite in a finite state
// space, whose leaves are states where t stands at a visible location
// (or has finished) and the argument moves on to the others; so nothing
// is ignored for ever.
func (e *explorer) ample(s *interp.State, moves []interp.Move) (interp.ThreadID, bool) {
	if e.invisible == nil || len(moves) == 0 || moves[0].Thread == moves[len(moves)-1].Thread {
		return 0, false
	}
	for i := 0; i < len(moves); {
		t := moves[i].Thread
		j := i
		for j < len(moves) && moves[j].Thread == t {
			j++
		}
		if e.invisible[s.Thread(t).Loc.ID] {
			return t, true
		}
		i = j
	}
	return 0, false
}
