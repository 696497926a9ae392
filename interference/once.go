package interference

import (
	"slices"

	"chorus/cfg"
)

// Epochs of a one-way flag ("init once", publication through a flag that
// never returns to its initial value): pthread_once-style initialization,
// lazily initialized singletons, state machines that leave their first
// state for good.
//
//	thr:  lock(m2); switch (state) { case 0: top = 0; state = 1;   // w
//	                                  case 1: unlock(m2); ... }
//	      ... lock(m); top = newTop; unlock(m); ...                 // w'
//	      assert(top != 0);                                         // r
//
// Premises, for a global register f (the flag) and a constant c0:
//
//	(P1) f never returns to c0: every write f := e that can run while
//	     another thread exists (not main's code before its first spawn)
//	     writes e ≠ c0, or runs where f == c0 already (Φ(u) ⊨ e ≠ c0 or
//	     Φ(u) ⊨ f == c0); and f is written by nothing else (every other
//	     location whose Mod holds f's cell is an assume or check, or a
//	     strong assignment of another variable of the cell).
//	(P2) the writer: Φ(w) ⊨ f == c0 (w runs in f's first epoch), or, by
//	     a lock L that every such write of f holds (lockKnown): on every
//	     path to w the thread, holding L without a break since, saw
//	     f == c0 (an assume f == c0, or t == c0 on a copy t := f loaded
//	     in that stretch) and did not write f since except with c0.
//	(P3) the reader: on every path of its template from the entry to the
//	     location r where the edge lands, feasible for the thread-local
//	     flag registers of lockset.go, there is a location o with
//	     Φ(o) ⊨ f ≠ c0 (not main's pre-spawn code) and, at o or after it,
//	     a location w' whose action writes the edge's cell X as another
//	     thread sees it (Cells.Mod: the game's notion of a definition of
//	     X, assumes included).
//
// Rule: then the interference edge w —X→ r is not added.
//
// Why this is sound for any number of threads. The DFG's meaning: the
// value of X's globals when a thread B stands at r is the one produced by
// the last step, of any thread, of a location that writes X (Mod); an
// interference edge is needed only from that location. Take any step of
// any thread at w (time t_w, f == c0 just before it, by P2) and B's path
// to r: it passed o at time t_o (f ≠ c0 then) and w' at t_w' ≥ t_o, both
// before B stands at r. If t_o < t_w, f went from ≠ c0 at t_o to c0 at
// t_w, which only a write of c0 from a state with f ≠ c0 can do: P1
// excludes it. So t_w < t_o ≤ t_w', and the step at w' — a later write of
// X — stands between w and r: w's step is not the last writer of X. This
// holds for every step at w, whichever thread makes it (another instance
// of B's template, several threads racing for the same lock, B itself),
// and for every number of threads: the argument is about the order of
// three steps of one execution and the history of f. The premises are
// facts about Φ; they are evaluated in every round with the round's Φ,
// and an edge held back is added as soon as its premises fail (Round
// re-examines the held edges each time), so at the fixpoint they hold of
// the final Φ, and the usual induction on the length of an execution
// (every earlier state lies in Φ, so each step at w, o and u ran from a
// state in Φ) makes them facts of every execution. Main's code before
// its first spawn runs before any other thread exists: its writes of f
// are not constrained, and it never serves as o (a write at w there
// precedes every o anyway, but such writers pair with nothing).
//
// No lock appears in the premises: mutual exclusion enters only through
// Φ (the flag's test inside a critical section is what makes Φ(w) ⊨
// f == c0 hold). The unsafe variants (testdata/check/prec_once_*.c): the
// flag reset to c0, the init write outside the flag's test, a read
// before the thread's own write.

// maxOnceFlags bounds the flags the rule considers; onceMaxLocs the
// program size (the reader analysis runs once per flag and round).
const (
	maxOnceFlags = 8
	onceMaxLocs  = 3000
)

// WithOnceRule turns the epoch rule of once.go on or off (default on).
func WithOnceRule(on bool) Option { return func(e *Engine) { e.noOnce = !on } }

// WithUnsoundOnceNoOwnWrite is UNSOUND, for the oracle's mutation tests
// only: the reader premise P3 of once.go is satisfied by the observation
// of f ≠ c0 alone, without the thread's own later write of the cell.
func WithUnsoundOnceNoOwnWrite() Option { return func(e *Engine) { e.onceNoOwnWrite = true } }

