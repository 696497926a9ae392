package interference

import (
	"sort"

	"chorus/cfg"
)

// Joins with thread handles.
//
// A template T is joinable when it has one instance: exactly one spawn
// site creates it, in a singleton main, on no cycle (T is not Unbounded),
// that site spawns T only, and it stores the handle into a single
// non-summary cell h that nothing else writes. A Join in main whose
// handle is h, or a local loaded only from h, then waits for that
// instance: at a location of main that every path reaches through such a
// join (must-joined, forward over main's control flow, intersection at
// merges), T has terminated.
//
// Rules, for a location b of main where T is must-joined:
//   - no interference edge from a write of T lands at b, except at the
//     join relays (the successors of T's joins where T is not yet
//     must-joined: a second join of a surely joined T needs none), which are identity
//     definitions of the cells T writes (dfg.Graph.Relay), passed on along
//     main's control flow up to a write of the cell or another join relay
//     of it: T's writes reach the rest of main as sequential data flow;
//   - no interference edge from a write of main at b lands in T (only
//     with WithJoinAfterRule: sound, and it proves Goblint's
//     58_33-phases-sound-tid-other.L16.c:16, whose MANIFEST truth is
//     `false` — taken from Goblint's "UNKNOWN!" mark — although no
//     execution fails it (the explorer finds none); off by default until
//     that truth is settled).
//
// Sound for any number of threads: T's one instance has terminated when
// main stands at b, so a write of main at b happens after every action of
// T (second rule). For the first rule, let the last write of X before main
// reads it at b be T's, at W. Main's path to b passes a join of T, and
// the first one on the path has a relay (no join of T precedes it there,
// so T is not must-joined at it); let S be the last join relay of X on
// the path. W happened before that first join returned (T had
// terminated), so X has not changed since main stood at S: S's own
// edges cover the value (S is exempt, and the game is complete for a
// reader at S), and S's relay reaches b (no write of X and no other relay
// of X in between on that path). If the last writer is another thread,
// its edges are not filtered; if it is main, the reaching definitions
// carry it. The flow-insensitive game (flat.go) does not filter: it keeps
// every edge, which is sound too.

// computeJoins fills e.joinable, e.joinedAt and the join relays.
func (e *Engine) computeJoins() {
	p := e.prog
	if len(p.Templates) < 2 || mainSpawned(p) {
		return
	}
	main := p.Templates[0]
	spawnSites := map[*cfg.Template][]*cfg.Loc{}
	for _, l := range p.Locs {
		if s, ok := l.Act.(*cfg.Spawn); ok {
			for _, t := range s.Targets {
				spawnSites[t] = append(spawnSites[t], l)
			}
		}
	}
	handleOf := map[*cfg.Var]*cfg.Template{}
	for _, t := range p.Templates[1:] {
		sites := spawnSites[t]
		if t.Unbounded || len(sites) != 1 || sites[0].Template != main {
			continue
		}
		s := sites[0].Act.(*cfg.Spawn)
		if len(s.Targets) != 1 {
			continue
		}
		if h := singleCell(s.Handle); h != nil {
			handleOf[h] = t
		}
	}
	if len(handleOf) == 0 {
		return
	}
	// The handle cells must be written by their spawn only; a local the
	// joins use must be loaded from one handle only.
	loadedFrom := map[*cfg.Var]*cfg.Var{} // local -> handle (nil: not a pure load)
	bad := map[*cfg.Var]bool{}
	for _, l := range p.Locs {
		for _, w := range lvalueVars(writtenLValue(l.Act)) {
			if _, ok := handleOf[w]; ok {
				if _, spawn := l.Act.(*cfg.Spawn); !spawn {
					bad[w] = true
				}
			}
		}
		if a, ok := l.Act.(*cfg.Assign); ok {
			if d, ok := a.Dst.(*cfg.VarRef); ok {
				h := singleCellExpr(a.Src)
				if prev, seen := loadedFrom[d.Var]; (seen && prev != h) || h == nil {
					loadedFrom[d.Var] = nil
					bad[d.Var] = true
				} else {
					loadedFrom[d.Var] = h
				}
			}
		}
		if a, ok := l.Act.(*cfg.Alloc); ok && a.Site != nil {
			for _, c := range a.Site.Cells {
				bad[c] = true
			}
		}
		if hv, ok := l.Act.(*cfg.Havoc); ok {
			if d, ok := hv.Dst.(*cfg.VarRef); ok {
				bad[d.Var] = true
			}
		}
	}
	joinOf := func(l *cfg.Loc) *cfg.Template {
		j, ok := l.Act.(*cfg.Join)
		if !ok || l.Template != main {
			return nil
		}
		h := singleCellExpr(j.Handle)
		if h == nil {
			return nil
		}
		if _, ok := handleOf[h]; !ok {
			if src, ok := loadedFrom[h]; ok && src != nil && !bad[h] {
				h = src
			} else {
				return nil
			}
		}
		if bad[h] {
			return nil
		}
		return handleOf[h]
	}
	idx := map[*cfg.Template]int{}
	for _, t := range handleOf {
		if _, ok := idx[t]; !ok {
			idx[t] = len(e.joinable)
			e.joinable = append(e.joinable, t)
		}
	}
	n := len(e.joinable)
	// Must-joined over main.
	in := make([]bitset, len(p.Locs))
	visited := make([]bool, len(p.Locs))
	in[main.Entry.ID] = newBitset(n)
	visited[main.Entry.ID] = true
	work := []*cfg.Loc{main.Entry}
	for len(work) > 0 {
		l := work[len(work)-1]
		work = work[:len(work)-1]
		out := append(bitset(nil), in[l.ID]...)
		if t := joinOf(l); t != nil {
			out.set(idx[t])
		}
		for _, s := range l.Succs {
			if s.Template != main {
				continue
			}
			if !visited[s.ID] {
				visited[s.ID] = true
				in[s.ID] = append(bitset(nil), out...)
				work = append(work, s)
				continue
			}
			changed := false
			for i := range in[s.ID] {
				if v := in[s.ID][i] & out[i]; v != in[s.ID][i] {
					in[s.ID][i] = v
					changed = true
				}
			}
			if changed {
				work = append(work, s)
			}
		}
	}
	e.joinedAt = in
	// Join relays: the cells T writes, after each join of T.
	writes := make([][]int, n)
	for _, l := range p.Locs {
		k, ok := idx[l.Template]
		if !ok {
			continue
		}
		switch l.Act.(type) {
		case *cfg.Assume, *cfg.CheckAct:
			continue
		}
		for _, x := range e.modCache[l.ID] {
			if e.cells.Global(x) {
				writes[k] = append(writes[k], x)
			}
		}
	}
	for k := range writes {
		sort.Ints(writes[k])
		writes[k] = compactInts(writes[k])
	}
	e.joinRelays = map[int]map[int]bool{}
	cont := func(l *cfg.Loc, x int) bool { return l.Template == main && !e.joinRelays[l.ID][x] }
	for _, l := range p.Locs {
		t := joinOf(l)
		if t == nil || len(writes[idx[t]]) == 0 {
			continue
		}
		if in[l.ID] != nil && in[l.ID].has(idx[t]) {
			// T is surely joined already: all its writes happened before
			// the earlier join, whose relay carries them on through here.
			continue
		}
		for _, s := range l.Succs {
			if s.Template != main {
				continue
			}
			e.relayList = append(e.relayList, Relay{At: s, Cells: writes[idx[t]], Continue: cont})
			if e.joinRelays[s.ID] == nil {
				e.joinRelays[s.ID] = map[int]bool{}
			}
			for _, x := range writes[idx[t]] {
				e.joinRelays[s.ID][x] = true
			}
		}
	}
}

