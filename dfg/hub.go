package dfg

import (
	"fmt"
	"slices"

	"chorus/cfg"
)

// Interference hubs.
//
// On large programs the interference edges of one cell form near-complete
// bipartite graphs: hundreds of writers, each reaching thousands of
// readers (aztcd: 4 M edges). A hub stands for the edges srcs × dsts of
// one cell: a synthetic location (action skip, no template, ID after the
// program's locations) with src —cell→ hub from every source and
// hub —cell→ dst to every target. The value a hub passes
// on is the join of its sources' current values of the cell (none when
// every source is unreachable), computed from their posts as a direct
// edge would, kept in a tree of partial joins so that a source's change
// costs log |srcs| joins, not |srcs| (Solver.hubPost); a hub has
// no state, is never widened or narrowed, and when the weak topological
// order makes it a cycle head its targets widen instead. So each target
// gets the same invariant as with the direct edges (the join is
// associative), through |srcs|+|dsts| edges instead of |srcs|·|dsts|,
// with one join per source change instead of one per target.

// AddHub adds the interference edges src —cell→ dst for every src in srcs
// and dst in dsts through one hub. Like AddEdge it ignores targets that do
// not track cell; it returns the number of targets connected (0: no hub
// was made).
func (g *Graph) AddHub(srcs []*cfg.Loc, cell CellID, dsts []*cfg.Loc) int {
	_, n := g.NewHub(srcs, cell, dsts)
	return n
}

// NewHub is AddHub that also returns the hub (nil when none was made),
// for ExtendHub.
func (g *Graph) NewHub(srcs []*cfg.Loc, cell CellID, dsts []*cfg.Loc) (*cfg.Loc, int) {
	g.ensure()
	if cell == ControlCell || len(srcs) == 0 {
		return nil, 0
	}
	var ds []*cfg.Loc
	for _, d := range dsts {
		if d != nil && g.Tracks(d, cell) {
			ds = append(ds, d)
		}
	}
	if len(ds) == 0 {
		return nil, 0
	}
	hub := g.newHub(cell, srcs)
	g.hubEdges(hub, cell, srcs)
	g.pending = append(g.pending, hub)
	n := 0
	seen := make(map[*cfg.Loc]bool, len(ds))
	for _, d := range ds {
		// (the hub is new: its edges are deduplicated here, not in
		// edgeSet, whose lookups were a tenth of memcached.c's run)
		if !seen[d] {
			seen[d] = true
			g.appendEdge(d, edge{Src: hub, Cell: cell, Interference: true})
			g.nInterf++
			g.pending = append(g.pending, d)
			n++
		}
	}
	return hub, n
}

// ExtendHub adds srcs to the sources of hub (made by NewHub): from now
// on the hub passes on the join over the old and the new sources, so each
// of its targets gets the edges src —cell→ dst of the new sources too,
// through |srcs| new edges into the hub instead of a new hub with an edge
// to every target. The flow-insensitive game uses it: its new writers of
// a cell go to the very readers its earlier writers went to. Sources the
// hub already has are skipped; it returns the number added (0: the graph
// did not change).
//
// The solver learns of the change at its next Solve (grownHubs): it
// forgets the hub's cached value and tree of partial joins, and compares
// the new value with the one the targets last saw, marking their edges
// from the hub when it differs, as for a change of a source's state.
func (g *Graph) ExtendHub(hub *cfg.Loc, srcs []*cfg.Loc) int {
	if !g.IsHub(hub) {
		panic(fmt.Sprintf("dfg: ExtendHub of location %d, not a hub", hub.ID))
	}
	i := hub.ID - len(g.prog.Locs)
	cell := g.hubCell[i]
	var add []*cfg.Loc
	for _, s := range srcs {
		if s == nil || slices.Contains(g.hubsOf[s.ID], int32(hub.ID)) {
			continue // (hubsOf is short: the hubs one location feeds)
		}
		g.hubsOf[s.ID] = append(g.hubsOf[s.ID], int32(hub.ID))
		g.hubSlot[s.ID] = append(g.hubSlot[s.ID], int32(len(g.hubSrcs[i])))
		g.hubSrcs[i] = append(g.hubSrcs[i], s)
		add = append(add, s)
	}
	if len(add) == 0 {
		return 0
	}
	g.hubEdges(hub, cell, add)
	g.grownHubs = append(g.grownHubs, hub)
	g.pending = append(g.pending, hub)
	return len(add)
}

// hubEdges adds the edge src —cell→ hub of a new hub, once per source.
//
// Edges into a hub carry no value: the solver computes the hub's value
// from its sources' posts (Solver.hubPost, reachability included: an
// unreachable source's post is ⊥ and contributes nothing), learns of a
// source's change through hubsOf (Solver.set), and never evaluates a hub
// from its in-edges (a hub has no slots). What they give is the order:
// the hub among its sources' successors (succs: the weak topological
// order and the worklist) and, when the hub heads a cycle, the cell
// flowing back into it (backC, so its targets widen). One edge per source
// gives both, so there is no src —control→ hub edge as well (pigz linked:
// 4.5 M such edges, half of the edges into hubs).
func (g *Graph) hubEdges(hub *cfg.Loc, cell CellID, srcs []*cfg.Loc) {
	seen := make(map[*cfg.Loc]bool, len(srcs))
	g.edges[hub.ID] = slices.Grow(g.edges[hub.ID], len(srcs))
	for _, s := range srcs {
		if !seen[s] {
			seen[s] = true
			g.appendEdge(hub, edge{Src: s, Cell: cell, Interference: true})
		}
	}
}