// WithUnsoundOnceReverseNoP1 is UNSOUND, for the oracle's mutation tests
// only: the reverse epoch rule (onceReverse) does not require P1.
func WithUnsoundOnceReverseNoP1() Option { return func(e *Engine) { e.onceReverseNoP1 = true } }

// WithUnsoundOnceNoProtection is UNSOUND, for the oracle's mutation tests
// only: the lock argument of P2 (lockKnown) takes a lock held at some
// write of f for one held at every write.
func WithUnsoundOnceNoProtection() Option { return func(e *Engine) { e.onceNoProtection = true } }

// onceFlag is a candidate flag f with its first value c0.
type onceFlag struct {
	v      *cfg.Var
	c0     int64
	copies map[*cfg.Var]int // locals written only by loads t := f, by index
	cell   int
	isC0   cfg.Expr   // f == c0
	notC0  cfg.Expr   // f != c0
	writes []*cfg.Loc // the assignments f := e outside main's pre-spawn code
	// c0Held[loc ID]: P2 by the lock argument (lockKnown).
	c0Held []bool
}

// onceRule holds the flags and the interference edges held back.
type onceRule struct {
	flags   []onceFlag
	p2      []map[int]bool    // per flag: P2 at a writer (loc ID), this round
	regs    map[*cfg.Var]bool // thread-local flag registers (lockset.go)
	early   []bool
	pending []Edge
}

// newOnceRule finds the candidate flags of p (nil when there are none).
func (e *Engine) newOnceRule() *onceRule {
	p := e.prog
	if e.noOnce || len(p.Locs) > onceMaxLocs || len(p.Templates) == 0 {
		return nil
	}
	early := preSpawnMain(p)
	bad := map[*cfg.Var]bool{}
	writes := map[*cfg.Var][]*cfg.Loc{}
	var order []*cfg.Var
	for _, l := range p.Locs {
		a, ok := l.Act.(*cfg.Assign)
		if !ok {
			continue
		}
		v := cfg.StrongTarget(a.Dst)
		if v == nil || v.Scope != cfg.Global || v.ThreadLocal || v.Type.Kind != cfg.IntType {
			continue
		}
		if v.IsCell() && !onceCellOK(v) {
			continue
		}
		if early[l.ID] {
			continue
		}
		if _, seen := writes[v]; !seen {
			order = append(order, v)
		}
		writes[v] = append(writes[v], l)
	}
	if len(order) == 0 {
		return nil
	}
	// P1's "written by nothing else": every location whose Mod holds f's
	// cell (outside main's pre-spawn code) is an assume, a check, or a
	// strong assignment (of f, or of another variable of the cell).
	cellOf := map[*cfg.Var]int{}
	byCell := map[int][]*cfg.Var{}
	for _, v := range order {
		c := e.cells.CellOf(v)
		cellOf[v] = c
		byCell[c] = append(byCell[c], v)
	}
	for _, l := range p.Locs {
		if early[l.ID] {
			continue
		}
		for _, c := range e.modCache[l.ID] {
			vs := byCell[c]
			if len(vs) == 0 {
				continue
			}
			switch a := l.Act.(type) {
			case *cfg.Assume, *cfg.CheckAct:
				continue
			case *cfg.Assign:
				if cfg.StrongTarget(a.Dst) != nil {
					continue
				}
			}
			for _, v := range vs {
				bad[v] = true
			}
		}
	}
	r := &onceRule{regs: cfg.FlagRegisters(p), early: early}
	for _, v := range order {
		if bad[v] || len(r.flags) == maxOnceFlags {
			continue
		}
		c0 := int64(0)
		if v.IsCell() {
			k, ok := cellInit(v)
			if !ok {
				continue
			}
			c0 = k
		} else if v.Init != nil {
			k, ok := v.Init.(*cfg.Const)
			if !ok {
				continue
			}
			c0 = k.Value
		}
		copies := loadCopies(p, v)
		if !testedByAssume(p, v, copies) {
			continue // not used as a flag: tracking it everywhere would cost for nothing
		}
		ref := &cfg.VarRef{Var: v}
		k := &cfg.Const{Type: v.Type, Value: c0}
		r.flags = append(r.flags, onceFlag{
			v: v, c0: c0, cell: cellOf[v], writes: writes[v], copies: copies,
			isC0:  &cfg.Binary{Op: cfg.Eq, X: ref, Y: k, Type: cfg.Bool},
			notC0: &cfg.Binary{Op: cfg.Ne, X: ref, Y: k, Type: cfg.Bool},
		})
	}
	if len(r.flags) == 0 {
		return nil
	}
	for i := range r.flags {
		r.flags[i].c0Held = e.lockKnown(&r.flags[i])
	}
	return r
}

