package interference

import (
	"sort"

	"chorus/cfg"
)

// Handoffs: main's pre-spawn value of a global is stale once main has
// seen a flag set inside another thread's critical section and acquired
// that lock since.
//
// SV-COMP pthread-ext/23_lu-fig2: a thread takes lock L, sets start_main
// = 1, increments COUNT, releases L; main waits for start_main != 0, takes
// and releases L, and asserts COUNT == 1. The reaching definitions of
// COUNT at main's assert include main's own initialization (InitGlobals,
// COUNT = 0): nothing in main overwrites it, and the interference edges
// only add the thread's 1.
//
// Premises, for a global register f with a constant initial value c0, a
// lock L of the checked must-lockset (lockset.go), a global register x
// and a location v of main (a singleton main that is never spawned):
//
//   - H1: every location that writes f (cfg.ModVars, assumes and checks
//     aside) is outside main, surely holds L, and is a strong assignment
//     f := c of a constant c != c0;
//   - H2: from every such write, every path of its thread reaches a
//     strong assignment of x before a Release of L (paths that never
//     release L do not matter; a path that reaches a location where L is
//     not surely held without a Release fails the premise);
//   - H3: on every path of main from its entry to v, main executed an
//     assume that is false when f == c0 and, after it, an Acquire of L;
//   - H4: x is the only global of its cell X, and no location of main
//     that writes one of main's locals of X reaches v (main's locals of X
//     are uninitialized at v on every path, any value: the ⊥ source).
//
// Then the sequential edges of X into v from main's pre-spawn locations
// (InitGlobals included) are dropped (dfg.Graph.DropSequential).
//
// Why this is sound for any number of threads. When main stands at v it
// saw f != c0 at some moment τ1 (H3). f was c0 at the start and only
// other threads write it, each holding L (H1), so some thread w wrote f
// at τ0 < τ1 while holding L. Main acquired L at τ2 > τ1 (H3); L is a
// mutex, so w released L at some τr in (τ0, τ2) (a thread that never
// releases L would keep main out for ever). By H2 w's path from its write
// of f to that release wrote x at some τx in (τ0, τr). Main's pre-spawn
// locations all ran before any other thread existed, hence before τx: the
// last write of x before main stands at v is not one of them, and x is
// the only global of X. The edges from those locations carried X's value
// as they left it, x included: no execution reaches v with that value.
// The remaining edges cover every other last writer as before (another
// thread: the game; main after its first spawn: the reaching
// definitions). Main's locals of X hold, by H4, no value any definition
// gave them, which the dropped edges did not describe either.

// WithHandoffs turns the handoff rule on or off (default on).
func WithHandoffs(on bool) Option { return func(e *Engine) { e.noHandoffs = !on } }

// WithUnsoundHandoffs is UNSOUND, for the oracle's mutation test only:
// H2 is not checked (the flag's writer need not write x before it
// releases the lock).
func WithUnsoundHandoffs() Option { return func(e *Engine) { e.unsoundHandoffs = true } }

// handoffBudget bounds the locations the H2 walks visit in all; past it
// HandoffDrops gives up (no drops).
const handoffBudget = 2_000_000

