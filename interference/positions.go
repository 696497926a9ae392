package interference

import (
	"encoding/binary"

	"chorus/cfg"
)

// Game positions and the compression of thread-local runs.
//
// A location is a game position when a thread standing there may do
// something another thread can observe or be constrained by:
//
//   - its action reads or writes a global variable or cell (including the
//     cells an assume reads: an assume counts as a write, DESIGN.md §3/§4);
//   - its action can block: assume, check (execution continues assuming it
//     held), acquire, join — and every other synchronization action
//     (release, atomic_begin/end, spawn, the program's init); except the
//     two arms of a complete branch on local registers (isLocalBranchAssume);
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

// isLocalBranchAssume reports whether l is one arm of a complete branch
// on thread-local registers: every predecessor of l has exactly two
// successors, l = assume(c) and a sibling assume(!c) (same canonical
// condition, opposite polarity), both reading only local registers and
// constants, and every predecessor of the sibling branches the same way. Such an assume may block, but its sibling then
// passes, and both are local (both-movers). A thread stuck at the failing
// arm is, for every other thread, indistinguishable from the same thread
// having taken the other arm (same globals, locks and atomic depth, and it
// never acts again), which is a real trace too; so the arms can be part of
// thread-local runs: runs stay non-blocking as a whole.
func isLocalBranchAssume(l *cfg.Loc) bool {
	a, ok := l.Act.(*cfg.Assume)
	if !ok || len(l.Preds) == 0 || !localRegistersOnly(a.Cond) {
		return false
	}
	// The sibling: the other successor of the first predecessor.
	p0 := l.Preds[0]
	if len(p0.Succs) != 2 {
		return false
	}
	sib := p0.Succs[0]
	if sib == l {
		sib = p0.Succs[1]
	}
	b, ok := sib.Act.(*cfg.Assume)
	if !ok || sib == l || !localRegistersOnly(b.Cond) || len(sib.Preds) != len(l.Preds) {
		return false
	}
	// Every predecessor branches to exactly {l, sib}, and they share
	// their predecessors.
	for _, p := range l.Preds {
		if len(p.Succs) != 2 || !(p.Succs[0] == l && p.Succs[1] == sib || p.Succs[0] == sib && p.Succs[1] == l) {
			return false
		}
	}
	for _, p := range sib.Preds {
		if len(p.Succs) != 2 || !(p.Succs[0] == l && p.Succs[1] == sib || p.Succs[0] == sib && p.Succs[1] == l) {
			return false
		}
	}
	c1, n1 := canonical(a.Cond)
	c2, n2 := canonical(b.Cond)
	return exprString(c1) == exprString(c2) && n1 != n2
}

func localRegistersOnly(e cfg.Expr) bool {
	switch e := e.(type) {
	case *cfg.Const:
		return e.Type.Kind == cfg.IntType
	case *cfg.VarRef:
		return e.Var.Scope == cfg.Local && !e.Var.IsCell()
	case *cfg.Unary:
		return localRegistersOnly(e.X)
	case *cfg.Binary:
		return localRegistersOnly(e.X) && localRegistersOnly(e.Y)
	case *cfg.Cast:
		return localRegistersOnly(e.X)
	}
	return false
}

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

// lvalueTouchesGlobal reports whether writing lv may write a global (or
// read one to compute the address).
func lvalueTouchesGlobal(lv cfg.LValue) bool {
	switch lv := lv.(type) {
	case nil:
		return false
	case *cfg.VarRef:
		return lv.Var.Scope == cfg.Global
	case *cfg.Deref:
		return cfg.ReadsGlobal(lv)
	}
	return false
}

// actionTouchesGlobal reports whether act reads or writes global state,
// judged from the IR alone (the DFG's Mod is consulted too by the caller).
func actionTouchesGlobal(a cfg.Action) bool {
	switch a := a.(type) {
	case *cfg.Assign:
		return lvalueTouchesGlobal(a.Dst) || cfg.ReadsGlobal(a.Src)
	case *cfg.Havoc:
		return lvalueTouchesGlobal(a.Dst)
	case *cfg.Alloc:
		return lvalueTouchesGlobal(a.Dst) || cfg.ReadsGlobal(a.Size) || a.Site == nil || a.Site.Kind == cfg.HeapObject
	case *cfg.Output:
		for _, x := range a.Args {
			if cfg.ReadsGlobal(x) {
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
		case t != nil && (l == t.Entry || l == t.Exit), len(l.Succs) == 0, globalMod(l):
			ps.isPos[l.ID] = true
		case isLocalBranchAssume(l):
			// not a position (see below)
		case isPositionAction(l.Act), actionTouchesGlobal(l.Act):
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
	// in the DFS is still fine: the walk below uses the final isPos. The
	// walk tracks the constants of flag registers (lockset.go) along the
	// run and drops paths an assume on them refutes (a thread never
	// follows them), so cf does not connect a failed trylock to the
	// critical section of a successful one.
	flags := cfg.FlagRegisters(p)
	ps.cf = make([][]int32, len(ps.locs))
	type item struct {
		l   *cfg.Loc
		env flagEnv
	}
	for i, l := range ps.locs {
		var out []int32
		got := map[int32]bool{}
		seen := map[string]bool{}
		var work []item
		for _, s := range l.Succs {
			work = append(work, item{s, nil})
		}
		for len(work) > 0 {
			it := work[len(work)-1]
			work = work[:len(work)-1]
			x := it.l
			if ps.isPos[x.ID] {
				if !got[ps.index[x.ID]] {
					got[ps.index[x.ID]] = true
					out = append(out, ps.index[x.ID])
				}
				continue
			}
			k := string(binary.LittleEndian.AppendUint64(nil, uint64(x.ID))) + pathFact{env: it.env}.key()
			if seen[k] {
				continue
			}
			seen[k] = true
			env := it.env
			switch a := x.Act.(type) {
			case *cfg.Assume:
				if v, ok := cfg.EvalFlags(a.Cond, env); ok && v == 0 {
					continue // refuted on this path
				}
			case *cfg.Assign:
				env = cfg.FlagAssign(a, env, flags)
			}
			for _, s := range x.Succs {
				work = append(work, item{s, env})
			}
		}
		ps.cf[i] = out
	}
	mark := make([]int, n)
	stamp := 0
	// preRun: non-positions from which a position is reachable through
	// non-positions (backwards from the position over Preds). When the
	// walk passes an arm of a local branch, the other arm joins too: a
	// thread stuck at a failing arm is represented in the game by the
	// same thread having taken the passing arm (isLocalBranchAssume), so
	// the values it can see while stuck are those of the passing arm's
	// run.
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
			if isLocalBranchAssume(x) {
				for _, p := range x.Preds {
					work = append(work, p.Succs...)
				}
			}
		}
		ps.preRun[i] = out
	}
	return ps
}
