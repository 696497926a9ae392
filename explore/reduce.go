package explore

import (
	"chorus/cfg"
	"chorus/cfg/interp"
)

// invisibleLocs marks the locations whose action reads and writes only
// the running thread's own registers and whose moves cannot finish the
// thread nor stand it at an exclusive location: a skip; an assume, a
// check or a local assignment over local registers and constants; a havoc
// of a local register. Such a move commutes with every move of every
// other thread, neither enables nor disables any (others read neither the
// registers nor, since the thread does not reach its exit, its Done flag;
// entering or leaving an atomic section is not among them; and a thread
// standing at an Exclusive location disables every other, so a move onto
// one is visible), and no other thread can disable it for good (one
// standing at an exclusive location holds it back only while it stands
// there; in any execution where the thread moves, nobody stands at one
// at that moment, which is all the argument at ample needs).
func invisibleLocs(p *cfg.Program, exclusive []bool) []bool {
	out := make([]bool, len(p.Locs))
	for i, l := range p.Locs {
		out[i] = invisibleAct(l.Act) && !reachesExit(l) && !reachesExclusive(l, exclusive)
	}
	return out
}

// reachesExclusive reports whether a move from l can stand the thread at
// an exclusive location (Options.Exclusive), where it disables every
// other thread.
func reachesExclusive(l *cfg.Loc, exclusive []bool) bool {
	if exclusive == nil {
		return false
	}
	for _, s := range l.Succs {
		if exclusive[s.ID] {
			return true
		}
	}
	return false
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
		return LocalExpr(a.Cond)
	case *cfg.CheckAct:
		return LocalExpr(a.Cond)
	case *cfg.Assign:
		return LocalRegister(a.Dst) && LocalExpr(a.Src)
	case *cfg.Havoc:
		return LocalRegister(a.Dst)
	}
	return false
}

// LocalRegister reports whether lv is a register of the running thread.
func LocalRegister(lv cfg.LValue) bool {
	r, ok := lv.(*cfg.VarRef)
	return ok && r.Var.Mem == nil && r.Var.Scope == cfg.Local
}

// LocalExpr reports whether e reads no memory and no global register
// (addresses are constants: taking one reads nothing). confirm uses it too.
func LocalExpr(e cfg.Expr) bool {
	local := e != nil
	cfg.InspectExpr(e, func(x cfg.Expr) bool {
		switch x := x.(type) {
		case *cfg.Const, *cfg.AddrOf, *cfg.Unary, *cfg.Binary, *cfg.Cast:
		case *cfg.VarRef:
			local = local && x.Var.Mem == nil && x.Var.Scope == cfg.Local
		default: // a Deref reads memory
			local = false
		}
		return local
	})
	return local
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
		// A pending thread's first move starts it, which can disable
		// the start of others (interp.Options.LazyStart): visible.
		if th := s.Thread(t); e.invisible[th.Loc.ID] && !th.Pending {
			return t, true
		}
		i = j
	}
	return 0, false
}

// maxForced bounds the forced moves advance runs in a row (a thread
// looping alone would otherwise never stop).
const maxForced = 256

