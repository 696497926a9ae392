package analysis

import (
	"math/rand"
	"slices"
	"sort"
	"testing"

	"chorus/cfg"
	"chorus/dfg"
)

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