// ReserveHubTargets makes room in the edge list of every target for the
// edges from new hubs of the given cells to the given targets (those that
// track the cell, once per block): NewHub then appends them without
// regrowing the lists, which doubling left a quarter empty on average
// (pigz linked: its 9 M hub edges arrive one cell at a time at readers
// of 1,400 cells each). Only capacity changes.
func (g *Graph) ReserveHubTargets(cells []CellID, dsts [][]*cfg.Loc) {
	g.ensure()
	count := make([]int32, g.numNodes())
	mark := make([]int32, g.numNodes()) // block index + 1 that counted it
	for i, c := range cells {
		if c == ControlCell {
			continue
		}
		for _, d := range dsts[i] {
			if d != nil && mark[d.ID] != int32(i+1) && g.Tracks(d, c) {
				mark[d.ID] = int32(i + 1)
				count[d.ID]++
			}
		}
	}
	for id, k := range count {
		if es := g.edges[id]; k > 0 && cap(es)-len(es) < int(k) {
			grown := make([]edge, len(es), len(es)+int(k))
			copy(grown, es)
			g.edges[id] = grown
		}
	}
}

// newHub makes the hub location and its per-node entries.
func (g *Graph) newHub(cell CellID, srcs []*cfg.Loc) *cfg.Loc {
	id := g.numNodes()
	hub := &cfg.Loc{ID: id, Act: &cfg.Skip{}}
	g.hubs = append(g.hubs, hub)
	g.hubSrcs = append(g.hubSrcs, slices.Clone(srcs))
	g.hubCell = append(g.hubCell, cell)
	if g.hubsOf == nil {
		g.hubsOf = make([][]int32, len(g.prog.Locs))
		g.hubSlot = make([][]int32, len(g.prog.Locs))
	}
	for i, s := range srcs {
		g.hubsOf[s.ID] = append(g.hubsOf[s.ID], int32(id))
		g.hubSlot[s.ID] = append(g.hubSlot[s.ID], int32(i))
	}
	g.acc = append(g.acc, access{})
	g.mod = append(g.mod, nil)
	g.gen = append(g.gen, nil)
	g.uses = append(g.uses, nil)
	g.in = append(g.in, []CellID{cell})
	g.edges = append(g.edges, nil)
	g.succs = append(g.succs, nil)
	return hub
}

// numNodes is the number of locations plus hubs.
func (g *Graph) numNodes() int { return len(g.prog.Locs) + len(g.hubs) }

// node returns the location or hub with the given ID.
func (g *Graph) node(id int32) *cfg.Loc {
	if n := len(g.prog.Locs); int(id) >= n {
		return g.hubs[int(id)-n]
	}
	return g.prog.Locs[id]
}

// IsHub reports whether l is a hub (see AddHub).
func (g *Graph) IsHub(l *cfg.Loc) bool {
	return l != nil && l.ID >= len(g.prog.Locs) && l.ID < g.numNodes() && g.hubs[l.ID-len(g.prog.Locs)] == l
}

// HubSources returns the sources a hub stands for (nil for a location).
func (g *Graph) HubSources(l *cfg.Loc) []*cfg.Loc {
	if !g.IsHub(l) {
		return nil
	}
	return g.hubSrcs[l.ID-len(g.prog.Locs)]
}

// NumHubs returns the number of hubs.
func (g *Graph) NumHubs() int { return len(g.hubs) }

// Expand returns e itself, or for an edge out of a hub the direct edges
// src —cell→ dst it stands for (for explanations and drawings).
func (g *Graph) Expand(e Edge) []Edge {
	srcs := g.HubSources(e.Src)
	if srcs == nil {
		return []Edge{e}
	}
	out := make([]Edge, len(srcs))
	for i, s := range srcs {
		out[i] = Edge{Src: s, Cell: e.Cell, Dst: e.Dst, Interference: true}
	}
	return out
}

// rebuildHubs restores the hubs after build (Need) reset the per-node
// tables: same IDs, same edges.
func (g *Graph) rebuildHubs(outEdges []edgeTo) {
	hubs, srcs, cells := g.hubs, g.hubSrcs, g.hubCell
	g.hubs, g.hubSrcs, g.hubCell, g.hubsOf, g.hubSlot = nil, nil, nil, nil, nil
	n := len(g.prog.Locs)
	g.acc, g.mod, g.gen, g.uses = g.acc[:n], g.mod[:n], g.gen[:n], g.uses[:n]
	for i, h := range hubs {
		nh := g.newHub(cells[i], srcs[i])
		if nh.ID != h.ID {
			panic(fmt.Sprintf("dfg: hub %d rebuilt as %d", h.ID, nh.ID))
		}
		g.hubs[i] = h // keep the Loc the caller may hold
		g.hubEdges(h, cells[i], srcs[i])
	}
	for _, e := range outEdges { // (distinct: they were edges of the graph)
		if g.Tracks(e.dst, e.Cell) {
			g.appendEdge(e.dst, e.edge)
			g.nInterf++
		}
	}
}
