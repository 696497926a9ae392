package dfg

import (
	"slices"
	"sync/atomic"

	"chorus/cfg"
)

// Flag-infeasible sequential edges. Reaching definitions follow every
// path of the CFG, also those an assume over thread-local flag registers
// (cfg.FlagRegisters: locals written only with constants or copies of
// other flags) refutes, as in SV-COMP's
//
//	r = push();      // ret := 0 on the failure path, ret := 1 after top := newTop
//	if (r) assert(top != 0);
//
// where the failure path's stale value of top reaches the assertion
// although no thread can take it (r is 0 there). A sequential edge
// u —X→ v is kept only if some path from u to v that does not pass
// another definition of X (gen: every write kills, as in rd.go) is
// feasible for the flags: the flags' values are followed from u on
// (unknown at u and at a spawned thread's entry), and an assume whose
// condition they make false ends the path.
//
// Why this is sound for any number of threads: a sequential edge stands
// for one thread's own path from its write at u to v (or the parent's path
// to a spawn and the child's from its entry). Flag registers are the
// thread's own; along the thread's path they hold exactly the values its
// own assignments gave them (values known before u are forgotten, which
// only keeps more paths). A path on which such an assume fails is taken
// by no execution, so if every path from u to v without another write of
// X is of that kind, no execution carries u's value to v. Budgets
// (program size, steps per definition, steps in all) keep the edge
// whenever they run out.

const (
	flagPathMaxLocs  = 1000
	flagPathFacts    = 8 // flag environments kept per location
	flagPathBudget   = 500_000
	flagPathPerStart = 20 // steps per definition, times the locations
)

// flagPathsOff turns the pruning off (tests: the shared-body bypass test
// shows what the bypass alone gains; the return-site flag would give it
// back).
var flagPathsOff atomic.Bool

// flagPaths answers feasibility queries for sequential edges.
type flagPaths struct {
	g       *Graph
	unsound bool // WithUnsoundFlagPaths
	flags   map[*cfg.Var]bool
	reach   map[flagPathKey][]bool // nil value: over budget, keep
	budget  int
	// facts (by Loc.ID) and touched are explore's scratch, emptied after
	// each call: the environments queued at each location, and the
	// locations holding some.
	facts   [][]cfg.FlagEnv
	touched []int32
}

type flagPathKey struct {
	src  int
	cell CellID
}

// newFlagPaths returns nil when the program is too large or has no flag
// register read by an assume.
func newFlagPaths(g *Graph) *flagPaths {
	p := g.prog
	if flagPathsOff.Load() || len(p.Locs) > flagPathMaxLocs || len(p.Locs) == 0 {
		return nil
	}
	flags := cfg.FlagRegisters(p)
	if len(flags) == 0 {
		return nil
	}
	used := false
	for _, l := range p.Locs {
		if a, ok := l.Act.(*cfg.Assume); ok && readsAny(a.Cond, flags) {
			used = true
			break
		}
	}
	if !used {
		return nil
	}
	return &flagPaths{g: g, flags: flags, reach: map[flagPathKey][]bool{}, budget: flagPathBudget}
}

func readsAny(e cfg.Expr, vs map[*cfg.Var]bool) bool {
	found := false
	var walk func(e cfg.Expr)
	walk = func(e cfg.Expr) {
		if found {
			return
		}
		switch x := e.(type) {
		case *cfg.VarRef:
			found = vs[x.Var]
		case *cfg.Deref:
			if v := cfg.FlagVar(x); v != nil && vs[v] {
				found = true
			}
		case *cfg.Unary:
			walk(x.X)
		case *cfg.Cast:
			walk(x.X)
		case *cfg.Binary:
			walk(x.X)
			walk(x.Y)
		}
	}
	walk(e)
	return found
}

// feasible reports whether the sequential edge u —x→ v may carry a value
// on some flag-feasible path (true when unsure).
func (f *flagPaths) feasible(u *cfg.Loc, x CellID, v *cfg.Loc) bool {
	if f == nil || u == nil || x == ControlCell || f.g.IsHub(u) || f.g.IsHub(v) {
		return true
	}
	k := flagPathKey{u.ID, x}
	r, ok := f.reach[k]
	if !ok {
		r = f.explore(u, x)
		f.reach[k] = r
	}
	if r == nil || v.ID >= len(r) {
		return true
	}
	return r[v.ID]
}

