package dfg

import (
	"context"
	"math/rand"
	"testing"

	"chorus/cfg"
)

// CondStamps gives, per condition, the stamp of a TruthStamper of that
// condition alone (whose promise TestTruthStampCoversTruth checks for
// stampers of fewer conditions): compared at every location after every
// Solve of random programs with random edges added between Solves.
func TestCondStampsAsSingleStampers(t *testing.T) {
	compared := 0
	for seed := int64(1); seed <= 30; seed++ {
		p := genProgramN(seed, 50)
		conds := conditionsOf(p)
		if len(conds) == 0 {
			continue
		}
		r := rand.New(rand.NewSource(seed))
		for _, dom := range bothDomains {
			part := NewPartition(p, seed%2 == 0)
			g := New(p, part)
			s := NewSolver(g, dom)
			ts := s.NewTruthStamper(conds)
			single := make([]*TruthStamper, len(conds))
			for i, c := range conds {
				single[i] = s.NewTruthStamper([]cfg.Expr{c})
			}
			got := make([]TruthStamp, len(conds))
			for round := range 5 {
				if round > 0 {
					addRandomEdges(g, part, r, 4)
				}
				for _, l := range p.Locs {
					ts.CondStamps(l, got) // (also before the first Solve)
					for i := range conds {
						if want := single[i].Stamp(l); got[i] != want {
							t.Fatalf("seed %d %s round %d: location %d, condition %v: CondStamps %+v, its own stamper %+v", seed, dom.Name(), round, l.ID, conds[i], got[i], want)
						}
						compared++
					}
				}
				if err := s.Solve(context.Background()); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	t.Logf("%d stamps compared", compared)
}
