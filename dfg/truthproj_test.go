package dfg

import (
	"context"
	"math/rand"
	"testing"

	"chorus/cfg"
	"chorus/domains"
)

// The projection key (projMemo) must determine valueTruth: every
// condition asked at every location, over rounds of incremental Solves
// that add edges (new value objects, many with the same projection), with
// Age between rounds, the answer looked up by projection must be the one
// evaluated on the state itself. Interval domain (the only one the key
// serves; octagons must never take the path, checked below).
func TestTruthProjectionKeyDeterminesAnswer(t *testing.T) {
	asked, projHits := 0, 0
	for seed := int64(1); seed <= 40; seed++ {
		p := genProgramN(seed, 50)
		conds := conditionsOf(p)
		r := rand.New(rand.NewSource(seed))
		for _, dom := range bothDomains {
			part := NewPartition(p, seed%2 == 0)
			g := New(p, part)
			s := NewSolver(g, dom)
			memo := s.NewTruthMemo()
			for round := range 4 {
				if round > 0 {
					addRandomEdges(g, part, r, 5)
				}
				if err := s.Solve(context.Background()); err != nil {
					t.Fatal(err)
				}
				memo.Age()
				for _, i := range r.Perm(len(p.Locs) * len(conds)) {
					l, c := p.Locs[i/len(conds)], conds[i%len(conds)]
					st := s.At(l)
					if st.IsBottom() {
						continue
					}
					var vars []*cfg.Var
					var cells []CellID
					for _, v := range exprVars(vars, c) {
						cells = append(cells, part.CellOf(v))
					}
					cells = sortedSet(cells)
					before := memo.ProjHits
					got, want := memo.projTruth(st, c, cells), st.valueTruth(c)
					if got != want {
						t.Fatalf("seed %d %s round %d: location %d, condition %v: by projection %v, evaluated %v", seed, dom.Name(), round, l.ID, c, got, want)
					}
					if memo.ProjHits > before {
						if dom != domains.Intervals {
							t.Fatalf("seed %d %s: a projection hit outside the interval domain", seed, dom.Name())
						}
						projHits++
					}
					asked++
				}
			}
		}
	}
	if projHits == 0 || projHits == asked {
		t.Fatalf("%d of %d answers by projection: the test does not exercise both paths", projHits, asked)
	}
	t.Logf("%d of %d answers by projection", projHits, asked)
}
