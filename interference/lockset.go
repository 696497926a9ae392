package interference

import "chorus/cfg"

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
