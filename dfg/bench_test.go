package dfg

import (
	"context"
	"testing"
)

// BenchmarkSolve measures graph construction plus a from-scratch solve on
// a generated single-threaded program of about 3000 statements.
func BenchmarkSolve(b *testing.B) {
	p := genProgramN(42, 3000)
	for _, dom := range bothDomains {
		for _, rel := range []bool{false, true} {
			name := dom.Name()
			if rel {
				name += "-relational"
			}
			b.Run(name, func(b *testing.B) {
				for range b.N {
					g := New(p, NewPartition(p, rel))
					s := NewSolver(g, dom)
					if err := s.Solve(context.Background()); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(len(p.Locs)), "locs")
			})
		}
	}
}