// HandoffDrops returns, by location ID of main, the cells whose
// sequential edges from main's pre-spawn locations are dropped there
// (sorted); nil when there are none.
func (e *Engine) HandoffDrops() map[int][]int {
	p := e.prog
	if e.noHandoffs || len(p.Templates) == 0 || mainSpawned(p) || len(e.locks.vars) == 0 {
		return nil
	}
	main := p.Templates[0]
	// Candidate flags: H1.
	type flag struct {
		v     *cfg.Var
		c0    int64
		locks bitset // held at every write
	}
	writesOf := map[*cfg.Var][]*cfg.Loc{}
	for _, l := range p.Locs {
		switch l.Act.(type) {
		case *cfg.Assume, *cfg.CheckAct, *cfg.InitGlobals:
			continue // (InitGlobals: the initial value c0)
		}
		for _, v := range cfg.ModVars(l.Act) {
			if v.Scope == cfg.Global {
				writesOf[v] = append(writesOf[v], l)
			}
		}
	}
	var flags []flag
	for v, ws := range writesOf {
		if v.IsCell() || v.ThreadLocal || v.Type.Kind != cfg.IntType {
			continue
		}
		c0 := int64(0)
		if v.Init != nil {
			k, ok := v.Init.(*cfg.Const)
			if !ok {
				continue
			}
			c0 = k.Value
		}
		held := append(bitset(nil), e.lockAt[ws[0].ID]...)
		ok := true
		for _, w := range ws {
			a, isAssign := w.Act.(*cfg.Assign)
			if !isAssign || w.Template == main || cfg.StrongTarget(a.Dst) != v {
				ok = false
				break
			}
			k, isConst := a.Src.(*cfg.Const)
			if !isConst || k.Value == c0 {
				ok = false
				break
			}
			for i := range held {
				held[i] &= e.lockAt[w.ID][i]
			}
		}
		if ok && firstBit(held) >= 0 {
			flags = append(flags, flag{v, c0, held})
		}
	}
	if len(flags) == 0 {
		return nil
	}
	sort.Slice(flags, func(i, j int) bool { return flags[i].v.ID < flags[j].v.ID })

	// Cells: x the only global of its cell; main's locals of it.
	globalsOf := map[int][]*cfg.Var{}
	mainLocals := map[int]map[*cfg.Var]bool{}
	for _, v := range p.Vars {
		c := e.cells.CellOf(v)
		if c < 0 {
			continue
		}
		switch {
		case v.Scope == cfg.Global:
			globalsOf[c] = append(globalsOf[c], v)
		case v.Template == main:
			if mainLocals[c] == nil {
				mainLocals[c] = map[*cfg.Var]bool{}
			}
			mainLocals[c][v] = true
		}
	}

	out := map[int][]int{}
	budget := handoffBudget
	for _, f := range flags {
		for li := range e.locks.vars {
			if !f.locks.has(li) {
				continue
			}
			seen := e.handoffState(main, f.v, f.c0, li)
			if seen == nil {
				continue
			}
			// The x written on every path from each write of f before L
			// is released (H2), one cell at a time.
			for c, gs := range globalsOf {
				if len(gs) != 1 || !e.cells.Global(c) {
					continue
				}
				x := gs[0]
				if x.IsCell() || x == f.v {
					continue
				}
				if !e.unsoundHandoffs {
					ok, steps := e.writesBeforeRelease(writesOf[f.v], x, li)
					if budget -= steps; budget < 0 {
						return nil // too costly: no drops (sound)
					}
					if !ok {
						continue
					}
				}
				reach := localDefsReach(p, main, mainLocals[c])
				for _, l := range main.Locs {
					if seen[l.ID] && !reach[l.ID] {
						out[l.ID] = insertSorted(out[l.ID], c)
					}
				}
			}
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// handoffState is H3 for flag f and lock li: by location ID, whether main
// has, on every path from its entry, executed an assume that is false
// when f == c0 and, after it, an Acquire of the lock. nil when no location
// has it. A must-analysis: 0 nothing, 1 saw f != c0, 2 then acquired;
// the meet is the minimum, and nothing lowers a state (f never returns to
// c0, and an acquire after the observation stays in the past).
func (e *Engine) handoffState(main *cfg.Template, f *cfg.Var, c0 int64, li int) []bool {
	p := e.prog
	const unset = -1
	st := make([]int8, len(p.Locs))
	for i := range st {
		st[i] = unset
	}
	lock := e.locks.vars[li]
	transfer := func(l *cfg.Loc, s int8) int8 {
		switch a := l.Act.(type) {
		case *cfg.Assume:
			if s == 0 && exprReads(a.Cond, f) {
				if x, ok := cfg.EvalFlags(a.Cond, cfg.FlagEnv(nil).With(f.ID, c0)); ok && x == 0 {
					return 1
				}
			}
		case *cfg.Acquire:
			if s == 1 && lockCell(a.Lock) == lock {
				return 2
			}
		}
		return s
	}
	if main.Entry == nil {
		return nil
	}
	st[main.Entry.ID] = 0
	work := []*cfg.Loc{main.Entry}
	for len(work) > 0 {
		l := work[len(work)-1]
		work = work[:len(work)-1]
		out := transfer(l, st[l.ID])
		for _, s := range l.Succs {
			if s.Template != main {
				continue
			}
			if st[s.ID] == unset || out < st[s.ID] {
				st[s.ID] = out
				work = append(work, s)
			}
		}
	}
	var seen []bool
	for _, l := range main.Locs {
		if st[l.ID] == 2 {
			if seen == nil {
				seen = make([]bool, len(p.Locs))
			}
			seen[l.ID] = true
		}
	}
	return seen
}

// writesBeforeRelease is H2: from each location of ws (which surely hold
// lock li), every path of its thread reaches a strong assignment of x
// before a Release of the lock, and L stays surely held until then.
func (e *Engine) writesBeforeRelease(ws []*cfg.Loc, x *cfg.Var, li int) (ok bool, steps int) {
	lock := e.locks.vars[li]
	visited := make([]bool, len(e.prog.Locs))
	var work []*cfg.Loc
	for _, w := range ws {
		work = append(work, w.Succs...)
	}
	for len(work) > 0 {
		l := work[len(work)-1]
		work = work[:len(work)-1]
		if visited[l.ID] {
			continue
		}
		visited[l.ID] = true
		steps++
		if a, ok := l.Act.(*cfg.Assign); ok && cfg.StrongTarget(a.Dst) == x {
			continue // x written: this path is done
		}
		if a, ok := l.Act.(*cfg.Release); ok {
			if lockCell(a.Lock) == lock {
				return false, steps
			}
		}
		if !e.lockAt[l.ID].has(li) {
			return false, steps
		}
		work = append(work, l.Succs...)
	}
	return true, steps
}

// localDefsReach marks, by location ID, the locations of main reachable
// from a location of main that writes one of vars (H4).
func localDefsReach(p *cfg.Program, main *cfg.Template, vars map[*cfg.Var]bool) []bool {
	out := make([]bool, len(p.Locs))
	if len(vars) == 0 {
		return out
	}
	var work []*cfg.Loc
	for _, l := range main.Locs {
		for _, v := range cfg.ModVars(l.Act) {
			if vars[v] {
				work = append(work, l.Succs...)
				break
			}
		}
	}
	for len(work) > 0 {
		l := work[len(work)-1]
		work = work[:len(work)-1]
		if out[l.ID] {
			continue
		}
		out[l.ID] = true
		work = append(work, l.Succs...)
	}
	return out
}
