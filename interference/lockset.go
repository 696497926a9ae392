package interference

import (
	"encoding/binary"
	"slices"

	"chorus/cfg"
)

// Must-lockset analysis: holds(a, l) — a thread standing at a surely holds
// lock l. Forward dataflow per template, intersection at joins, starting
// from the empty set at every template entry (a new thread holds no lock).
//
// Only lock words that stand for one concrete mutex take part: a global
// register or a non-summary global cell named by every Acquire of it
// (cfg.Deref with exactly one such cell). A Release through a Deref with
// several cells releases all of them (must-information may only shrink).
// Soundness also needs that nothing but Acquire/Release writes the lock
// word while it is held; a lock word written by any other action
// (re-initialization, memset, plain stores) is excluded from the analysis
// altogether, so its acquire is never blocked by the lockset.

type bitset []uint64

func newBitset(n int) bitset { return make(bitset, (n+63)/64) }

func (b bitset) has(i int) bool { return b[i/64]&(1<<(uint(i)%64)) != 0 }
func (b bitset) set(i int)      { b[i/64] |= 1 << (uint(i) % 64) }
func (b bitset) clear(i int)    { b[i/64] &^= 1 << (uint(i) % 64) }

func (b bitset) equal(o bitset) bool {
	for i := range b {
		if b[i] != o[i] {
			return false
		}
	}
	return true
}

// locks indexes the lock words of a program.
type locks struct {
	vars  []*cfg.Var
	index map[*cfg.Var]int
	// unsoundGlobalFlags: WithUnsoundGlobalFlags (test only).
	unsoundGlobalFlags bool
}

// findLocks returns the lock words that take part in the must-lockset.
func findLocks(p *cfg.Program) *locks {
	ls := &locks{index: map[*cfg.Var]int{}}
	written := map[*cfg.Var]bool{}
	markWrites := func(lv cfg.LValue) {
		switch lv := lv.(type) {
		case *cfg.VarRef:
			written[lv.Var] = true
		case *cfg.Deref:
			for _, c := range lv.Cells {
				written[c] = true
			}
		}
	}
	for _, l := range p.Locs {
		switch a := l.Act.(type) {
		case *cfg.Acquire:
			if v := lockCell(a.Lock); v != nil {
				if _, ok := ls.index[v]; !ok {
					ls.index[v] = len(ls.vars)
					ls.vars = append(ls.vars, v)
				}
			}
		case *cfg.Assign:
			markWrites(a.Dst)
		case *cfg.Havoc:
			markWrites(a.Dst)
		case *cfg.Alloc:
			markWrites(a.Dst)
			if a.Site != nil {
				for _, c := range a.Site.Cells {
					written[c] = true
				}
			}
		case *cfg.Spawn:
			markWrites(a.Handle)
		}
	}
	keep := ls.vars[:0]
	ls.index = map[*cfg.Var]int{}
	for _, v := range ls.vars {
		if written[v] {
			continue
		}
		ls.index[v] = len(keep)
		keep = append(keep, v)
	}
	ls.vars = keep
	return ls
}

// mustLocksets computes, for every location, the set of lock indices held
// by a thread standing there. Unreachable locations keep the full set.
func mustLocksets(p *cfg.Program, ls *locks) []bitset {
	n := len(ls.vars)
	out := make([]bitset, len(p.Locs))
	full := newBitset(n)
	for i := 0; i < n; i++ {
		full.set(i)
	}
	for _, l := range p.Locs {
		out[l.ID] = append(bitset(nil), full...)
	}
	if n == 0 {
		return out
	}
	transfer := func(l *cfg.Loc, in bitset) bitset {
		o := append(bitset(nil), in...)
		switch a := l.Act.(type) {
		case *cfg.Acquire:
			if v := lockCell(a.Lock); v != nil {
				if i, ok := ls.index[v]; ok {
					o.set(i)
				}
			}
		case *cfg.Release:
			switch lv := a.Lock.(type) {
			case *cfg.VarRef:
				if i, ok := ls.index[lv.Var]; ok {
					o.clear(i)
				}
			case *cfg.Deref:
				for _, c := range lv.Cells {
					if i, ok := ls.index[c]; ok {
						o.clear(i)
					}
				}
			}
		}
		return o
	}
	for _, t := range p.Templates {
		if t.Entry == nil {
			continue
		}
		out[t.Entry.ID] = newBitset(n)
		work := []*cfg.Loc{t.Entry}
		inWork := map[*cfg.Loc]bool{t.Entry: true}
		visited := map[*cfg.Loc]bool{t.Entry: true}
		for len(work) > 0 {
			l := work[0]
			work = work[1:]
			inWork[l] = false
			after := transfer(l, out[l.ID])
			for _, s := range l.Succs {
				if s == t.Entry {
					continue // the entry's set is fixed: empty
				}
				cur := out[s.ID]
				changed := false
				for i := range cur {
					if v := cur[i] & after[i]; v != cur[i] {
						cur[i] = v
						changed = true
					}
				}
				if !visited[s] {
					visited[s] = true
					changed = true
				}
				if changed && !inWork[s] {
					inWork[s] = true
					work = append(work, s)
				}
			}
		}
	}
	return out
}