// explore returns the locations some flag-feasible path from u reaches
// before another write of x (a writer itself is reached), or nil when the
// budget runs out.
func (f *flagPaths) explore(u *cfg.Loc, x CellID) []bool {
	p := f.g.prog
	n := len(p.Locs)
	if f.budget <= 0 {
		return nil
	}
	steps := flagPathPerStart * (n + 1)
	reached := make([]bool, n)
	// facts[l] are the environments queued at l so far; few (about
	// flagPathFacts), so membership is a scan with slices.Equal rather
	// than a set of encoded keys (the keys were a fifth of the CPU of a
	// driver of 900 locations). A slice by Loc.ID kept from call to call
	// (a map per call was most of explore's time on the small drivers).
	if len(f.facts) < n {
		f.facts = make([][]cfg.FlagEnv, n)
	}
	facts := f.facts
	defer func() {
		for _, id := range f.touched {
			clear(facts[id])
			facts[id] = facts[id][:0]
		}
		f.touched = f.touched[:0]
	}()
	type item struct {
		l   *cfg.Loc
		env cfg.FlagEnv
	}
	var work []item
	push := func(l *cfg.Loc, env cfg.FlagEnv) {
		if hasEnv(facts[l.ID], env) {
			return
		}
		if len(facts[l.ID]) >= flagPathFacts {
			// Too many: continue with what all of them agree on (a
			// weaker environment covers every path they stood for).
			env = meetEnvs(append(facts[l.ID], env))
			if hasEnv(facts[l.ID], env) {
				return
			}
		}
		if len(facts[l.ID]) == 0 {
			f.touched = append(f.touched, int32(l.ID))
		}
		facts[l.ID] = append(facts[l.ID], env)
		work = append(work, item{l, env})
	}
	// after runs l's action on env and queues its successors (and a
	// spawn's children, whose flags start unknown).
	after := func(l *cfg.Loc, env cfg.FlagEnv) {
		switch a := l.Act.(type) {
		case *cfg.Assume:
			if v, ok := cfg.EvalFlags(a.Cond, env); ok && v == 0 || !ok && f.unsound && readsAny(a.Cond, f.flags) {
				return
			}
		case *cfg.Assign:
			env = cfg.FlagAssign(a, env, f.flags)
		case *cfg.Spawn:
			for _, t := range a.Targets {
				if t != nil && t.Entry != nil {
					push(t.Entry, nil)
				}
			}
		}
		for _, s := range l.Succs {
			push(s, env)
		}
	}
	after(u, nil)
	for len(work) > 0 {
		if steps--; steps < 0 {
			f.budget -= flagPathPerStart * (n + 1)
			return nil
		}
		it := work[len(work)-1]
		work = work[:len(work)-1]
		reached[it.l.ID] = true
		if genHas(f.g.gen[it.l.ID], x) {
			continue // another write of x: u's value ends here
		}
		after(it.l, it.env)
	}
	f.budget -= flagPathPerStart*(n+1) - steps
	return reached
}

// UnsoundFlagPaths is UNSOUND, for the oracle's mutation tests only: an
// assume over flags whose values the path does not know also ends the
// path (as if unknown flags made it fail). Call before the first build.
func (g *Graph) UnsoundFlagPaths() {
	if g.fp == nil {
		g.fp = newFlagPaths(g)
	}
	if g.fp != nil {
		g.fp.unsound = true
	}
}

func genHas(gen []CellID, x CellID) bool {
	for _, c := range gen {
		if c == x {
			return true
		}
	}
	return false
}

// hasEnv reports whether envs holds env (environments are sorted by
// variable, so equal bindings are equal slices).
func hasEnv(envs []cfg.FlagEnv, env cfg.FlagEnv) bool {
	for _, e := range envs {
		if slices.Equal(e, env) {
			return true
		}
	}
	return false
}

// meetEnvs keeps the bindings every environment agrees on.
func meetEnvs(envs []cfg.FlagEnv) cfg.FlagEnv {
	m := envs[0]
	for _, e := range envs[1:] {
		m = m.Meet(e)
	}
	return m
}
