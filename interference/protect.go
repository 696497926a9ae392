package interference

import (
	"sort"

	"chorus/cfg"
)

// Lock-protected cells (the "protected" interferences of Miné's
// lock-based analysis, Goblint's mutex-meet privatization).
//
// A cell X is protected by lock L when every location that may write X
// (Cells.Mod without assumes and checks) and can run while another thread
// exists surely holds L (must-lockset). Assumes and checks count as
// writes for the game (DESIGN.md §4) but change no value: the argument
// below is about the values actually written, and another thread's
// assume, even inside [τ, now], leaves X as it was. Locations of a singleton main that no
// spawn of main reaches (its code before the first pthread_create,
// InitGlobals included) run while no other thread exists and are exempt.
//
// Rule: no interference edge of X lands at a location where the thread
// surely holds a lock protecting X (usesCell filters them for every
// game), except at the relays of X: the successors of every Acquire of a
// lock protecting X. A relay S is an identity definition of X in the DFG
// (LockRelays, dfg.Graph.Relay) whose value reaches the locations below S
// through locations where a protecting lock may be held (mayLocksets), up
// to a write of X or another relay of X. The relay is after the acquire, not at it:
// a write the game shows to a thread standing before the acquire may be
// overwritten before the acquire can run (the writer still holds the
// lock); the game's flows into S are those in which the reader did
// execute the acquire.
//
// Why this is sound for any number of threads. Every concurrent writer of
// X holds every lock of protectedBy(X) while writing. Take a thread r at
// b where it surely holds such a lock, and suppose the last write of X
// before now was by another thread (if it was r's own, the reaching
// definitions carry it, relays kill nothing). Consider the maximal stretch
// of r's path ending at b along which r held some protecting lock at every
// location: r's thread started holding nothing, so the stretch begins
// right after an acquire of a protecting lock, at a relay of X; let S be
// the last relay of X on the stretch (S = b is possible). At every moment
// since r stood at S it held a protecting lock, so no other thread wrote
// X (each such write needs that lock too): X at b equals X when r stood
// at S, which S's own edges cover (S is exempt from the filter, and the
// two-thread game is complete for a reader at S). From S to b r holds a
// protecting lock at every location (so the may-lockset has one there),
// none writes X (that write would be
// the last one) and none is another relay of X (S is the last), so S's
// relay edge reaches b. Nothing depends on the number of threads: the
// argument is about the last writer only.
//
// Mutual exclusion is that of the must-lockset (lockset.go): lock words
// written only by Acquire/Release, and a thread releases only a lock it
// holds (pthread's rule: unlocking another thread's mutex is undefined).

// computeProtection fills e.protectedBy: for every global cell with at
// least one concurrent writer, the locks held at all of its concurrent
// writers (only non-empty sets are kept).
func (e *Engine) computeProtection() {
	p := e.prog
	if len(e.locks.vars) == 0 || e.noProtection {
		return
	}
	early := preSpawnMain(p)
	prot := map[int]bitset{}
	for _, l := range p.Locs {
		if early[l.ID] {
			continue
		}
		switch l.Act.(type) {
		case *cfg.Assume, *cfg.CheckAct:
			continue // refines what a thread knows, changes no value (below)
		}
		for _, x := range e.modCache[l.ID] {
			if !e.cells.Global(x) {
				continue
			}
			b, ok := prot[x]
			if !ok {
				prot[x] = append(bitset(nil), e.lockAt[l.ID]...)
				continue
			}
			for i := range b {
				b[i] &= e.lockAt[l.ID][i]
			}
		}
	}
	e.protectedBy = map[int]bitset{}
	for x, b := range prot {
		for _, w := range b {
			if w != 0 {
				e.protectedBy[x] = b
				break
			}
		}
	}
	e.computeRelays()
}

// preSpawnMain marks the locations of main that run before any other
// thread exists: main is a singleton and no spawn location of main reaches
// them along main's control flow. Empty when main may be spawned again.
func preSpawnMain(p *cfg.Program) []bool {
	out := make([]bool, len(p.Locs))
	if len(p.Templates) == 0 || mainSpawned(p) {
		return out
	}
	main := p.Templates[0]
	after := make([]bool, len(p.Locs))
	var work []*cfg.Loc
	for _, l := range p.Locs {
		if _, ok := l.Act.(*cfg.Spawn); ok && l.Template == main {
			for _, s := range l.Succs {
				if !after[s.ID] {
					after[s.ID] = true
					work = append(work, s)
				}
			}
		}
	}
	for len(work) > 0 {
		l := work[len(work)-1]
		work = work[:len(work)-1]
		for _, s := range l.Succs {
			if !after[s.ID] {
				after[s.ID] = true
				work = append(work, s)
			}
		}
	}
	for _, l := range p.Locs {
		out[l.ID] = l.Template == main && !after[l.ID]
	}
	return out
}

// protectedAt reports whether a thread standing at l surely holds a lock
// that protects cell x: no interference edge of x may land at l.
func (e *Engine) protectedAt(l *cfg.Loc, x int) bool {
	return !e.relays[l.ID][x] && !e.joinRelays[l.ID][x] && e.holdsProtecting(l, x)
}

