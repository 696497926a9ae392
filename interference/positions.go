package interference

import "chorus/cfg"

// Game positions and the compression of thread-local runs.
//
// A location is a game position when a thread standing there may do
// something another thread can observe or be constrained by:
//
//   - its action reads or writes a global variable or cell (including the
//     cells an assume reads: an assume counts as a write, DESIGN.md §3/§4);
//   - its action can block: assume, check (execution continues assuming it
//     held), acquire, join — and every other synchronization action
//     (release, atomic_begin/end, spawn, the program's init);
//   - it is a template's entry or exit, or has no successor;
//   - it is the target of a back edge of a depth-first search of the
//     remaining (non-position) locations, so that no cycle consists of
//     non-positions only.
//
// Every other location is thread-local: its action touches only the
// thread's own registers, always succeeds and never synchronizes. The runs
// of such locations between two positions are therefore finite
// (acyclic), non-blocking, and both-movers in Lipton's sense: they commute
// with every step of every other thread, because they neither read nor
// write anything another thread reads or writes, and their enabledness
// (always) does not depend on other threads. By the reduction theorem, any
// execution can be reordered so that each thread runs the local run after
// a position step immediately after that step, without changing what any
// position step reads, writes, or whether it is enabled, and a thread
// caught in the middle of a run can be completed to the run's next
// position (the run cannot block or diverge). So the two-thread game may
// let threads stand at positions only, with cf(a, a') meaning "a' is
// reachable from a successor of a through non-positions". Holding the
// other thread at a' instead of a non-position l before it is no less
// permissive: the atomic-section depth and the globals are the same at l
// and a' (runs change neither), and the must-lockset at a' is a subset of
// the one at l (it is an intersection over a' 's predecessors).
//
// Mapping back: a thread standing at non-position l with the value of a
// global cell X written at w is, after completing its run, a thread
// standing at a position b reachable from l through non-positions with the
// same value of X (the run does not write X). So for every new fact
// edge(w, X, b) the DFG gets w —X→ b and w —X→ l for every l in preRun(b)
// whose invariant needs X.

// isPositionAction reports the actions that make a location a position
// whatever they access.
func isPositionAction(a cfg.Action) bool {
	switch a.(type) {
	case *cfg.Assume, *cfg.CheckAct, *cfg.Acquire, *cfg.Release,
		*cfg.AtomicBegin, *cfg.AtomicEnd, *cfg.Spawn, *cfg.Join,
		*cfg.InitGlobals:
		return true
	}
	return false
}

// readsGlobal reports whether e reads a global register or may read a
// global memory cell.
func readsGlobal(e cfg.Expr) bool {
	switch e := e.(type) {
	case nil:
		return false
	case *cfg.VarRef:
		return e.Var.Scope == cfg.Global
	case *cfg.Deref:
		for _, c := range e.Cells {
			if c.Scope == cfg.Global {
				return true
			}
		}
		return readsGlobal(e.Addr)
	case *cfg.Unary:
		return readsGlobal(e.X)
	case *cfg.Binary:
		return readsGlobal(e.X) || readsGlobal(e.Y)
	case *cfg.Cast:
		return readsGlobal(e.X)
	}
	return false
}

// lvalueTouchesGlobal reports whether writing lv may write a global (or
// read one to compute the address).
func lvalueTouchesGlobal(lv cfg.LValue) bool {
	switch lv := lv.(type) {
	case nil:
		return false
	case *cfg.VarRef:
		return lv.Var.Scope == cfg.Global
	case *cfg.Deref:
		return readsGlobal(lv)
	}
	return false
}

// actionTouchesGlobal reports whether act reads or writes global state,
// judged from the IR alone (the DFG's Mod is consulted too by the caller).
func actionTouchesGlobal(a cfg.Action) bool {
	switch a := a.(type) {
	case *cfg.Assign:
		return lvalueTouchesGlobal(a.Dst) || readsGlobal(a.Src)
	case *cfg.Havoc:
		return lvalueTouchesGlobal(a.Dst)
	case *cfg.Alloc:
		return lvalueTouchesGlobal(a.Dst) || readsGlobal(a.Size) || a.Site == nil || a.Site.Kind == cfg.HeapObject
	case *cfg.Output:
		for _, x := range a.Args {
			if readsGlobal(x) {
				return true
			}
		}
	case *cfg.Skip:
		return false
	default:
		// Unknown or synchronization actions: treat as touching.
		return !isLocalOnly(a)
	}
	return false
}

