package dfg

import (
	"slices"

	"chorus/cfg"
)

// The edges build makes are not kept in the edgeSet map: the
// reaching-definition edges are unique by construction (one cell per
// rdSolver.solve, each target once, each definition once in a bitset), so
// they are appended without a lookup (addSeqEdge), and once they are all
// in, indexEdges keeps one sorted key per edge by target (seqIdx, 8 bytes
// an edge instead of a map entry) for the duplicate tests of the edges
// added after (relays, interference, hubs' inputs). On ddverify/floppy.c
// the map held tens of millions of entries and its lookups were a third
// of building the graph.

// addSeqEdge appends e into dst, a sequential edge build knows is not in
// the graph.
func (g *Graph) addSeqEdge(dst *cfg.Loc, e edge) {
	if !g.bulk || g.seqIdx != nil || g.IsHub(e.Src) || g.IsHub(dst) {
		g.addEdge(dst, e) // (not inside build: the ordinary checks)
		return
	}
	if g.filteredOut(dst, e) {
		return // as addEdge would decide
	}
	g.appendEdge(dst, e)
}

// seqKey packs an edge's cell and source (src -1: ⊥) into one word.
func seqKey(cell CellID, src int32) uint64 {
	return uint64(uint32(cell))<<32 | uint64(uint32(src+1))
}

// indexEdges builds seqIdx from the edges in the graph, and trims each
// target's list to its length (the lists grew by appending, a quarter of
// their capacity unused on average, and most get no further edges).
func (g *Graph) indexEdges() {
	idx := make([][]uint64, len(g.edges))
	for d, es := range g.edges {
		if len(es) == 0 {
			g.edges[d] = nil
			continue
		}
		if cap(es) > len(es) {
			g.edges[d] = append(make([]edge, 0, len(es)), es...)
		}
		ks := make([]uint64, len(es))
		for i, e := range es {
			src := int32(-1)
			if e.Src != nil {
				src = int32(e.Src.ID)
			}
			ks[i] = seqKey(e.Cell, src)
		}
		slices.Sort(ks)
		idx[d] = ks
	}
	// Edges of the map are in the index now.
	clear(g.edgeSet)
	g.seqIdx = idx
}

// inSeqIdx reports whether the edge of key k is in seqIdx.
func (g *Graph) inSeqIdx(k edgeKey) bool {
	if int(k.dst) >= len(g.seqIdx) {
		return false
	}
	_, ok := slices.BinarySearch(g.seqIdx[k.dst], seqKey(k.cell, k.src))
	return ok
}

// endBulk ends build's bulk insertion: each location's successor list
// sorted and without duplicates, as appendEdge keeps it afterwards.
func (g *Graph) endBulk() {
	g.bulk = false
	for i, s := range g.succs {
		if len(s) > 1 {
			slices.Sort(s)
			g.succs[i] = slices.Compact(s)
		}
	}
}