// holdsProtecting reports whether a thread at l surely holds a lock that
// protects x.
func (e *Engine) holdsProtecting(l *cfg.Loc, x int) bool {
	b, ok := e.protectedBy[x]
	if !ok {
		return false
	}
	held := e.lockAt[l.ID]
	for i := range b {
		if b[i]&held[i] != 0 {
			return true
		}
	}
	return false
}

// Relay asks the DFG to make At an identity definition of Cells whose
// value reaches the locations of its thread below it through locations l
// with Continue(l, cell), until a write of the cell (dfg.RelaySpec).
type Relay struct {
	At       *cfg.Loc
	Cells    []int
	Continue func(l *cfg.Loc, cell int) bool
	// Reader: no join rule (join.go) filters interference edges into At,
	// so the game's edges into At cover every cross-thread last writer
	// and the reader-relay equation may apply (dfg/readrelay.go).
	Reader bool
}

// LockRelays returns the relays of the protected cells: at the successors
// of every Acquire of a lock protecting them, continuing through the
// locations where a protecting lock is held, up to the next relay of the
// same cell. The caller must install them in the DFG (dfg.Graph.Relay)
// before the first Round.
func (e *Engine) LockRelays() []Relay {
	for i := range e.relayList {
		e.relayList[i].Reader = e.joinFreeAt(e.relayList[i].At)
	}
	return e.relayList
}

// joinFreeAt reports whether no join rule can filter an interference edge
// into l: none is on, or l is neither in main past a join nor in a
// template started after another finished (joinFiltered).
func (e *Engine) joinFreeAt(l *cfg.Loc) bool {
	if e.joinAfterRule {
		return false
	}
	if e.joinedAt == nil {
		return true
	}
	if b := e.joinedAt[l.ID]; b != nil && firstBit(b) >= 0 {
		return false
	}
	return !e.startedAfterAny[l.Template] && (e.startedAfter[l.Template] == nil || firstBit(e.startedAfter[l.Template]) < 0)
}

// computeRelays fills e.relays and e.relayList from e.protectedBy.
func (e *Engine) computeRelays() {
	if len(e.protectedBy) == 0 {
		return
	}
	e.relays = map[int]map[int]bool{}
	e.mayAt = mayLocksets(e.prog, e.locks)
	cont := func(l *cfg.Loc, x int) bool { return e.mayHoldProtecting(l, x) && !e.relays[l.ID][x] }
	for _, l := range e.prog.Locs {
		a, ok := l.Act.(*cfg.Acquire)
		if !ok {
			continue
		}
		v := lockCell(a.Lock)
		if v == nil {
			continue
		}
		i, ok := e.locks.index[v]
		if !ok {
			continue
		}
		var cells []int
		for x, b := range e.protectedBy {
			if b.has(i) {
				cells = append(cells, x)
			}
		}
		if len(cells) == 0 {
			continue
		}
		sort.Ints(cells)
		for _, s := range l.Succs {
			e.relayList = append(e.relayList, Relay{At: s, Cells: cells, Continue: cont})
			if e.relays[s.ID] == nil {
				e.relays[s.ID] = map[int]bool{}
			}
			for _, x := range cells {
				e.relays[s.ID][x] = true
			}
		}
	}
}

// mayLocksets: may(l, L) — some path from the thread's entry to l along
// the CFG (flags not considered) leaves L acquired and not surely
// released. It over-approximates the locks a thread at l actually holds,
// which is what the relays must follow (a path-sensitive must-lockset may
// hold L after a branch whose other arm never took it: trylock).
func mayLocksets(p *cfg.Program, ls *locks) []bitset {
	n := len(ls.vars)
	out := make([]bitset, len(p.Locs))
	for _, l := range p.Locs {
		out[l.ID] = newBitset(n)
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
			var v *cfg.Var
			switch lv := a.Lock.(type) {
			case *cfg.VarRef:
				v = lv.Var
			case *cfg.Deref:
				if len(lv.Cells) == 1 {
					v = lv.Cells[0]
				}
			}
			if i, ok := ls.index[v]; ok && v != nil {
				o.clear(i)
			}
		}
		return o
	}
	work := make([]*cfg.Loc, 0, len(p.Locs))
	inWork := make([]bool, len(p.Locs))
	for _, l := range p.Locs {
		work = append(work, l)
		inWork[l.ID] = true
	}
	for len(work) > 0 {
		l := work[len(work)-1]
		work = work[:len(work)-1]
		inWork[l.ID] = false
		after := transfer(l, out[l.ID])
		for _, s := range l.Succs {
			cur := out[s.ID]
			changed := false
			for i := range cur {
				if v := cur[i] | after[i]; v != cur[i] {
					cur[i] = v
					changed = true
				}
			}
			if changed && !inWork[s.ID] {
				inWork[s.ID] = true
				work = append(work, s)
			}
		}
	}
	return out
}

// mayHoldProtecting reports whether a thread at l may hold a lock that
// protects x.
func (e *Engine) mayHoldProtecting(l *cfg.Loc, x int) bool {
	b := e.protectedBy[x]
	may := e.mayAt[l.ID]
	for i := range b {
		if b[i]&may[i] != 0 {
			return true
		}
	}
	return false
}

// PreSpawnMain marks the locations of main that run while no other thread
// exists (preSpawnMain), for rules outside this package.
func PreSpawnMain(p *cfg.Program) []bool { return preSpawnMain(p) }