// Path-sensitive refinement for lock results kept in flags (trylock):
//
//	if (pthread_mutex_trylock(&m) == 0) { ... }   lowers to
//	{ acquire m; t := 0 } or { t := 16 };  assume(t == 0) / assume(t != 0)
//
// The plain intersection at the join forgets that m is held exactly when
// t == 0. So each location carries a small set of path facts (lockset,
// values of "flag" registers) and an assume that a fact's flags falsify
// drops that fact. Flag registers are local registers assigned only
// constants anywhere in the program, so the facts range over a finite set;
// more than maxPathFacts facts at a location are merged (intersection of
// the locksets, flags kept where they agree), which only loses precision.
// If the iteration does not settle within a budget, the plain analysis is
// used. holds(l) is the intersection over the facts at l: every feasible
// path to l is covered by some fact.

const maxPathFacts = 8

// flagEnv: the flag registers' values along a path (cfg/flags.go).
type flagEnv = cfg.FlagEnv

type pathFact struct {
	locks bitset
	env   flagEnv
}

// key encodes f injectively (fixed-width words: the lockset's words, then
// each flag's variable and value), for maps of facts (positions.go).
func (f pathFact) key() string {
	b := make([]byte, 0, 8*len(f.locks)+16*len(f.env))
	for _, w := range f.locks {
		b = binary.LittleEndian.AppendUint64(b, w)
	}
	for _, e := range f.env {
		b = e.AppendKey(b)
	}
	return string(b)
}

// equal reports whether f and g are the same fact (same lockset, same
// flag values): what equal keys meant, without building them (on
// memcached.c building the keys was most of mustLocksetsPath).
func (f pathFact) equal(g pathFact) bool {
	return slices.Equal(f.locks, g.locks) && slices.Equal(f.env, g.env)
}

// hasFact reports whether fs holds a fact equal to f.
func hasFact(fs []pathFact, f pathFact) bool {
	for _, x := range fs {
		if x.equal(f) {
			return true
		}
	}
	return false
}

// mustLocksetsPath refines mustLocksets with path facts over flag
// registers; it returns the plain result when nothing can be gained or
// the iteration runs over budget.
func mustLocksetsPath(p *cfg.Program, ls *locks) []bitset {
	plain := mustLocksets(p, ls)
	n := len(ls.vars)
	if n == 0 {
		return plain
	}
	flags := cfg.FlagRegistersIn(p, ls.unsoundGlobalFlags)
	if len(flags) == 0 {
		return plain
	}
	// facts[l]: the distinct facts at l (at most maxPathFacts after a
	// merge, so the duplicate test is a scan).
	facts := make([][]pathFact, len(p.Locs))
	transfer := func(l *cfg.Loc, f pathFact) (pathFact, bool) {
		// Facts are never changed in place (mergeAll and the result
		// copy), so o shares f's lockset unless a lock action changes it.
		o := pathFact{locks: f.locks, env: f.env}
		switch a := l.Act.(type) {
		case *cfg.Acquire:
			o.locks = append(bitset(nil), f.locks...)
			if v := lockCell(a.Lock); v != nil {
				if i, ok := ls.index[v]; ok {
					o.locks.set(i)
				}
			}
		case *cfg.Release:
			o.locks = append(bitset(nil), f.locks...)
			switch lv := a.Lock.(type) {
			case *cfg.VarRef:
				if i, ok := ls.index[lv.Var]; ok {
					o.locks.clear(i)
				}
			case *cfg.Deref:
				for _, c := range lv.Cells {
					if i, ok := ls.index[c]; ok {
						o.locks.clear(i)
					}
				}
			}
		case *cfg.Assign:
			o.env = cfg.FlagAssign(a, f.env, flags)
		case *cfg.Assume:
			if v, ok := cfg.EvalFlags(a.Cond, f.env); ok && v == 0 {
				return o, false // infeasible on this path
			}
		}
		return o, true
	}
	budget := 50 * (len(p.Locs) + 1)
	for _, t := range p.Templates {
		if t.Entry == nil {
			continue
		}
		start := pathFact{locks: newBitset(n)}
		facts[t.Entry.ID] = []pathFact{start}
		work := []*cfg.Loc{t.Entry}
		for len(work) > 0 {
			if budget--; budget < 0 {
				return plain
			}
			l := work[len(work)-1]
			work = work[:len(work)-1]
			for _, f := range facts[l.ID] {
				g, ok := transfer(l, f)
				if !ok {
					continue
				}
				for _, s := range l.Succs {
					if s == t.Entry {
						continue
					}
					if hasFact(facts[s.ID], g) {
						continue
					}
					facts[s.ID] = append(facts[s.ID], g)
					if len(facts[s.ID]) > maxPathFacts {
						facts[s.ID] = mergeFacts(facts[s.ID])
					}
					work = append(work, s)
				}
			}
		}
	}
	out := make([]bitset, len(p.Locs))
	for _, l := range p.Locs {
		if len(facts[l.ID]) == 0 {
			out[l.ID] = plain[l.ID] // unreachable by the CFG, or only through infeasible flag paths
			continue
		}
		h := append(bitset(nil), facts[l.ID][0].locks...)
		for _, f := range facts[l.ID][1:] {
			for i := range h {
				h[i] &= f.locks[i]
			}
		}
		// Never report less than the plain analysis (both are sound).
		for i := range h {
			h[i] |= plain[l.ID][i]
		}
		out[l.ID] = h
	}
	return out
}

