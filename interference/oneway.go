package interference

import "chorus/cfg"

// One-way flags as location facts: once a thread has seen a one-way flag
// f away from its first value c0, f stays away from c0 for good, so
// "f ≠ c0" holds at every location of the thread after that sighting,
// whatever other threads do and however many run.
//
//	push:  lock(m); top = newTop; unlock(m);   // newTop ≠ 0: top ≠ 0 from here on
//	       ...
//	       assert(top != 0);                   // r: top ≠ 0 (the fact)
//
// (SV-COMP pthread-ext 25/26/36_stack*: in octagons top shares a mixed cell
// with next_alloc_idx, and another thread's next_alloc_idx += 2, or the
// failing arm of a compare-and-swap, carries that thread's older view of
// top, still 0, to the reader; the value is legal for the writer's moment,
// not for the reader's, which comes after the reader's own push.)
//
// The flags are once.go's (global registers with a constant first value
// c0, written by strong assignments only and tested by some assume).
// Premises, for flag f:
//
//	(P1) f never returns to c0 (once.go's P1): every write f := e outside
//	     main's pre-spawn code has Φ(u) ⊨ f == c0 (or the lock argument
//	     lockKnown says so) when e is the constant c0, and Φ(u) ⊨ e ≠ c0
//	     otherwise.
//	(O)  the observation, per location l of a template: on every path from
//	     the template's entry to l that is feasible for the thread-local
//	     flag registers, the thread, at a location outside main's pre-spawn
//	     code and strictly before standing at l, wrote f := e with e not
//	     the constant c0 (so e ≠ c0 by P1's second case), or passed an
//	     assume that is false when f, or a copy t := f loaded on the path,
//	     is c0.
//
// Fact: f ≠ c0 at every location l satisfying (O) (dfg.Fact with Ne).
//
// Why this is sound, for any number of threads. Take a thread at l at
// time t. By (O) it saw f ≠ c0 at an earlier time t_o (right after its
// own write of e ≠ c0, at an assume refuting c0, or when it loaded the
// copy), after main's first spawn. A later value c0 needs a write of c0
// made while f ≠ c0, and every write after main's first spawn runs outside
// main's pre-spawn code, where P1 excludes that. So f ≠ c0 at t. The
// premises mention Φ, and the facts shape Φ; they are used optimistically:
// the analysis runs with the facts, the premises are checked on the final
// Φ (OneWayFailures), and the run is redone without the flags that fail
// (analysis.Analyze). With the premises true of the final Φ, induction on
// the length of an execution shows every state lies in Φ: the steps
// before the current one ran from states in Φ, so each write of f obeyed
// P1 and each observation was real, which makes the fact true of the
// current state; the DFG's equations (facts met in) cover it as usual.
//
// The observation may not use Φ(o) ⊨ f ≠ c0 at a location o (which
// once.go's P3 does): with the facts met into Φ that would let a fact
// justify itself. Mutation WithUnsoundOneWayUnchecked skips the check at
// the fixpoint; the oracle catches it on testdata/check/prec_oneway_reset.c.

// oneWayMaxLocs bounds the programs the facts are computed for: the path
// analysis follows the flag registers per flag (ddverify/cs5535_gpio,
// 2,308 locations, five flags, no fact: 0.9 s CPU of 1.9 s).
const oneWayMaxLocs = 1000

// OneWayFact says that Var ≠ C0 whenever a thread stands at Loc.
type OneWayFact struct {
	Loc *cfg.Loc
	Var *cfg.Var
	C0  int64
}

// WithOneWayFacts turns the facts of oneway.go on or off (default on).
func WithOneWayFacts(on bool) Option { return func(e *Engine) { e.noOneWay = !on } }

// WithoutOneWayFlags leaves the given flags out of OneWayFacts (the rerun
// after OneWayFailures).
func WithoutOneWayFlags(vs []*cfg.Var) Option {
	return func(e *Engine) {
		if e.oneWayDrop == nil {
			e.oneWayDrop = map[*cfg.Var]bool{}
		}
		for _, v := range vs {
			e.oneWayDrop[v] = true
		}
	}
}

// WithUnsoundOneWayUnchecked is UNSOUND, for the oracle's mutation tests
// only: OneWayFailures reports no failure, so the facts are used without
// their premises.
func WithUnsoundOneWayUnchecked() Option { return func(e *Engine) { e.oneWayUnchecked = true } }

