package interference

import (
	"context"
	"slices"

	"chorus/cfg"
)

// Targets: a round's interference edges grouped by what reads them.
//
// The DFG takes interference edges in hub blocks (analysis/hubs.go): it
// groups a round's edges by (cell, reader) and then the readers by their
// set of writers. On the drivers a round has millions of edges (aztcd:
// 6 M coarse facts mapped to 7.8 M edges in round 1), so listing them
// one by one (mapEdges: 24 bytes each) only for the caller to regroup
// them (a map lookup per edge) cost more than the game itself. RoundTargets
// hands over the grouping instead: per (cell, reader) the sorted set of
// writers, in the order in which the (cell, reader) first appears in
// Round's edge list. That is exactly GroupEdges of Round's edges (tested:
// TestTargetsAsGroupedEdges), so the caller builds the same blocks, hubs
// and edges in the same order.

// Target is the interference edges of one round into one location for one
// cell: Src —Cell→ Dst for every Src in Srcs (sorted by location ID,
// without repeats).
type Target struct {
	Cell int
	Dst  *cfg.Loc
	Srcs []*cfg.Loc
}

// GroupEdges groups edges by (cell, target): the targets in order of
// their first edge, each with the sorted set of its sources.
func GroupEdges(edges []Edge) []Target {
	// At most one map lookup per edge, on an integer key, and none while
	// the target stays that of the edge before (the games list a
	// target's edges together).
	index := map[uint64]int{}
	var out []Target
	last := -1
	for _, e := range edges {
		i := last
		if i < 0 || out[i].Cell != e.Cell || out[i].Dst != e.Dst {
			k := uint64(uint32(e.Cell))<<32 | uint64(uint32(e.Dst.ID))
			var ok bool
			i, ok = index[k]
			if !ok {
				i = len(out)
				index[k] = i
				out = append(out, Target{Cell: e.Cell, Dst: e.Dst})
			}
			last = i
		}
		out[i].Srcs = append(out[i].Srcs, e.Src)
	}
	for i := range out {
		srcs := out[i].Srcs
		slices.SortFunc(srcs, func(a, b *cfg.Loc) int { return a.ID - b.ID })
		out[i].Srcs = slices.Clip(slices.Compact(srcs))
	}
	return out
}

// RoundTargets is Round with its edges grouped: GroupEdges of the edges
// Round returns (the blocks and statistics are Round's).
func (e *Engine) RoundTargets(ctx context.Context, inv Invariants) ([]Target, []Block, RoundStats, error) {
	out, st, err := e.play(ctx, inv)
	if err != nil {
		return nil, nil, st, err
	}
	if out.flat {
		return GroupEdges(out.held), out.blocks, st, nil
	}
	if e.once != nil {
		// The once rule holds back single edges (once.go): it is given
		// the edge list, as in Round. (It only runs on programs of at
		// most onceMaxLocs locations, whose edge lists are short.)
		edges := e.filterOnce(inv, e.mapEdges(out.parts...))
		st.NewEdges = len(edges)
		return GroupEdges(edges), nil, st, nil
	}
	ts, n := e.mapTargets(out.parts...)
	st.NewEdges = n
	return ts, nil, st, nil
}

