package dfg

import (
	"context"
	"math/rand"
	"slices"
	"testing"

	"chorus/cfg"
)

// Random programs get batches of interference-like edges, each followed
// by an incremental Solve, as the analysis's rounds do. Whether the
// solver extended its order (extendWTO) or recomputed it, after every
// Solve the order must give the widening what computeWTO guarantees:
// every edge u→d with pos[u] >= from[d] (every backward edge among them)
// ends at a head whose back cells hold the edge's cell (control aside),
// and the invariants must be a post-fixpoint of the graph's equations. A
// backward edge into a location that is no head, or a back cell missing
// (extendWTO skipping an edge, or keeping an order a new cycle avoids),
// fails here. The test also requires that Solves did extend the order.
func TestExtendedOrderKeepsWidening(t *testing.T) {
	extended, recomputed := 0, 0
	for seed := int64(1); seed <= 40; seed++ {
		p := genProgramN(seed, 60)
		r := rand.New(rand.NewSource(seed))
		for _, dom := range bothDomains {
			part := NewPartition(p, seed%2 == 0)
			g := New(p, part)
			var opts []Option
			if seed%3 == 0 {
				opts = append(opts, WithOrderThreshold(0))
			}
			s := NewSolver(g, dom, opts...)
			if err := s.Solve(context.Background()); err != nil {
				t.Fatal(err)
			}
			locs := p.Locs
			for batch := range 6 {
				for range 1 + r.Intn(4) {
					dst := locs[r.Intn(len(locs))]
					cells := g.In(dst)
					if len(cells) == 0 {
						continue
					}
					c := cells[r.Intn(len(cells))]
					if part.cells[c].Owner != nil {
						continue
					}
					src := locs[r.Intn(len(locs))]
					if batch%3 == 2 {
						g.AddHub([]*cfg.Loc{src, locs[r.Intn(len(locs))]}, c, []*cfg.Loc{dst})
					} else {
						g.AddEdge(src, c, dst)
					}
				}
				ext, comp := s.wtoExtended, s.wtoComputed
				if err := s.Solve(context.Background()); err != nil {
					t.Fatal(err)
				}
				extended += s.wtoExtended - ext
				recomputed += s.wtoComputed - comp
				checkWideningOrder(t, s, seed, batch)
			}
			for _, l := range locs {
				if !s.eval(l).leq(s.state(int32(l.ID))) {
					t.Fatalf("seed %d %s: location %d is not a post-fixpoint", seed, dom.Name(), l.ID)
				}
			}
		}
	}
	if extended == 0 {
		t.Fatalf("no Solve extended the order (%d recomputed it): the test does not exercise extendWTO", recomputed)
	}
	t.Logf("%d extended, %d recomputed", extended, recomputed)
}

func checkWideningOrder(t *testing.T, s *Solver, seed int64, batch int) {
	t.Helper()
	g := s.g
	nLocs := len(g.prog.Locs)
	for id := range g.numNodes() {
		if id >= nLocs {
			continue // a hub passes its headship on (computeWTO; extendWTO recomputes then)
		}
		for _, e := range g.edges[id] {
			if e.Src == nil || s.pos[e.Src.ID] < s.wtoFrom[id] {
				continue
			}
			if !s.isHead[id] {
				t.Fatalf("seed %d batch %d: edge %d→%d (cell %d) goes back into a location that is no head", seed, batch, e.Src.ID, id, e.Cell)
			}
			if e.Cell != ControlCell && !slices.Contains(s.backC[id], e.Cell) {
				t.Fatalf("seed %d batch %d: edge %d→%d: cell %d is not among the head's back cells %v", seed, batch, e.Src.ID, id, e.Cell, s.backC[id])
			}
		}
	}
}