// OneWayFacts returns the facts of oneway.go, assuming P1 for every flag
// (OneWayFailures checks it at the fixpoint). It remembers which flags
// gave facts.
func (e *Engine) OneWayFacts() []OneWayFact {
	r := e.once
	if r == nil || e.noOneWay || mainSpawned(e.prog) || len(e.prog.Locs) > oneWayMaxLocs {
		return nil
	}
	var out []OneWayFact
	e.oneWayUsed = nil
	for i := range r.flags {
		f := &r.flags[i]
		if e.oneWayDrop[f.v] {
			continue
		}
		at := e.oneWayObserved(f)
		n := 0
		for _, l := range e.prog.Locs {
			if at != nil && at[l.ID] {
				out = append(out, OneWayFact{Loc: l, Var: f.v, C0: f.c0})
				n++
			}
		}
		if n > 0 {
			e.oneWayUsed = append(e.oneWayUsed, i)
		}
	}
	return out
}

// OneWayFailures checks P1 of every flag that gave facts on the final
// invariants and returns those for which it fails (the analysis is then
// redone without them).
func (e *Engine) OneWayFailures(inv Invariants) []*cfg.Var {
	if e.once == nil || e.oneWayUnchecked {
		return nil
	}
	var out []*cfg.Var
	for _, i := range e.oneWayUsed {
		f := &e.once.flags[i]
		if !e.oneWayP1(inv, f) {
			out = append(out, f.v)
		}
	}
	return out
}

// oneWayP1 is P1 of oneway.go (stricter than once.go's onceP1 on writes
// of non-constant values: they must write e ≠ c0, since (O) counts them
// as observations).
func (e *Engine) oneWayP1(inv Invariants, f *onceFlag) bool {
	k := &cfg.Const{Type: f.v.Type, Value: f.c0}
	for _, u := range f.writes {
		a := u.Act.(*cfg.Assign)
		if c, ok := a.Src.(*cfg.Const); ok && c.Value == f.c0 {
			if (f.c0Held != nil && f.c0Held[u.ID]) || holdsOrBottom(inv, u, f.isC0) {
				continue
			}
			return false
		}
		if !holdsOrBottom(inv, u, &cfg.Binary{Op: cfg.Ne, X: a.Src, Y: k, Type: cfg.Bool}) {
			return false
		}
	}
	return true
}

// oneWayObserved computes (O) for f: by location ID, whether every
// flag-feasible path from the template's entry saw f ≠ c0 strictly before
// the location (false where no such path arrives). nil when the path
// analysis runs over its budget.
func (e *Engine) oneWayObserved(f *onceFlag) []bool {
	p := e.prog
	r := e.once
	transfer := func(l *cfg.Loc, in onceFact) (onceFact, bool) {
		o := onceFact{obs: in.obs, env: in.env, loaded: in.loaded}
		early := r.early[l.ID]
		switch a := l.Act.(type) {
		case *cfg.Assume:
			if v, ok := cfg.EvalFlags(a.Cond, in.env); ok && v == 0 {
				return o, false
			}
			if !early && !o.obs && assumeExcludesC0(a.Cond, in, f) {
				o.obs = true
			}
		case *cfg.Assign:
			o.env = cfg.FlagAssign(a, in.env, r.regs)
			t := cfg.StrongTarget(a.Dst)
			if k, ok := f.copies[t]; ok && t != nil {
				if early {
					o.loaded &^= 1 << uint(k)
				} else {
					o.loaded |= 1 << uint(k)
				}
			}
			if t == f.v && !early {
				if c, isK := a.Src.(*cfg.Const); !isK || c.Value != f.c0 {
					o.obs = true // f ≠ c0 right after this step (P1 checks e ≠ c0)
				}
			}
		}
		if o.obs {
			// Once observed, a path's flag values no longer matter: every
			// path on from here has the observation, feasible or not, so
			// all observed paths share one fact (a real path is never
			// dropped, so "every fact observed" still covers every real
			// path).
			return onceFact{obs: true}, true
		}
		return o, true
	}
	facts := pathFacts(p, func() onceFact { return onceFact{} }, transfer)
	if facts == nil {
		return nil
	}
	out := make([]bool, len(p.Locs))
	for _, l := range p.Locs {
		fs := facts[l.ID]
		if len(fs) == 0 || r.early[l.ID] {
			continue
		}
		all := true
		for _, g := range fs {
			all = all && g.obs
		}
		out[l.ID] = all
	}
	return out
}
