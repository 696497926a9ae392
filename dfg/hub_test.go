package dfg

import (
	"math/rand/v2"
	"testing"

	"chorus/domains"
)

// The tree of partial joins of a hub gives the join of its leaves after
// any sequence of leaf changes (nil: ⊥), for sizes that are and are not
// powers of two: a path left stale would pass on a value below the join,
// an unsound invariant at every target.
func TestHubTreeIsTheJoin(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 2, 3, 5, 8, 13, 64, 100} {
		leaves := make([]domains.Value, n)
		randLeaf := func() domains.Value {
			if rng.IntN(4) == 0 {
				return nil
			}
			lo := rng.Int64N(100) - 50
			return domains.NewIntervalValue([]domains.Interval{domains.NewInterval(lo, lo+rng.Int64N(20))})
		}
		for k := range leaves {
			leaves[k] = randLeaf()
		}
		tr := newHubTree(n)
		read := 0
		get := func(k int) domains.Value { read++; return leaves[k] }
		for step := range 200 {
			read = 0
			got := tr.root(get)
			var want domains.Value
			for _, v := range leaves {
				want = joinOpt(want, v)
			}
			if (got == nil) != (want == nil) || got != nil && !got.Equal(want) {
				t.Fatalf("n=%d step %d: tree %v, join %v", n, step, got, want)
			}
			if step > 0 && read > 3 {
				t.Fatalf("n=%d step %d: read %d leaves, changed at most 3", n, step, read)
			}
			for range rng.IntN(4) {
				k := rng.IntN(n)
				leaves[k] = randLeaf()
				tr.dirty(int32(k))
			}
		}
	}
}
