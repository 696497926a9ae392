package explore

import (
	"os"
	"testing"

	"chorus/cfg"
)

// BenchmarkExploreCounter measures states per second on the lost-update
// program (run with -bench; timings are not asserted anywhere).
func BenchmarkExploreCounter(b *testing.B) {
	p, _, _ := counter(false)
	states := 0
	for b.Loop() {
		res, err := Explore(p, Options{})
		if err != nil {
			b.Fatal(err)
		}
		states += res.States
	}
	b.ReportMetric(float64(states)/b.Elapsed().Seconds(), "states/s")
}

// BenchmarkExploreAppendixA explores DESIGN.md's Appendix A program
// (testdata/check/appendix_a.c) with two instances per template.
func BenchmarkExploreAppendixA(b *testing.B) {
	p := buildBench(b, "../testdata/check/appendix_a.c")
	states := 0
	for b.Loop() {
		res, err := Explore(p, Options{MaxInstances: 2, HavocMin: 0, HavocMax: 1, MaxStates: 50_000})
		if err != nil {
			b.Fatal(err)
		}
		states += res.States
	}
	b.ReportMetric(float64(states)/b.Elapsed().Seconds(), "states/s")
}

func buildBench(b *testing.B, path string) *cfg.Program {
	src, err := os.ReadFile(path)
	if err != nil {
		b.Skip(err)
	}
	p, err := cfg.Build(path, src, cfg.Options{})
	if err != nil {
		b.Fatal(err)
	}
	return p
}