// WithUnsoundGlobalFlags is UNSOUND, for testing the oracle only: the
// path-sensitive must-lockset takes global variables written only with
// constants for flags too (cfg.FlagRegistersIn), although another thread may
// change one between a thread's trylock and its test of the flag.
func WithUnsoundGlobalFlags() Option { return func(e *Engine) { e.unsoundGlobalFlags = true } }

// mergeFacts replaces too many facts by fewer: first those with the same
// lockset by one (the flags where they agree), and if that still leaves
// too many, all by one (the intersection of the locksets). Either way
// each old fact implies one of the new ones: only precision is lost.
// Keeping the locksets apart matters where stale flags of earlier loop
// iterations multiply the facts (a test-and-set loop: taslock.go).
func mergeFacts(fs []pathFact) []pathFact {
	var groups [][]pathFact // in order of first appearance
	for _, f := range fs {
		i := slices.IndexFunc(groups, func(g []pathFact) bool { return slices.Equal(g[0].locks, f.locks) })
		if i < 0 {
			i = len(groups)
			groups = append(groups, nil)
		}
		groups[i] = append(groups[i], f)
	}
	if len(groups) < len(fs) && len(groups) <= maxPathFacts/2 {
		var out []pathFact
		for _, g := range groups {
			out = append(out, mergeAll(g)...)
		}
		return out
	}
	return mergeAll(fs)
}

func mergeAll(fs []pathFact) []pathFact {
	m := pathFact{locks: append(bitset(nil), fs[0].locks...), env: fs[0].env}
	for _, f := range fs[1:] {
		for i := range m.locks {
			m.locks[i] &= f.locks[i]
		}
		m.env = m.env.Meet(f.env)
	}
	return []pathFact{m}
}

// checkedLocksets computes the must-locksets and drops every lock word
// with a custom release (cfg.Release.Custom: a lock built from atomic
// sections, cfg/atomiclock.go) at a location where the releasing thread
// does not surely hold it. pthread's rule makes unlocking another
// thread's mutex undefined; a custom lock has no such rule, and mutual
// exclusion (what the lockset's users rely on) holds only when every
// release is by the holder. Dropping a lock shrinks the locksets, which
// may expose further releases, so this repeats until none is left.
func checkedLocksets(p *cfg.Program, ls *locks) (*locks, []bitset) {
	for {
		lockAt := mustLocksetsPath(p, ls)
		bad := map[*cfg.Var]bool{}
		for _, l := range p.Locs {
			r, ok := l.Act.(*cfg.Release)
			if !ok || !r.Custom {
				continue
			}
			var words []*cfg.Var
			switch lv := r.Lock.(type) {
			case *cfg.VarRef:
				words = []*cfg.Var{lv.Var}
			case *cfg.Deref:
				words = lv.Cells
			}
			for _, v := range words {
				if i, ok := ls.index[v]; ok && !lockAt[l.ID].has(i) {
					bad[v] = true
				}
			}
		}
		if len(bad) == 0 {
			return ls, lockAt
		}
		keep := &locks{index: map[*cfg.Var]int{}, unsoundGlobalFlags: ls.unsoundGlobalFlags}
		for _, v := range ls.vars {
			if !bad[v] {
				keep.index[v] = len(keep.vars)
				keep.vars = append(keep.vars, v)
			}
		}
		ls = keep
	}
}