// advance runs, from ns (just reached from node parent by step), the
// moves that are forced, without storing the states in between, and
// returns the state it stops at; e.forced holds the moves it ran. A move
// is forced in a state when
//
//   - (a) it is the only enabled move of the state (one thread inside an
//     atomic section, or every other thread blocked or finished), and
//     it is not a havoc: the state has a single successor, so storing it
//     adds nothing — it is no deadlock, and a failed check or error of
//     that move is recorded here (with its whole schedule), after which
//     no state is returned (nil); or
//   - (b) ample picks its thread, which has only this move, not a havoc:
//     a reduced state with a single successor. If the move may fail or
//     err, it runs on a copy; if it does fail, the state before it is
//     returned instead (and stored by the caller), so that its full
//     expansion runs the other threads there.
//
// Seen from the stored states, a run of forced moves is one move of the
// reduced graph, and the arguments of ample (independence, and the cycle
// proviso applied to the stored states) carry over: every cycle of the
// reduced graph passes through stored states, since runs are bounded.
// A thread standing at a location whose only successor is itself (a
// halted end, see confirm) is never forced: that move changes nothing.
//
// advance is deterministic: schedule runs it again to rebuild the moves
// of a path (record false: nothing is recorded), so nodes do not store
// them.
func (e *explorer) advance(ns *interp.State, parent int, step interp.Step, record bool) *interp.State {
	e.forced = e.forced[:0]
	for range maxForced {
		if record {
			e.noteBounded(ns)
		}
		moves := e.enabled(ns)
		if len(moves) == 0 {
			break
		}
		single := len(moves) == 1
		t := moves[0].Thread
		if !single {
			var ok bool
			if t, ok = e.ample(ns, moves); !ok {
				break
			}
			n := 0
			for _, mv := range moves {
				if mv.Thread == t {
					n++
				}
			}
			if n != 1 {
				break
			}
		}
		var mv interp.Move
		for _, m := range moves {
			if m.Thread == t {
				mv = m
				break
			}
		}
		loc := ns.Thread(t).Loc
		if _, ok := loc.Act.(*cfg.Havoc); ok || len(loc.Succs) == 1 && loc.Succs[0] == loc {
			break
		}
		st := interp.Step{Thread: t, Loc: loc.ID, Succ: mv.Succ, Pos: loc.Pos}
		// ns is this search's own copy (no stored state shares what it
		// changes), so the move runs in place, unless it may fail where
		// the state before it must survive (b).
		next := ns
		var ev interp.Event
		if single || !mayFail(loc.Act) && !e.uninit {
			ev = e.m.StepInPlace(ns, mv)
			if ev.Kind != interp.NoEvent && ev.Kind != interp.OutputEvent {
				next = nil
				if !single {
					panic("explore: an invisible move failed") // mayFail is wrong
				}
			}
		} else {
			next, ev = e.m.Step(ns, mv)
		}
		if record {
			e.res.Transitions++
		}
		if next == nil {
			if !single {
				break // the caller stores ns and expands it fully
			}
			if record {
				switch ev.Kind {
				case interp.CheckFailed:
					if !e.failed[ev.Check] {
						e.failed[ev.Check] = true
						e.addFailure(Failure{ev, e.schedule(parent, append(append([]interp.Step{step}, e.forced...), st)...)})
					}
				case interp.ErrorEvent:
					if !e.errAt[loc] {
						e.errAt[loc] = true
						e.res.Errors = append(e.res.Errors, Failure{ev, e.schedule(parent, append(append([]interp.Step{step}, e.forced...), st)...)})
					}
				}
			}
			return nil
		}
		e.forced = append(e.forced, st)
		ns = next
	}
	return ns
}

// mayFail reports whether an invisible action may fail a check or err
// (a check; a division, remainder or shift in what it evaluates). With
// Options.CheckUninit any read of a register may err too: advance then
// runs every move of (b) on a copy.
func mayFail(a cfg.Action) bool {
	switch a := a.(type) {
	case *cfg.CheckAct:
		return true
	case *cfg.Assume:
		return exprMayFail(a.Cond)
	case *cfg.Assign:
		return exprMayFail(a.Src)
	case *cfg.Skip:
		return false
	}
	return true
}

func exprMayFail(e cfg.Expr) bool {
	switch e := e.(type) {
	case *cfg.Const, *cfg.AddrOf, *cfg.VarRef:
		return false
	case *cfg.Unary:
		return exprMayFail(e.X)
	case *cfg.Cast:
		return exprMayFail(e.X)
	case *cfg.Binary:
		switch e.Op {
		case cfg.Div, cfg.Rem, cfg.Shl, cfg.Shr:
			return true
		}
		return exprMayFail(e.X) || exprMayFail(e.Y)
	}
	return true
}