// onceCells returns the flags' cells: the DFG must track them at the game
// positions (ConditionCells) for P2 and P3 to be evaluated there.
func (e *Engine) onceCells() []int {
	if e.once == nil {
		return nil
	}
	var out []int
	for _, f := range e.once.flags {
		out = append(out, f.cell)
	}
	return out
}

// holdsOrBottom: the condition holds in every state at l (or l is
// unreachable).
func holdsOrBottom(inv Invariants, l *cfg.Loc, c cfg.Expr) bool {
	switch inv.Truth(l, c) {
	case True, Bottom:
		return true
	}
	return false
}

// onceP1 is P1 for flag fi under the current Φ.
func (e *Engine) onceP1(inv Invariants, fi int) bool {
	f := &e.once.flags[fi]
	for _, u := range f.writes {
		a := u.Act.(*cfg.Assign)
		if k, ok := a.Src.(*cfg.Const); ok {
			if c, _ := f.isC0.(*cfg.Binary).Y.(*cfg.Const); k.Value != c.Value {
				continue
			}
		}
		ne := &cfg.Binary{Op: cfg.Ne, X: a.Src, Y: f.isC0.(*cfg.Binary).Y, Type: cfg.Bool}
		if holdsOrBottom(inv, u, ne) || holdsOrBottom(inv, u, f.isC0) {
			continue
		}
		return false
	}
	return true
}

// onceReverse is the reverse epoch rule: under P1 for f, an edge w —X→ r
// whose writer runs with f ≠ c0 (Φ(w) ⊨ f ≠ c0) cannot reach a reader
// that, by the lock argument (lockKnown), holds a lock L taken by every
// write of f without a break since it saw f == c0 itself, and has not
// written f since: f == c0 all the time from that sighting to r.
//
// Why this is sound for any number of threads: the edge stands for a step
// at w, at time t_w, that is the last write of X before the reader stands
// at r. Just before t_w, f ≠ c0 (the induction on the length of an
// execution puts that earlier state in Φ(w)). The reader saw f == c0 at
// t_o and held L from then on; every write of f needs L, so f == c0 all
// through [t_o, now]. So t_w < t_o, and f went from ≠ c0 back to c0 in
// between: P1 forbids that for every write after main's first spawn, and
// w is not in main's pre-spawn code (excluded below), so all writes after
// t_w are after it. No such step exists. Premises are evaluated per round
// like the once rule's, and held edges are re-examined each round.
//
// The reader's side must not be "Φ(r) ⊨ f == c0": that is a property of
// the state being justified, and dropping the edges makes it true (the
// first version proved SV-COMP pthread-ext/40_barrier_vf and
// 32_pthread5_vs, whose errors are reachable). The lock argument uses
// only the reader's past. Mutation WithUnsoundOnceReverseNoP1 (P1 not
// required) is caught by the oracle on testdata/check/prec_once_reverse_reset.c.
func (e *Engine) onceReverse(inv Invariants, fi int, ed Edge) bool {
	r := e.once
	f := &r.flags[fi]
	if f.c0Held == nil || !f.c0Held[ed.Dst.ID] || r.early[ed.Src.ID] {
		return false
	}
	return holdsOrBottom(inv, ed.Src, f.notC0)
}

// onceFlagState is one flag's reader premise P3 under the current Φ.
type onceFlagState struct {
	at map[int]bitset // cell -> locations (by ID) where P3 holds
}

