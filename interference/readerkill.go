package interference

import "chorus/cfg"

// Reader kills: a flow ends where its reader redefines the cell locally.
//
// A mixed cell X (dfg/mixed.go) holds globals and a thread's locals. The
// game sees X written only where one of its globals is written
// (Cells.Mod = SharedMod), so a reader standing at b with the value of X
// written by w moves on over `t := g` or `t := t + 1` (t a local of X)
// and the flow reaches the positions below with edge(w, X, ·) there. Into
// a mixed cell such an edge combines as S ⊔ (∃G.S ⊓ ∃L.F): w's globals
// with the reader's locals, their relation forgotten, as if w had written
// after the reader's `t := g`. On `t := x; y := t; assert(y == x)` under a
// read lock (SV-COMP pthread-ext/18_read_write_lock) that loses t == x.
//
// Rule: the reader's move over a position b does not carry a flow of X
// when act(b) defines X in the thread's own data flow (b is among the
// reaching definitions' kills of X: LocalKiller.LocalKills, which lists
// the mixed cells b defines without writing a global of them). The
// reader's spawn moves are unchanged.
//
// Why this is sound for any number of threads. Take a thread r standing
// at c, and let w be the last write of X's globals before now, by another
// thread. If r executed a location defining X after w's write, let b be
// the last one: X's globals have not changed since w (w was the last
// writer), r's own locations after b define no part of X, so X at c is
// exactly post_b of r's state when it executed b, a state within Φ(b)
// (the fixpoint is sound at b, where w's value arrived by b's own edges:
// the reader stood at b in the flow), and b is a reaching definition of
// X at c along r's path: the sequential edge b —X→ c carries post_b(Φ(b)).
// No edge w —X→ c is needed. Otherwise r executed no definition of X
// since w wrote, so w wrote while r stood at some position between its
// last definition of X and c; the two-thread game then has the flow
// start there (flow(w, X, ·, b0) with the reader at b0) and every move of
// r from b0 to c is over a position that does not define X: no kill, the
// edge w —X→ c is derived as before. The argument is about the last
// writer and one thread's own path only.
//
// What relies on the edges into a location covering every cross-thread
// last writer by themselves, without the sequential part: the reader
// relays (dfg/readrelay.go: Φ(S)|X = ∃G.seq ⊓ ∃L.(F ⊔ E) drops seq's
// globals). A cell that may have a reader relay gets no reader kills
// (readerKillExcluded). The lock and join relays keep seq (their value
// joins seq with the edges), so they need no exception.

// LocalKiller is implemented by a Cells that can list, per location, the
// mixed cells the location defines in its own thread without writing a
// global of them (dfg.Graph.LocalKills). Without it there are no reader
// kills.
type LocalKiller interface {
	LocalKills(l *cfg.Loc) []int
}

// WithReaderKills turns the reader kills on or off (default on).
func WithReaderKills(on bool) Option { return func(e *Engine) { e.noReaderKills = !on } }

// WithUnsoundReaderKills is UNSOUND, for the oracle's mutation test only:
// a reader's move over any position that writes a local register kills
// every flow of a global cell, whether or not the position defines the
// cell (the premise "b is a definition of X" dropped).
func WithUnsoundReaderKills() Option { return func(e *Engine) { e.unsoundReaderKills = true } }

// readerKillInfo: the reader kills by position (sorted cells) and by
// cell (positions).
type readerKillInfo struct {
	at     [][]int
	byCell map[int]bitset
}

// readerKills returns, by position, the cells whose flows the reader's
// move over the position ends (sorted; nil when there are none),
// computing them on first use.
func (e *Engine) readerKills() [][]int {
	if e.rkill == nil {
		e.rkill = e.computeReaderKills()
	}
	return e.rkill.at
}

func (e *Engine) computeReaderKills() *readerKillInfo {
	info := &readerKillInfo{}
	lk, ok := e.cells.(LocalKiller)
	if e.noReaderKills || !ok && !e.unsoundReaderKills {
		return info
	}
	excluded := e.readerKillExcluded(lk)
	var global []int
	if e.unsoundReaderKills {
		seen := map[int]bool{}
		for _, m := range e.modCache {
			for _, c := range m {
				if e.cells.Global(c) && !seen[c] {
					seen[c] = true
					global = append(global, c)
				}
			}
		}
	}
	at := make([][]int, len(e.pos.locs))
	by := map[int]bitset{}
	for a, l := range e.pos.locs {
		var ks []int
		if e.unsoundReaderKills {
			if writesLocalRegister(l.Act) {
				ks = global
			}
		} else {
			ks = lk.LocalKills(l)
		}
		for _, c := range ks {
			if excluded[c] || e.modifies(int32(a), c) || !e.cells.Global(c) {
				continue
			}
			at[a] = insertSorted(at[a], c)
			b := by[c]
			if b == nil {
				b = newBitset(len(e.pos.locs))
				by[c] = b
			}
			b.set(a)
		}
	}
	if len(by) > 0 {
		info.at, info.byCell = at, by
	}
	return info
}

// readerKilled reports whether the reader's move over position b ends a
// flow of cell x.
func (e *Engine) readerKilled(b int32, x int) bool {
	rk := e.readerKills()
	if rk == nil {
		return false
	}
	for _, c := range rk[b] {
		if c == x {
			return true
		}
	}
	return false
}

// readerKillSet returns the positions whose reader moves end flows of x
// (nil when none).
func (e *Engine) readerKillSet(x int) bitset {
	e.readerKills()
	return e.rkill.byCell[x]
}

// readerKillExcluded: the cells that may have a reader relay, whose
// equation needs the game's edges into the relay to cover every
// cross-thread last writer by themselves: the cells of every relay that
// LockRelays marks Reader (joinFreeAt) which the relay's location
// defines (dfg/readrelay.go takes the reader-relay equation only there:
// SharedMod, or a local definition of a mixed cell, lk).
func (e *Engine) readerKillExcluded(lk LocalKiller) map[int]bool {
	out := map[int]bool{}
	for _, r := range e.relayList {
		if !e.joinFreeAt(r.At) {
			continue
		}
		defs := map[int]bool{}
		for _, c := range e.modCache[r.At.ID] {
			defs[c] = true
		}
		if lk != nil {
			for _, c := range lk.LocalKills(r.At) {
				defs[c] = true
			}
		}
		for _, c := range r.Cells {
			if defs[c] || lk == nil {
				out[c] = true
			}
		}
	}
	return out
}

// writesLocalRegister reports whether a writes a local register (for the
// mutation only).
func writesLocalRegister(a cfg.Action) bool {
	as, ok := a.(*cfg.Assign)
	if !ok {
		return false
	}
	v, ok := as.Dst.(*cfg.VarRef)
	return ok && v.Var.Scope == cfg.Local
}

func insertSorted(s []int, c int) []int {
	for i, x := range s {
		if x == c {
			return s
		}
		if x > c {
			s = append(s, 0)
			copy(s[i+1:], s[i:])
			s[i] = c
			return s
		}
	}
	return append(s, c)
}
