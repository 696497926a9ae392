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
// walks the facts and their readers in mapEdges's order, with the same
// join filter, so each (cell, reader) gets its index at its first edge,
// as GroupEdges gives it, and each edge adds its writer to its target's
// set. A fact's readers are the list readersAt keeps for its (b, x); the
// list's targets are kept by list (one map lookup per list entry, not
// per edge). Writers are collected as positions and sorted as such:
// positions are numbered in location order (computePositions), so that
// is the order of their location IDs. It also returns the number of
// edges (mapEdges's length).
func (e *Engine) mapTargets(parts ...[]fact3) ([]Target, int) {
	users := e.readersAt() // (users.go)
	var (
		targetsOf [][]int32 // by list index: each reader's target (-1: none yet)
		index     = map[uint64]int32{}
		out       []Target
		writers   [][]int32 // by target: its writers' positions
		n         int
	)
	for _, facts := range parts {
		for _, f := range facts {
			ls, li := users.ofIndex(e, f.b, f.x)
			if len(ls) == 0 {
				continue
			}
			if li >= len(targetsOf) {
				targetsOf = append(targetsOf, make([][]int32, li+1-len(targetsOf))...)
			}
			tl := targetsOf[li]
			if tl == nil {
				tl = make([]int32, len(ls))
				for j := range tl {
					tl[j] = -1
				}
				targetsOf[li] = tl
			}
			w := e.pos.locs[f.w]
			x := int(f.x)
			for j, l := range ls {
				if e.joinFiltered(w, l, x) {
					continue
				}
				t := tl[j]
				if t < 0 {
					k := uint64(uint32(x))<<32 | uint64(uint32(l.ID))
					var ok bool
					if t, ok = index[k]; !ok {
						t = int32(len(out))
						index[k] = t
						out = append(out, Target{Cell: x, Dst: l})
						writers = append(writers, nil)
					}
					tl[j] = t
				}
				writers[t] = append(writers[t], f.w)
				n++
			}
		}
	}
	// The sets, sorted and without repeats, in one backing array.
	total := 0
	for i, ws := range writers {
		if !slices.IsSorted(ws) {
			slices.Sort(ws)
		}
		writers[i] = slices.Compact(ws)
		total += len(writers[i])
	}
	locs := make([]*cfg.Loc, 0, total)
	for i, ws := range writers {
		start := len(locs)
		for _, w := range ws {
			locs = append(locs, e.pos.locs[w])
		}
		out[i].Srcs = locs[start:len(locs):len(locs)]
	}
	return out, n
}