// filterOnce applies the rule to the new edges and to those held back in
// earlier rounds, under the current invariants: it returns the edges to
// add now and keeps the others back.
func (e *Engine) filterOnce(inv Invariants, edges []Edge) []Edge {
	r := e.once
	if r == nil {
		return edges
	}
	all := edges
	if len(r.pending) > 0 {
		all = append(r.pending, edges...)
		r.pending = nil
	}
	if len(all) == 0 {
		return edges
	}
	r.p2 = make([]map[int]bool, len(r.flags)) // Φ changed: P2 anew
	for i := range r.p2 {
		r.p2[i] = map[int]bool{}
	}
	states := make([]*onceFlagState, len(r.flags))
	p1 := make([]bool, len(r.flags))
	some := false
	for i := range r.flags {
		p1[i] = e.onceP1(inv, i)
		states[i] = e.onceState(inv, i, all, p1[i])
		some = some || states[i] != nil || p1[i] || e.onceReverseNoP1
	}
	if !some {
		return all
	}
	out := all[:0] // in place: all is edges or a fresh slice
	var held []Edge
	for _, ed := range all {
		h := false
		for i := range r.flags {
			if (p1[i] || e.onceReverseNoP1) && e.onceReverse(inv, i, ed) {
				h = true
				break
			}
		}
		for i, st := range states {
			if h {
				break
			}
			if st == nil || !e.onceWriter(inv, i, ed.Src) {
				continue
			}
			if b, ok := st.at[ed.Cell]; ok && b.has(ed.Dst.ID) {
				h = true
				break
			}
		}
		if h {
			held = append(held, ed)
		} else {
			out = append(out, ed)
		}
	}
	r.pending = held
	return out
}

// releaseOnce returns every held edge (for the flow-insensitive game,
// which does not filter).
func (e *Engine) releaseOnce() []Edge {
	if e.once == nil {
		return nil
	}
	out := e.once.pending
	e.once.pending = nil
	return out
}

// onceWriter: P2 at the writer (a game position, where f's cell is
// tracked).
func (e *Engine) onceWriter(inv Invariants, fi int, w *cfg.Loc) bool {
	f := &e.once.flags[fi]
	if e.once.early[w.ID] {
		return false // pairs with nothing anyway
	}
	if f.c0Held != nil && f.c0Held[w.ID] {
		return true
	}
	if v, ok := e.once.p2[fi][w.ID]; ok {
		return v
	}
	v := holdsOrBottom(inv, w, f.isC0)
	e.once.p2[fi][w.ID] = v
	return v
}

// onceState checks P1 for f and computes P3 for the cells that the
// edges from P2-writers carry; nil when P1 fails or nothing is to gain.
func (e *Engine) onceState(inv Invariants, fi int, edges []Edge, p1 bool) *onceFlagState {
	if !p1 {
		return nil // P1 fails in this round
	}
	targets := map[int]int{} // cell -> index
	var cells []int
	for _, ed := range edges {
		if _, ok := targets[ed.Cell]; ok {
			continue
		}
		if e.onceWriter(inv, fi, ed.Src) {
			targets[ed.Cell] = len(cells)
			cells = append(cells, ed.Cell)
		}
	}
	if len(cells) == 0 {
		return nil
	}
	armed := e.onceReaders(inv, &e.once.flags[fi], targets, len(cells))
	if armed == nil {
		return nil
	}
	st := &onceFlagState{at: map[int]bitset{}}
	for x, k := range targets {
		b := newBitset(len(e.prog.Locs))
		for id, a := range armed {
			if a != nil && a.has(k) {
				b.set(id)
			}
		}
		st.at[x] = b
	}
	return st
}

// onceFact is a path fact of the reader analysis: whether f ≠ c0 was
// observed, the target cells written since (bit k for targets index k),
// and the flag registers' values.
type onceFact struct {
	obs    bool
	wrote  bitset
	env    flagEnv
	loaded uint64 // the copies (onceFlag.copies) loaded on the path
}

// equal reports whether f and g are the same fact (the same observation,
// targets written, flag registers and loaded copies).
func (f onceFact) equal(g onceFact) bool {
	return f.obs == g.obs && f.loaded == g.loaded && slices.Equal(f.wrote, g.wrote) && slices.Equal(f.env, g.env)
}

// containsFact reports whether fs holds f: a plain loop, where
// slices.ContainsFunc(fs, f.equal) made an indirect call per fact (the
// scan was a twentieth of toshiba's run).
func containsFact(fs []onceFact, f onceFact) bool {
	for i := range fs {
		if fs[i].obs == f.obs && fs[i].loaded == f.loaded && slices.Equal(fs[i].wrote, f.wrote) && slices.Equal(fs[i].env, f.env) {
			return true
		}
	}
	return false
}

