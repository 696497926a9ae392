package dfg

import (
	"math/rand"

	"chorus/cfg"
)

// conditionsOf lists the conditions of p's assumes and checks (the
// questions the truth memo and stamps are asked in their tests).
func conditionsOf(p *cfg.Program) []cfg.Expr {
	var conds []cfg.Expr
	for _, l := range p.Locs {
		switch a := l.Act.(type) {
		case *cfg.Assume:
			conds = append(conds, a.Cond)
		case *cfg.CheckAct:
			conds = append(conds, a.Cond)
		}
	}
	return conds
}

// addRandomEdges adds up to n interference-like edges between random
// locations, each into a cell the target tracks and no thread owns (a new
// round's edges, for the tests that re-solve incrementally).
func addRandomEdges(g *Graph, part *Partition, r *rand.Rand, n int) {
	p := g.prog
	for range n {
		dst := p.Locs[r.Intn(len(p.Locs))]
		cells := g.In(dst)
		if len(cells) == 0 {
			continue
		}
		c := cells[r.Intn(len(cells))]
		if part.cells[c].Owner != nil {
			continue
		}
		g.AddEdge(p.Locs[r.Intn(len(p.Locs))], c, dst)
	}
}
