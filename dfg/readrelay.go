package dfg

import (
	"slices"

	"chorus/cfg"
	"chorus/domains"
)

// Reader relays: lock relays of mixed cells in threads that never write
// the cell's globals.
//
// A lock relay S of a mixed cell X (relay.go; interference/protect.go)
// sits right after an acquire of a lock protecting X. Its equation joins
// X's sequential sources, which carry the thread's locals together with
// the globals as the thread last saw them, with the interference edges
// the game lets land at S: Φ(S)|X = seq ⊔ (∃G.seq ⊓ ∃L.F) (mixed.go).
// The seq part covers the executions in which the globals did not change
// since the thread's own last definition of X; but when that definition
// only wrote the thread's locals (x := t after t := g), its globals are
// whatever the thread saw earlier, possibly values another thread
// overwrote before it could release the lock (Goblint 58/02: a value
// written between two sections of a writer that holds a second lock all
// along).
//
// When the thread's template T writes no global of X anywhere
// (SharedMod) and S itself writes X (so no definition above S reaches
// below it), S takes instead
//
//	Φ(S)|X = ∃G.seq ⊓ ∃L.(F ⊔ E)
//
// with E the sources of X at T's entry (the definitions reaching its
// spawn sites, added to S as edges treated like interference: their
// globals, locals forgotten), and seq only the thread's own sequential
// definitions (an entry edge or ⊥ edge into S counts as foreign too).
//
// Why this is sound for any number of threads. Take a thread r arriving
// at S with X's globals G and its locals L. L is r's own: only r's
// actions wrote them, along its sequential edges (∃G.seq covers them,
// as in mixed.go). G is the value of the last write of G before now:
//   - by another thread: S is a relay, exempt from the protection
//     filter, and the game's edges into S cover every cross-thread last
//     writer (the premise of the relay rule, protect.go) — F;
//   - by r: impossible, T writes no global of X;
//   - none since r started: G is its value when r was spawned, produced
//     by the parent's definitions reaching the spawn site (a write by a
//     third thread before the spawn is a cross-thread last writer, the
//     first case) — E.
// Nothing depends on the number of threads. Where E has no source (X not
// tracked at T's entry, or unreachable), S keeps the plain equation. The
// first case needs every cross-thread last writer among the game's edges
// into S: where a join rule (interference/join.go) filters edges from a
// joined thread (main past the join; threads started after one
// finished), those values come through the join relays instead, along
// sequential edges, so such relays are left out (RelaySpec.Reader).

// readerRelayPlan returns, by location ID, the mixed cells to track at
// template entries for the reader relays, and fills g.readerRelay with
// the candidate (S, X) pairs (confirmed by readerRelayEdges).
func (g *Graph) readerRelayPlan() map[int][]CellID {
	g.readerRelay = nil
	if len(g.relays) == 0 {
		return nil
	}
	writesGlobal := map[*cfg.Template]map[CellID]bool{}
	sharedOf := func(t *cfg.Template) map[CellID]bool {
		if m, ok := writesGlobal[t]; ok {
			return m
		}
		m := map[CellID]bool{}
		for _, l := range t.Locs {
			for _, c := range g.SharedMod(l) {
				m[c] = true
			}
		}
		writesGlobal[t] = m
		return m
	}
	need := map[int][]CellID{}
	for _, sp := range g.relays {
		s := sp.At
		t := s.Template
		if !sp.Reader || t == nil || t.Entry == nil || s == t.Entry {
			continue
		}
		for _, c := range sp.Cells {
			if !g.part.cells[c].Mixed() {
				continue
			}
			if _, ok := slices.BinarySearch(g.gen[s.ID], c); !ok {
				continue
			}
			if sharedOf(t)[c] && !g.unsoundReaderRelays {
				continue
			}
			if g.readerRelay == nil {
				g.readerRelay = map[int][]CellID{}
			}
			if !slices.Contains(g.readerRelay[s.ID], c) {
				g.readerRelay[s.ID] = append(g.readerRelay[s.ID], c)
			}
			need[t.Entry.ID] = append(need[t.Entry.ID], c)
		}
	}
	return need
}

// readerRelayEdges makes every source of X into each candidate S that is
// not one of the thread's own sequential definitions count as foreign
// (interference-like: its globals, locals forgotten), adds E (the
// entry's sources of X) the same way, and drops the candidates without E
// or with an E source in the thread's own template (a spawn by a thread
// of the same template: its edge would pass for the thread's own).
func (g *Graph) readerRelayEdges() {
	for id, cells := range g.readerRelay {
		s := g.prog.Locs[id]
		t := s.Template
		entry := t.Entry
		var keep []CellID
		for _, c := range cells {
			var srcs []*cfg.Loc
			ok := true
			for _, e := range g.edges[entry.ID] {
				if e.Cell != c || e.Interference {
					continue
				}
				if e.Src != nil && e.Src.Template == t {
					ok = false
					break
				}
				srcs = append(srcs, e.Src)
			}
			if !ok || len(srcs) == 0 {
				continue
			}
			keep = append(keep, c)
			// Sources already there (entry edges reaching S, ⊥): foreign.
			for i := range g.edges[s.ID] {
				e := &g.edges[s.ID][i]
				if e.Cell == c && !e.Interference && (e.Src == nil || e.Src.Template != t || g.foreign(*e, s)) {
					e.Interference = true
					g.nInterf++
				}
			}
			for _, src := range srcs {
				if g.addEdge(s, edge{Src: src, Cell: c, Interference: true}) {
					g.nInterf++
				}
			}
		}
		if len(keep) == 0 {
			delete(g.readerRelay, id)
			continue
		}
		slices.Sort(keep)
		g.readerRelay[id] = keep
	}
}

// isReaderRelay reports whether cell c at loc takes the reader relay's
// equation.
func (g *Graph) isReaderRelay(loc *cfg.Loc, c CellID) bool {
	cs, ok := g.readerRelay[loc.ID]
	if !ok {
		return false
	}
	_, found := slices.BinarySearch(cs, c)
	return found
}

// mixAt combines the sequential and foreign joins of mixed cell c at
// loc: mixForeign, or at a reader relay ∃G.seq ⊓ ∃L.frn (above).
func (s *Solver) mixAt(loc *cfg.Loc, c CellID, seq, frn domains.Value) domains.Value {
	cell := s.part.cells[c]
	mono := s.opt.monotone.forTemplate(loc.Template)
	if seq == nil || !s.g.isReaderRelay(loc, c) {
		if keep := s.g.stableGlobals(loc, c); len(keep) > 0 && seq != nil {
			return mixForeignStable(cell, seq, frn, s.opt.unsoundMixedJoin, mono, keep) // stable.go
		}
		return mixForeign(cell, seq, frn, s.opt.unsoundMixedJoin, mono)
	}
	fl := frn
	if !s.opt.unsoundMixedJoin {
		fl = forgetLocals(cell, frn)
	}
	sg := seq
	for _, i := range cell.globals {
		if d := mono[cell.Vars[i]]; d != 0 {
			sg = sinceMoved(sg, i, d)
			continue
		}
		sg = sg.Forget(i)
	}
	return sg.Meet(fl)
}

// UnsoundReaderRelays is UNSOUND, for the soundness oracle's mutation
// test only: the reader relays ignore their premise that the template
// writes no global of the cell, so a thread's own last write is lost at
// the relay. Call it before the graph is built.
func (g *Graph) UnsoundReaderRelays() { g.unsoundReaderRelays = true; g.stale = true }