// onceReaders computes P3: for every location (by ID), the targets
// written after an observation on every flag-feasible path from its
// template's entry (nil entries: unreachable by such paths, nothing
// claimed). It returns nil when the iteration runs over its budget.
func (e *Engine) onceReaders(inv Invariants, f *onceFlag, targets map[int]int, n int) []bitset {
	p := e.prog
	r := e.once
	obsCache := make([]int8, len(p.Locs)) // 0 unknown, 1 yes, 2 no
	obs := func(l *cfg.Loc) bool {
		if obsCache[l.ID] == 0 {
			obsCache[l.ID] = 2
			if !r.early[l.ID] && e.pos.isPos[l.ID] && holdsOrBottom(inv, l, f.notC0) {
				obsCache[l.ID] = 1
			}
		}
		return obsCache[l.ID] == 1
	}
	transfer := func(l *cfg.Loc, in onceFact) (onceFact, bool) {
		o := onceFact{obs: in.obs, wrote: in.wrote, env: in.env, loaded: in.loaded}
		switch a := l.Act.(type) {
		case *cfg.Assume:
			if v, ok := cfg.EvalFlags(a.Cond, in.env); ok && v == 0 {
				return o, false
			}
			if !o.obs && !r.early[l.ID] && assumeExcludesC0(a.Cond, in, f) {
				o.obs = true
			}
		case *cfg.Assign:
			o.env = cfg.FlagAssign(a, in.env, r.regs)
			if t := cfg.StrongTarget(a.Dst); t != nil {
				if k, ok := f.copies[t]; ok {
					// a copy loaded in main's pre-spawn code may predate a
					// pre-spawn reset of f (P1 does not cover those)
					if r.early[l.ID] {
						o.loaded &^= 1 << uint(k)
					} else {
						o.loaded |= 1 << uint(k)
					}
				}
			}
		}
		if !o.obs && obs(l) {
			o.obs = true
		}
		switch {
		case o.obs && e.onceNoOwnWrite:
			// the mutation: the observation alone arms every target
			full := newBitset(n)
			for k := 0; k < n; k++ {
				full.set(k)
			}
			o.wrote = full
		case o.obs:
			copied := false
			for _, x := range e.modCache[l.ID] {
				k, ok := targets[x]
				if !ok || o.wrote.has(k) {
					continue
				}
				if !copied {
					o.wrote = append(bitset(nil), o.wrote...)
					copied = true
				}
				o.wrote.set(k)
			}
		}
		// A write f := e with e ≠ c0: f ≠ c0 right after this step (its
		// own writes, counted above, are not after it).
		if a, ok := l.Act.(*cfg.Assign); ok && !o.obs && !r.early[l.ID] && cfg.StrongTarget(a.Dst) == f.v {
			if k, isK := a.Src.(*cfg.Const); isK && k.Value != f.c0 || !isK && holdsOrBottom(inv, l, &cfg.Binary{Op: cfg.Ne, X: a.Src, Y: &cfg.Const{Type: f.v.Type, Value: f.c0}, Type: cfg.Bool}) {
				o.obs = true
			}
		}
		return o, true
	}
	facts := pathFacts(p, func() onceFact { return onceFact{wrote: newBitset(n)} }, transfer)
	if facts == nil {
		return nil
	}
	out := make([]bitset, len(p.Locs))
	for _, l := range p.Locs {
		fs := facts[l.ID]
		if len(fs) == 0 {
			continue
		}
		b := append(bitset(nil), fs[0].wrote...)
		for _, g := range fs[1:] {
			for i := range b {
				b[i] &= g.wrote[i]
			}
		}
		for _, g := range fs {
			if !g.obs {
				b = newBitset(n) // a path without the observation
				break
			}
		}
		out[l.ID] = b
	}
	return out
}

