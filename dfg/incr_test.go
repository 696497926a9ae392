package dfg

import (
	"context"
	"math/rand"
	"testing"

	"chorus/cfg"
)

// Random programs get random batches of interference-like edges (direct,
// and through hubs), many of them into a few locations' cells so that
// those cells keep their joins in trees (cellTree), with a Solve after
// each batch. With checkIncremental on (TestMain) every incremental
// evaluation is compared with a full one and every head's joinAfter with
// the plain join, so a change a source failed to push (mark, flushHubs) or
// a stale path of a cell's tree panics here. The final invariants must
// also be a post-fixpoint of the final graph's equations.
func TestIncrementalBatchesWithCellTrees(t *testing.T) {
	trees := 0
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
			for batch := range 4 {
				// A few hot targets: every location that tracks a cell
				// gets an edge of it from many sources.
				for range 3 {
					dst := locs[r.Intn(len(locs))]
					cells := g.In(dst)
					if len(cells) == 0 {
						continue
					}
					c := cells[r.Intn(len(cells))]
					if part.cells[c].Owner != nil {
						continue
					}
					var srcs []*cfg.Loc
					for range 10 + r.Intn(30) {
						srcs = append(srcs, locs[r.Intn(len(locs))])
					}
					if batch%2 == 1 {
						g.AddHub(srcs, c, []*cfg.Loc{dst, locs[r.Intn(len(locs))]})
					} else {
						for _, src := range srcs {
							g.AddEdge(src, c, dst)
						}
					}
				}
				if err := s.Solve(context.Background()); err != nil {
					t.Fatal(err)
				}
			}
			for _, l := range locs {
				if !s.eval(l).leq(s.state(int32(l.ID))) {
					t.Fatalf("seed %d %s: location %d is not a post-fixpoint", seed, dom.Name(), l.ID)
				}
			}
			for _, x := range s.idx {
				if x != nil {
					for _, tr := range x.trees {
						if tr != nil {
							trees++
						}
					}
				}
			}
		}
	}
	if trees == 0 {
		t.Fatal("no cell kept its join in a tree: the test does not exercise cellTree")
	}
	t.Logf("%d cell trees", trees)
}