// mapTargets is GroupEdges(mapEdges(parts...)) without the edge list: it
// walks the facts in mapEdges's order, so each (cell, reader) gets its
// index at its first edge, as GroupEdges gives it, and collects the
// writers of each target.
//
// A fact's readers are the list readersAt keeps for its (b, x), and the
// facts of one (b, x) differ only in their writer. So a fact none of
// whose edges a join rule can filter — its list's readers are free of
// them (joinMayFilter) or its writer is (joinFreeWriter) — adds its
// writer once, to its list, instead of once per reader (aztcd: 6 M
// facts, 7.8 M edges), and the list's readers get their targets at the
// first such fact, in list order, where their first edges would (unless
// an earlier edge did); a target's writers are then those of its lists
// (a reader may be in the preceding run of several positions) and those
// added one by one (the other facts: each edge w —x→ l is asked
// joinFiltered, as in mapEdges). Writers are positions
// and sorted as such: positions are numbered in location order
// (computePositions), which is the order of their location IDs. It also
// returns the number of edges (mapEdges's length).
func (e *Engine) mapTargets(parts ...[]fact3) ([]Target, int) {
	users := e.readersAt() // (users.go)
	type list struct {
		targets  []int32 // by reader: its target (-1: none yet)
		filtered bool    // some join rule may filter a reader (edge by edge)
		listed   bool    // in listsOf of every reader's target
		// The writers of the facts (unfiltered lists), in fact order:
		// counted first, then filled in from listOf (one array for all
		// lists instead of a growing slice each).
		count   int32
		writers []int32
	}
	total := 0
	for _, p := range parts {
		total += len(p)
	}
	listOf := make([]int32, 0, total) // by fact: its unfiltered list, or -1
	var (
		lists   []*list // by readersAt list index
		index   = map[uint64]int32{}
		out     []Target
		direct  [][]int32 // by target: writers added edge by edge
		listsOf [][]int32 // by target: the unfiltered lists holding it
		n       int
	)
	// targetAt is the target of list lt's j-th reader l for cell x, made
	// at its first edge.
	targetAt := func(lt *list, j, x int, l *cfg.Loc) int32 {
		t := lt.targets[j]
		if t < 0 {
			t = e.targetOf(index, &out, x, l)
			for int(t) >= len(direct) {
				direct, listsOf = append(direct, nil), append(listsOf, nil)
			}
			lt.targets[j] = t
		}
		return t
	}
	for _, facts := range parts {
		for _, f := range facts {
			ls, li := users.ofIndex(e, f.b, f.x)
			listOf = append(listOf, -1)
			if len(ls) == 0 {
				continue
			}
			if li >= len(lists) {
				lists = append(lists, make([]*list, li+1-len(lists))...)
			}
			x := int(f.x)
			lt := lists[li]
			if lt == nil {
				lt = &list{targets: make([]int32, len(ls))}
				for j, l := range ls {
					lt.targets[j] = -1
					lt.filtered = lt.filtered || e.joinMayFilter(l, x)
				}
				lists[li] = lt
			}
			if !lt.filtered || e.joinFreeWriter(f.w) {
				// No edge of this fact is filtered: every reader without
				// a target gets one here, in list order, as its first
				// edge would give it.
				if !lt.listed {
					for j, l := range ls {
						t := targetAt(lt, j, x, l)
						listsOf[t] = append(listsOf[t], int32(li))
					}
					lt.listed = true
				}
				listOf[len(listOf)-1] = int32(li)
				lt.count++
				n += len(ls)
				continue
			}
			w := e.pos.locs[f.w]
			for j, l := range ls {
				if e.joinFiltered(w, l, x) {
					continue
				}
				t := targetAt(lt, j, x, l)
				direct[t] = append(direct[t], f.w)
				n++
			}
		}
	}
	all := 0
	for _, lt := range lists {
		if lt != nil {
			all += int(lt.count)
		}
	}
	buf := make([]int32, all)
	for _, lt := range lists {
		if lt != nil {
			lt.writers, buf = buf[:0:lt.count], buf[lt.count:]
		}
	}
	i := 0
	for _, facts := range parts {
		for _, f := range facts {
			if li := listOf[i]; li >= 0 {
				lt := lists[li]
				lt.writers = append(lt.writers, f.w) // (within its room)
			}
			i++
		}
	}
	listOf = nil
	// The sets, sorted and without repeats. A target held by one list
	// alone (most) shares the list's sources.
	sorted := func(ws []int32) []int32 {
		if !slices.IsSorted(ws) {
			slices.Sort(ws)
		}
		return slices.Compact(ws)
	}
	locsOf := func(ws []int32) []*cfg.Loc {
		out := make([]*cfg.Loc, len(ws))
		for i, w := range ws {
			out[i] = e.pos.locs[w]
		}
		return out
	}
	srcsOf := make([][]*cfg.Loc, len(lists)) // by list
	for t := range out {
		if len(direct[t]) == 0 && len(listsOf[t]) == 1 {
			li := listsOf[t][0]
			if srcsOf[li] == nil {
				srcsOf[li] = locsOf(sorted(lists[li].writers))
			}
			out[t].Srcs = srcsOf[li]
			continue
		}
		ws := direct[t]
		for _, li := range listsOf[t] {
			ws = append(ws, lists[li].writers...)
		}
		out[t].Srcs = locsOf(sorted(ws))
	}
	return out, n
}

// joinFreeWriter reports whether joinFiltered(w, l, x) is false for
// every l and x, w the writer at position p: each of its rules needs w's
// template to be joinable, except the join-after rule (off by default),
// which may then filter any writer.
func (e *Engine) joinFreeWriter(p int32) bool {
	if e.joinedAt == nil {
		return true
	}
	if e.joinAfterRule {
		return false
	}
	return !slices.Contains(e.joinable, e.pos.locs[p].Template)
}

// targetOf returns the index in out of the target (x, l), appending it
// when new.
func (e *Engine) targetOf(index map[uint64]int32, out *[]Target, x int, l *cfg.Loc) int32 {
	k := uint64(uint32(x))<<32 | uint64(uint32(l.ID))
	t, ok := index[k]
	if !ok {
		t = int32(len(*out))
		index[k] = t
		*out = append(*out, Target{Cell: x, Dst: l})
	}
	return t
}