// pathFacts carries path facts from each template's entry (a fresh
// start() fact) along the successors with transfer (false: the step
// cannot be taken), keeping the distinct facts per location by key and
// merging them past maxPathFacts (mergeOnceFacts). It is the worklist of
// P3 (onceReaders) and of the one-way flag facts (oneway.go). It returns
// nil when the budget of 20 steps per location runs out.
func pathFacts(p *cfg.Program, start func() onceFact, transfer func(*cfg.Loc, onceFact) (onceFact, bool)) [][]onceFact {
	facts := make([][]onceFact, len(p.Locs))
	done := make([]int, len(p.Locs)) // facts[l] before done[l] already passed on
	budget := 20 * (len(p.Locs) + 1)
	// A location's first facts go to a slice of 4 cut from a shared
	// block (most locations never hold more): one allocation per 256
	// locations instead of the 1, 2, 4 growth steps of each (the
	// appends were a fifth of pathFacts on the small DDVerify drivers).
	var block []onceFact
	appendFact := func(fs []onceFact, f onceFact) []onceFact {
		if cap(fs) == 0 {
			if len(block) < 4 {
				block = make([]onceFact, 4*256)
			}
			fs, block = block[:0:4], block[4:]
		}
		return append(fs, f)
	}
	for _, t := range p.Templates {
		if t.Entry == nil {
			continue
		}
		first := start()
		facts[t.Entry.ID] = []onceFact{first}
		work := []*cfg.Loc{t.Entry}
		for len(work) > 0 {
			if budget--; budget < 0 {
				return nil
			}
			l := work[len(work)-1]
			work = work[:len(work)-1]
			fresh := facts[l.ID][done[l.ID]:] // the others were passed on when they came
			done[l.ID] = len(facts[l.ID])
			for _, in := range fresh {
				out, ok := transfer(l, in)
				if !ok {
					continue
				}
				for _, s := range l.Succs {
					if s == t.Entry {
						continue
					}
					// The facts kept at s are the distinct ones seen
					// there (at most maxPathFacts+1: a linear scan, no
					// keys to build; merging replaces them).
					if containsFact(facts[s.ID], out) {
						continue
					}
					facts[s.ID] = appendFact(facts[s.ID], out)
					if len(facts[s.ID]) > maxPathFacts {
						facts[s.ID] = mergeOnceFacts(facts[s.ID])
						done[s.ID] = 0 // pass the merged facts on anew
					}
					work = append(work, s)
				}
			}
		}
	}
	return facts
}

// mergeOnceFacts replaces too many facts by fewer: first those with the
// same observation and written targets by one each (the flags where they
// agree), and if that still leaves too many, all by one (observed only if
// all did, the targets written on all). Each old fact implies one of the
// new ones: only precision is lost.
//
// The groups, in order of first appearance (found by a linear scan: a
// handful of facts), are merged as they fill: each group's fact is
// folded left to right with the same operations as mergeAllOnce on the
// group (its members share obs and wrote, so only loaded and env
// change), without collecting the members first (that collection was
// most of the merge's time). TestMergeOnceFactsAsGroups compares it with
// the grouping computation.
func mergeOnceFacts(fs []onceFact) []onceFact {
	out := make([]onceFact, 0, maxPathFacts/2)
	for _, f := range fs {
		i := slices.IndexFunc(out, func(g onceFact) bool {
			return g.obs == f.obs && slices.Equal(g.wrote, f.wrote)
		})
		if i >= 0 {
			out[i].loaded &= f.loaded
			out[i].env = out[i].env.Meet(f.env)
			continue
		}
		if len(out) == maxPathFacts/2 {
			return []onceFact{mergeAllOnce(fs)} // more groups than that
		}
		out = append(out, onceFact{obs: f.obs, wrote: append(bitset(nil), f.wrote...), env: f.env, loaded: f.loaded})
	}
	if len(out) == len(fs) {
		return []onceFact{mergeAllOnce(fs)} // no two facts group
	}
	return out
}

func mergeAllOnce(fs []onceFact) onceFact {
	m := onceFact{obs: fs[0].obs, wrote: append(bitset(nil), fs[0].wrote...), env: fs[0].env, loaded: fs[0].loaded}
	for _, f := range fs[1:] {
		m.obs = m.obs && f.obs
		m.loaded &= f.loaded
		for i := range m.wrote {
			m.wrote[i] &= f.wrote[i]
		}
		m.env = m.env.Meet(f.env)
	}
	return m
}