// joinFiltered reports whether the interference edge w —x→ l cannot carry
// a value by the join rules above.
func (e *Engine) joinFiltered(w, l *cfg.Loc, x int) bool {
	if e.joinedAt == nil {
		return false
	}
	for k, t := range e.joinable {
		if w.Template == t && e.joinedAt[l.ID] != nil && e.joinedAt[l.ID].has(k) && !e.joinRelays[l.ID][x] {
			return true
		}
		if e.joinAfterRule && l.Template == t && e.joinedAt[w.ID] != nil && e.joinedAt[w.ID].has(k) {
			return true
		}
	}
	return false
}

func compactInts(xs []int) []int {
	out := xs[:0]
	for i, x := range xs {
		if i == 0 || xs[i-1] != x {
			out = append(out, x)
		}
	}
	return out
}

// singleCell returns the one non-summary variable lv denotes, or nil.
func singleCell(lv cfg.LValue) *cfg.Var {
	switch lv := lv.(type) {
	case *cfg.VarRef:
		return lv.Var
	case *cfg.Deref:
		if len(lv.Cells) == 1 && !lv.Cells[0].Summary {
			return lv.Cells[0]
		}
	}
	return nil
}

// singleCellExpr is singleCell for an expression read (casts allowed).
func singleCellExpr(e cfg.Expr) *cfg.Var {
	switch e := e.(type) {
	case *cfg.VarRef:
		return e.Var
	case *cfg.Deref:
		return singleCell(e)
	case *cfg.Cast:
		return singleCellExpr(e.X)
	}
	return nil
}

// writtenLValue returns the lvalue act writes through, if any.
func writtenLValue(a cfg.Action) cfg.LValue {
	switch a := a.(type) {
	case *cfg.Assign:
		return a.Dst
	case *cfg.Havoc:
		return a.Dst
	case *cfg.Alloc:
		return a.Dst
	case *cfg.Spawn:
		return a.Handle
	}
	return nil
}

// lvalueVars lists the variables lv may write.
func lvalueVars(lv cfg.LValue) []*cfg.Var {
	switch lv := lv.(type) {
	case *cfg.VarRef:
		return []*cfg.Var{lv.Var}
	case *cfg.Deref:
		return lv.Cells
	}
	return nil
}
