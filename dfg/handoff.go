package dfg

import "chorus/cfg"

// DropSequential makes the graph leave out the sequential edges
// src —c→ dst (relay edges included; interference edges are never
// dropped) for which drop returns true: edges that carry a value no
// execution can have at dst (interference/handoff.go says when; the
// caller answers for the soundness). Call it before the first Solve, like
// Relay; nil removes the filter.
func (g *Graph) DropSequential(drop func(src, dst *cfg.Loc, c CellID) bool) {
	g.dropSeq = drop
	g.stale = true
}

// droppedSeq reports whether e is a sequential edge DropSequential leaves
// out.
func (g *Graph) droppedSeq(dst *cfg.Loc, e edge) bool {
	return g.dropSeq != nil && e.Src != nil && !e.Interference && e.Cell != ControlCell &&
		!g.IsHub(e.Src) && !g.IsHub(dst) && g.dropSeq(e.Src, dst, e.Cell)
}
