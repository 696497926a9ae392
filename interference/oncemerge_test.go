package interference

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"chorus/cfg"
)

// groupedMergeOnceFacts is mergeOnceFacts as it was first written: the
// facts collected per group (same obs and wrote, in order of first
// appearance), then each group merged by mergeAllOnce.
func groupedMergeOnceFacts(fs []onceFact) []onceFact {
	var groups [][]onceFact
	for _, f := range fs {
		i := slices.IndexFunc(groups, func(g []onceFact) bool {
			return g[0].obs == f.obs && slices.Equal(g[0].wrote, f.wrote)
		})
		if i < 0 {
			i = len(groups)
			groups = append(groups, nil)
		}
		groups[i] = append(groups[i], f)
	}
	if len(groups) < len(fs) && len(groups) <= maxPathFacts/2 {
		var out []onceFact
		for _, g := range groups {
			out = append(out, mergeAllOnce(g))
		}
		return out
	}
	return []onceFact{mergeAllOnce(fs)}
}

// TestMergeOnceFactsAsGroups: the merge that folds each group as it fills
// gives the facts of the grouping computation, in the same order, on
// random fact lists of the sizes pathFacts merges (maxPathFacts+1) and
// others, with few distinct (obs, wrote) so that every branch is taken
// (4 groups or fewer, more than 4, no two facts alike). A different
// fold (another order of Meet, a lost loaded bit, a shared wrote that
// a later merge changes) makes the facts differ.
func TestMergeOnceFactsAsGroups(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	randEnv := func() cfg.FlagEnv {
		var env cfg.FlagEnv
		for v := range 4 {
			if rng.IntN(3) > 0 {
				env = env.With(v, int64(rng.IntN(3)))
			}
		}
		return env
	}
	branches := map[string]int{}
	for iter := range 20000 {
		n := 1 + rng.IntN(maxPathFacts+2)
		if iter%2 == 0 {
			n = maxPathFacts + 1
		}
		words := 1 + rng.IntN(2)
		kinds := 1 + rng.IntN(8) // distinct wrote values to draw from
		var fs []onceFact
		for range n {
			w := newBitset(64 * words)
			k := rng.IntN(kinds)
			for b := 0; b < 3; b++ {
				if k&(1<<b) != 0 {
					w.set(b * 40 % (64 * words))
				}
			}
			fs = append(fs, onceFact{obs: rng.IntN(4) > 0, wrote: w, env: randEnv(), loaded: rng.Uint64() | uint64(rng.IntN(2))})
		}
		before := cloneFacts(fs)
		want := groupedMergeOnceFacts(cloneFacts(fs))
		got := mergeOnceFacts(fs)
		if !reflect.DeepEqual(fs, before) {
			t.Fatalf("mergeOnceFacts changed its input")
		}
		if !factsEqual(got, want) {
			t.Fatalf("facts %v:\n got  %v\n want %v", fs, got, want)
		}
		switch {
		case len(want) == 1:
			branches["one"]++
		default:
			branches["groups"]++
		}
		// The results must not share wrote with the input: pathFacts
		// keeps both.
		for _, g := range got {
			for _, f := range fs {
				if len(g.wrote) > 0 && &g.wrote[0] == &f.wrote[0] {
					t.Fatalf("merged fact shares wrote with an input fact")
				}
			}
		}
	}
	if branches["one"] == 0 || branches["groups"] == 0 {
		t.Fatalf("branches not all taken: %v", branches)
	}
}

func cloneFacts(fs []onceFact) []onceFact {
	out := make([]onceFact, len(fs))
	for i, f := range fs {
		out[i] = onceFact{obs: f.obs, wrote: append(bitset(nil), f.wrote...), env: append(cfg.FlagEnv(nil), f.env...), loaded: f.loaded}
	}
	return out
}

func factsEqual(a, b []onceFact) bool {
	return slices.EqualFunc(a, b, func(f, g onceFact) bool {
		return f.obs == g.obs && f.loaded == g.loaded && slices.Equal(f.wrote, g.wrote) && slices.Equal(f.env, g.env)
	})
}