// loadCopies returns the local registers written only by loads t := f
// (at most 64): such a t, once loaded on a thread's path, holds f's value
// at the time of its last load.
func loadCopies(p *cfg.Program, f *cfg.Var) map[*cfg.Var]int {
	cand := map[*cfg.Var]bool{}
	bad := map[*cfg.Var]bool{}
	markBad := func(lv cfg.Expr) {
		switch x := lv.(type) {
		case *cfg.VarRef:
			bad[x.Var] = true
		case *cfg.Deref:
			for _, c := range x.Cells {
				bad[c] = true
			}
		}
	}
	for _, l := range p.Locs {
		switch a := l.Act.(type) {
		case *cfg.Assign:
			t := cfg.StrongTarget(a.Dst)
			if t == nil || t.Scope != cfg.Local || t.IsCell() {
				markBad(a.Dst)
				continue
			}
			if loadOf(a.Src) == f && t.Type == f.Type {
				cand[t] = true
			} else {
				bad[t] = true
			}
		case *cfg.Havoc:
			markBad(a.Dst)
		case *cfg.Alloc:
			markBad(a.Dst)
		case *cfg.Spawn:
			if a.Handle != nil {
				markBad(a.Handle)
			}
			for _, t := range a.Targets {
				if t != nil && t.Param != nil {
					bad[t.Param] = true
				}
			}
		case *cfg.Acquire:
			markBad(a.Lock)
		case *cfg.Release:
			markBad(a.Lock)
		}
	}
	out := map[*cfg.Var]int{}
	for _, l := range p.Locs { // program order, for stable indexes
		a, ok := l.Act.(*cfg.Assign)
		if !ok {
			continue
		}
		t := cfg.StrongTarget(a.Dst)
		if t == nil || !cand[t] || bad[t] || len(out) == 64 {
			continue
		}
		if _, ok := out[t]; !ok {
			out[t] = len(out)
		}
	}
	return out
}

// onceCellOK: a memory cell may serve as a flag when it is one concrete
// global object's scalar (not a summary, not thread-local): every write
// of it is then either a strong assignment or is seen as a non-strong
// write of its cell, which disqualifies it (newOnceRule's "bad").
func onceCellOK(v *cfg.Var) bool {
	return !v.Summary && v.Mem.Kind == cfg.GlobalObject && !v.Mem.ThreadLocal
}

// cellInit returns the initial value of a non-summary global cell: its
// object's initializer at the cell's offset, or 0 when none covers it; ok
// is false when an initializer of another shape overlaps it.
func cellInit(v *cfg.Var) (int64, bool) {
	size := int64(v.Type.Bits / 8)
	for _, iv := range v.Mem.Init {
		isize := int64(iv.Type.Bits / 8)
		if iv.Offset+isize <= v.Offset || v.Offset+size <= iv.Offset {
			continue
		}
		k, ok := iv.Value.(*cfg.Const)
		if !ok || iv.Offset != v.Offset || iv.Type != v.Type {
			return 0, false
		}
		return k.Value, true
	}
	return 0, true
}

// loadOf returns the variable e reads when it is a load of one variable:
// a register, or one non-summary cell of e's type through a pointer.
func loadOf(e cfg.Expr) *cfg.Var {
	switch x := e.(type) {
	case *cfg.VarRef:
		return x.Var
	case *cfg.Deref:
		if len(x.Cells) == 1 && !x.Cells[0].Summary && x.Cells[0].Type == x.Type {
			return x.Cells[0]
		}
	}
	return nil
}

// assumeExcludesC0 reports whether passing assume(cond) on a path with
// fact in shows f ≠ c0 at some moment of the path no later than now: cond
// is false when f (an assume over the global itself: f's value at this
// step) or one loaded copy of f (f's value when it was loaded) is c0,
// the flag registers having their path values.
func assumeExcludesC0(cond cfg.Expr, in onceFact, f *onceFlag) bool {
	try := func(v *cfg.Var) bool {
		env := in.env.With(v.ID, f.c0)
		x, ok := cfg.EvalFlags(cond, env)
		return ok && x == 0
	}
	if exprReads(cond, f.v) && try(f.v) {
		return true
	}
	for t, k := range f.copies {
		if in.loaded&(1<<uint(k)) != 0 && exprReads(cond, t) && try(t) {
			return true
		}
	}
	return false
}