func isLocalOnly(a cfg.Action) bool {
	switch a.(type) {
	case *cfg.Skip, *cfg.Output:
		return true
	}
	return false
}

// positions computes the game positions, the position-level control flow
// and the runs that precede each position.
type positions struct {
	isPos  []bool     // by location ID
	index  []int32    // location ID -> position index, -1 for non-positions
	locs   []*cfg.Loc // position index -> location
	cf     [][]int32  // position index -> successor positions
	preRun [][]*cfg.Loc
}

func computePositions(p *cfg.Program, globalMod func(*cfg.Loc) bool) *positions {
	n := len(p.Locs)
	ps := &positions{isPos: make([]bool, n), index: make([]int32, n)}
	for _, l := range p.Locs {
		t := l.Template
		switch {
		case t != nil && (l == t.Entry || l == t.Exit), len(l.Succs) == 0,
			isPositionAction(l.Act), actionTouchesGlobal(l.Act), globalMod(l):
			ps.isPos[l.ID] = true
		}
	}
	// Break cycles of non-positions: a DFS over non-position locations
	// only; the target of every back edge becomes a position.
	const (
		white = 0
		grey  = 1
		black = 2
	)
	color := make([]uint8, n)
	type frame struct {
		l *cfg.Loc
		i int
	}
	for _, root := range p.Locs {
		if ps.isPos[root.ID] || color[root.ID] != white {
			continue
		}
		stack := []frame{{root, 0}}
		color[root.ID] = grey
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			if f.i == len(f.l.Succs) {
				color[f.l.ID] = black
				stack = stack[:len(stack)-1]
				continue
			}
			s := f.l.Succs[f.i]
			f.i++
			if ps.isPos[s.ID] {
				continue
			}
			switch color[s.ID] {
			case white:
				color[s.ID] = grey
				stack = append(stack, frame{s, 0})
			case grey:
				ps.isPos[s.ID] = true // back edge: cut the cycle here
			}
		}
	}
	for _, l := range p.Locs {
		ps.index[l.ID] = -1
		if ps.isPos[l.ID] {
			ps.index[l.ID] = int32(len(ps.locs))
			ps.locs = append(ps.locs, l)
		}
	}
	// cf: positions reachable from a position's successors through
	// non-positions. A location made a position after being visited grey
	// in the DFS is still fine: the walk below uses the final isPos.
	ps.cf = make([][]int32, len(ps.locs))
	mark := make([]int, n)
	stamp := 0
	for i, l := range ps.locs {
		stamp++
		var out []int32
		work := append([]*cfg.Loc(nil), l.Succs...)
		for len(work) > 0 {
			x := work[len(work)-1]
			work = work[:len(work)-1]
			if mark[x.ID] == stamp {
				continue
			}
			mark[x.ID] = stamp
			if ps.isPos[x.ID] {
				out = append(out, ps.index[x.ID])
				continue
			}
			work = append(work, x.Succs...)
		}
		ps.cf[i] = out
	}
	// preRun: non-positions from which a position is reachable through
	// non-positions (backwards from the position over Preds).
	ps.preRun = make([][]*cfg.Loc, len(ps.locs))
	for i, l := range ps.locs {
		stamp++
		var out []*cfg.Loc
		work := append([]*cfg.Loc(nil), l.Preds...)
		for len(work) > 0 {
			x := work[len(work)-1]
			work = work[:len(work)-1]
			if ps.isPos[x.ID] || mark[x.ID] == stamp {
				continue
			}
			mark[x.ID] = stamp
			out = append(out, x)
			work = append(work, x.Preds...)
		}
		ps.preRun[i] = out
	}
	return ps
}
