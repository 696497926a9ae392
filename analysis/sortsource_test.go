package analysis

import (
	"context"
	"math/rand"
	"path/filepath"
	"slices"
	"sort"
	"testing"

	"chorus/cfg"
	"chorus/dfg"
)

// sortBySource orders edges by source location ID, stably (the edges of
// one source keep their order), by sorting the keys (source, position) as
// integers: the reference for interferenceInto's counting sort.
func sortBySource(out []dfg.Edge) []dfg.Edge {
	if len(out) < 2 {
		return out
	}
	keys := make([]uint64, len(out))
	for i, e := range out {
		keys[i] = uint64(uint32(e.Src.ID))<<32 | uint64(uint32(i))
	}
	slices.Sort(keys)
	sorted := make([]dfg.Edge, len(out))
	for j, k := range keys {
		sorted[j] = out[uint32(k)]
	}
	return sorted
}

// interferenceIntoSorted is interferenceInto the plain way: collect the
// edges in the order found, then sort them by source, stably.
func interferenceIntoSorted(g *dfg.Graph, loc *cfg.Loc) []dfg.Edge {
	var out []dfg.Edge
	walkInterferenceInto(g, loc, func(e dfg.Edge) { out = append(out, e) })
	return sortBySource(out)
}

// sortBySource orders the edges as sort.SliceStable by source ID did:
// random lists with many edges per source, compared edge by edge (the
// destinations tell edges of one source apart).
func TestSortBySourceIsStable(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	locs := make([]*cfg.Loc, 40)
	for i := range locs {
		locs[i] = &cfg.Loc{ID: rng.Intn(1 << 20)}
	}
	for n := range 300 {
		out := make([]dfg.Edge, n)
		for i := range out {
			out[i] = dfg.Edge{Src: locs[rng.Intn(1+n%len(locs))], Dst: locs[rng.Intn(len(locs))], Cell: dfg.CellID(i)}
		}
		want := slices.Clone(out)
		sort.SliceStable(want, func(i, j int) bool { return want[i].Src.ID < want[j].Src.ID })
		got := sortBySource(slices.Clone(out))
		if !slices.Equal(got, want) {
			t.Fatalf("n=%d: sortBySource differs from sort.SliceStable", n)
		}
	}
}

// interferenceInto (two walks, a counting sort) lists exactly the edges,
// in exactly the order, of collecting and sorting them stably by source:
// at every location of every fixture, with hubs for every block of edges
// (so that expanded hub edges take part) and without hubs.
func TestInterferenceIntoOrder(t *testing.T) {
	files, _ := filepath.Glob("../testdata/check/*.c")
	if len(files) < 10 {
		t.Fatalf("only %d fixtures", len(files))
	}
	nonEmpty, multi := 0, 0
	for _, f := range files {
		for _, opt := range []Option{WithEveryHub(), WithHubs(false)} {
			p, err := cfg.BuildFile(f, cfg.Options{})
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			r, err := Analyze(context.Background(), p, opt, WithDomain("octagon"))
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			for _, l := range p.Locs {
				got, want := interferenceInto(r.Graph, l), interferenceIntoSorted(r.Graph, l)
				if !slices.Equal(got, want) {
					t.Fatalf("%s at %v: interferenceInto\n%v\nwant\n%v", filepath.Base(f), l.Pos, got, want)
				}
				if len(got) > 0 {
					nonEmpty++
				}
				if len(got) > 1 && got[0].Src != got[len(got)-1].Src {
					multi++
				}
			}
		}
	}
	if nonEmpty == 0 || multi == 0 {
		t.Fatalf("nothing compared: %d non-empty lists, %d with several sources", nonEmpty, multi)
	}
	t.Logf("%d non-empty lists, %d with several sources", nonEmpty, multi)
}