// exprReads reports whether e reads register v (or cell v by a load of
// exactly it).
func exprReads(e cfg.Expr, v *cfg.Var) bool {
	found := false
	var walk func(e cfg.Expr)
	walk = func(e cfg.Expr) {
		switch x := e.(type) {
		case *cfg.VarRef:
			if x.Var == v {
				found = true
			}
		case *cfg.Deref:
			if cfg.StrongTarget(x) == v {
				found = true // a load of a flag cell (once.go: onceCellOK)
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

// lockKnown computes P2 by the lock argument for f: nil when no lock L of
// the must-lockset is held at every write of f; otherwise, by location
// ID, whether a thread standing there holds L and has held it without a
// break since it saw f == c0, with no write of f of its own since except
// f := c0. Then f == c0 when it stands there: f was c0 when seen; every
// other thread's write of f needs L, which this thread held all along
// (main's pre-spawn writes come before any thread sees anything); its own
// writes are followed. A must-analysis over each template's locations,
// intersection at joins, nothing known at a template's entry.
func (e *Engine) lockKnown(f *onceFlag) []bool {
	if len(e.locks.vars) == 0 || len(f.writes) == 0 {
		return nil
	}
	prot := append(bitset(nil), e.lockAt[f.writes[0].ID]...)
	for _, u := range f.writes[1:] {
		for i := range prot {
			if e.onceNoProtection {
				prot[i] |= e.lockAt[u.ID][i] // the mutation: a lock held at some write
			} else {
				prot[i] &= e.lockAt[u.ID][i]
			}
		}
	}
	L := -1
	for i := range e.locks.vars {
		if prot.has(i) {
			L = i
			break
		}
	}
	if L < 0 {
		return nil
	}
	p := e.prog
	// fact: bit 0 = known (f == c0 seen in this stretch), bits 1.. = copies
	// loaded in this stretch. Intersection at joins; all ones = not yet
	// reached.
	const all = ^uint64(0)
	in := make([]uint64, len(p.Locs))
	for i := range in {
		in[i] = all
	}
	isC0 := func(c cfg.Expr, fact uint64) bool {
		b, ok := c.(*cfg.Binary)
		if !ok || b.Op != cfg.Eq {
			return false
		}
		x, y := b.X, b.Y
		if _, ok := x.(*cfg.Const); ok {
			x, y = y, x
		}
		k, ok := y.(*cfg.Const)
		if !ok || k.Value != f.c0 {
			return false
		}
		ref, ok := x.(*cfg.VarRef)
		if !ok {
			return false
		}
		if ref.Var == f.v {
			return true
		}
		i, ok := f.copies[ref.Var]
		return ok && i < 63 && fact&(1<<uint(i+1)) != 0
	}
	transfer := func(l *cfg.Loc, fact uint64) uint64 {
		held := e.lockAt[l.ID].has(L)
		switch a := l.Act.(type) {
		case *cfg.Acquire, *cfg.Release:
			return 0
		case *cfg.Assume:
			if held && isC0(a.Cond, fact) {
				fact |= 1
			}
		case *cfg.Assign:
			t := cfg.StrongTarget(a.Dst)
			if t == f.v {
				if k, ok := a.Src.(*cfg.Const); !ok || k.Value != f.c0 {
					fact &^= 1
				}
			}
			if i, ok := f.copies[t]; ok && i < 63 {
				if held {
					fact |= 1 << uint(i+1)
				} else {
					fact &^= 1 << uint(i+1)
				}
			}
		}
		if !held {
			return 0
		}
		return fact
	}
	for _, t := range p.Templates {
		if t.Entry == nil {
			continue
		}
		in[t.Entry.ID] = 0
		work := []*cfg.Loc{t.Entry}
		queued := map[*cfg.Loc]bool{t.Entry: true}
		for len(work) > 0 {
			l := work[len(work)-1]
			work = work[:len(work)-1]
			queued[l] = false
			out := transfer(l, in[l.ID])
			for _, s := range l.Succs {
				if s == t.Entry {
					continue
				}
				if v := in[s.ID] & out; v != in[s.ID] {
					in[s.ID] = v
					if !queued[s] {
						queued[s] = true
						work = append(work, s)
					}
				}
			}
		}
	}
	out := make([]bool, len(p.Locs))
	for _, l := range p.Locs {
		out[l.ID] = in[l.ID] != all && in[l.ID]&1 != 0 && e.lockAt[l.ID].has(L)
	}
	return out
}

// testedByAssume reports whether some assume reads f or one of its
// copies: only such globals serve as flags (the rule needs a test of f
// somewhere, and its cell is tracked at every position for it).
func testedByAssume(p *cfg.Program, f *cfg.Var, copies map[*cfg.Var]int) bool {
	for _, l := range p.Locs {
		a, ok := l.Act.(*cfg.Assume)
		if !ok {
			continue
		}
		if exprReads(a.Cond, f) {
			return true
		}
		for t := range copies {
			if exprReads(a.Cond, t) {
				return true
			}
		}
	}
	return false
}
