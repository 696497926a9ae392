package analysis

import (
	"encoding/binary"

	"chorus/cfg"
	"chorus/dfg"
	"chorus/interference"
)

// addInterference adds a round's interference edges to g, grouped by
// (cell, target) (interference.Target: the engine groups them, in the
// order of their first edge). Targets of one cell with the same sources
// form a bipartite block — the same writers reaching several readers —
// which goes through one dfg hub (dfg/hub.go) when that saves edges; the
// invariants are those of the direct edges. force makes a hub of every
// block (tests). It returns the number of edges added into the program's
// locations.
func addInterference(g *dfg.Graph, targets []interference.Target, force bool) int {
	type block struct {
		cell int
		srcs []*cfg.Loc
		dsts []*cfg.Loc
	}
	// A block's key is its cell and sources as fixed-width binary (a
	// lookup converts it without copying; decimal text cost pcwd a
	// fifth of this function).
	blocks := map[string]*block{}
	var order []*block
	var key []byte
	var last *block
	for i, t := range targets {
		// Targets next to each other often share their sources' very
		// slice (the readers of one position: interference.mapTargets),
		// hence their block: no key to build.
		if i > 0 && last != nil && t.Cell == last.cell && len(t.Srcs) > 0 && len(t.Srcs) == len(last.srcs) && &t.Srcs[0] == &last.srcs[0] {
			last.dsts = append(last.dsts, t.Dst)
			continue
		}
		key = binary.LittleEndian.AppendUint64(key[:0], uint64(t.Cell))
		for _, s := range t.Srcs {
			key = binary.LittleEndian.AppendUint64(key, uint64(s.ID))
		}
		b, ok := blocks[string(key)]
		if !ok {
			b = &block{cell: t.Cell, srcs: t.Srcs}
			blocks[string(key)] = b
			order = append(order, b)
		}
		b.dsts = append(b.dsts, t.Dst)
		last = b
	}
	n := 0
	for _, b := range order {
		ns, nd := len(b.srcs), len(b.dsts)
		if force || ns >= 2 && nd >= 2 && ns*nd > 2*ns+nd {
			n += g.AddHub(b.srcs, dfg.CellID(b.cell), b.dsts)
			continue
		}
		for _, d := range b.dsts {
			for _, s := range b.srcs {
				if g.AddEdge(s, dfg.CellID(b.cell), d) {
					n++
				}
			}
		}
	}
	return n
}

// addEdges adds a round's interference edges to g one by one, in order
// (WithHubs(false)), and returns the number added.
func addEdges(g *dfg.Graph, edges []interference.Edge) int {
	n := 0
	for _, e := range edges {
		if g.AddEdge(e.Src, dfg.CellID(e.Cell), e.Dst) {
			n++
		}
	}
	return n
}

// WithEveryHub makes a hub of every block of interference edges, however
// small: for tests of the hub machinery (the soundness oracle runs with
// it), not for use.
func WithEveryHub() Option { return func(c *config) { c.forceHubs = true } }

// flatKey names the blocks of the flow-insensitive game that share their
// targets: one cell, into main's readers or the others (interference.Block).
type flatKey struct {
	cell   int
	toMain bool
}

// addBlocks adds the flow-insensitive game's blocks to g: the first block
// of a key through a new hub, a later one (new writers of the same cell,
// to the same readers) as new sources of that hub (dfg.Graph.ExtendHub)
// instead of a hub of its own with an edge to every reader again. Each
// reader gets the same join of writers either way: the edges the hub
// stands for are those of all the key's blocks so far. On pigz the
// readers of a cell were linked anew in each round (millions of edges a
// round). It returns the number of edges added into the program's
// locations plus the number of sources added to existing hubs (nonzero
// whenever the graph changed: the caller's fixpoint loop stops at zero).
func addBlocks(g *dfg.Graph, blocks []interference.Block, hubs map[flatKey]*cfg.Loc) int {
	var cells []dfg.CellID
	var dsts [][]*cfg.Loc
	for _, b := range blocks {
		if hubs[flatKey{b.Cell, b.ToMain}] == nil {
			cells = append(cells, dfg.CellID(b.Cell))
			dsts = append(dsts, b.Dsts)
		}
	}
	g.ReserveHubTargets(cells, dsts)
	n := 0
	for _, b := range blocks {
		k := flatKey{b.Cell, b.ToMain}
		if h := hubs[k]; h != nil {
			n += g.ExtendHub(h, b.Srcs)
			continue
		}
		h, m := g.NewHub(b.Srcs, dfg.CellID(b.Cell), b.Dsts)
		if h != nil {
			hubs[k] = h
		}
		n += m
	}
	return n
}
