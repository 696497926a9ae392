package dfg

import (
	"slices"

	"chorus/cfg"
)

// LocalKills returns the mixed cells that act(loc) defines in its own
// thread's data flow (reaching definitions kill them there: Graph's gen)
// although it writes none of their globals, so that SharedMod, and with
// it the interference game, leaves them out: `t := g` or `t := t + 1`
// with t a local of the mixed cell of g. Sorted.
//
// The interference game uses them as the reader's kills of a flow
// (interference/readerkill.go): after a thread has executed such a
// location, the cell's value it carries on is the location's own post,
// which the sequential edges out of it already bring to every location
// below, so another thread's earlier write of the globals needs no
// interference edge there.
func (g *Graph) LocalKills(loc *cfg.Loc) []CellID {
	gen := g.gen[loc.ID]
	if len(gen) == 0 {
		return nil
	}
	var shared []CellID
	var out []CellID
	for _, c := range gen {
		if !g.part.cells[c].Mixed() {
			continue
		}
		if shared == nil {
			shared = g.SharedMod(loc)
		}
		if _, ok := slices.BinarySearch(shared, c); ok {
			continue
		}
		out = append(out, c)
	}
	return out
}
