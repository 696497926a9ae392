package dfg

import (
	"context"
	"testing"

	"chorus/cfg"
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

// BenchmarkIncrementalHubs measures incremental solves after blocks of
// interference-like edges through hubs (many sources, many targets, one
// cell each), the shape of large programs' later rounds: the work should
// follow what changed, not the in-degree of the targets.
func BenchmarkIncrementalHubs(b *testing.B) {
	p := genProgramN(7, 1500)
	locs := p.Locs
	for _, dom := range bothDomains {
		b.Run(dom.Name(), func(b *testing.B) {
			for range b.N {
				part := NewPartition(p, false)
				g := New(p, part)
				s := NewSolver(g, dom)
				if err := s.Solve(context.Background()); err != nil {
					b.Fatal(err)
				}
				for k := range 4 {
					for j := range 20 {
						dst := locs[(k*131+j*17)%len(locs)]
						cells := g.In(dst)
						if len(cells) == 0 {
							continue
						}
						var srcs, dsts []*cfg.Loc
						for i := range 60 {
							srcs = append(srcs, locs[(i*37+j*101+k)%len(locs)])
							dsts = append(dsts, locs[(i*53+j*7+k*3)%len(locs)])
						}
						g.AddHub(srcs, cells[0], append(dsts, dst))
					}
					if err := s.Solve(context.Background()); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(s.Stats().EdgeVisits), "edge-visits")
			}
		})
	}
}
