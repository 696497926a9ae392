package dfg

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"chorus/cfg"
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

// Hubs that get new sources after a Solve (ExtendHub, as the
// flow-insensitive game's later writers of a cell) must pass the join
// over all their sources from the next Solve on: random programs get hubs
// and then batches of new sources for them, with a Solve after each
// batch, and the final invariants must be a post-fixpoint of the final
// graph's equations evaluated afresh (no cached post, partial join or
// incremental evaluation kept). A hub whose cached join survived its
// growth would pass on the old sources' join alone, below what the new
// sources write: a target short of a value another thread writes.
func TestExtendHubIsPostFixpoint(t *testing.T) {
	grown := 0
	for seed := int64(1); seed <= 40; seed++ {
		p := genProgramN(seed, 60)
		r := rand.New(rand.NewPCG(uint64(seed), 7))
		for _, dom := range bothDomains {
			part := NewPartition(p, seed%2 == 0)
			g := New(p, part)
			s := NewSolver(g, dom)
			if err := s.Solve(context.Background()); err != nil {
				t.Fatal(err)
			}
			locs := p.Locs
			randSrcs := func() []*cfg.Loc {
				var srcs []*cfg.Loc
				for range 1 + r.IntN(6) {
					srcs = append(srcs, locs[r.IntN(len(locs))])
				}
				return srcs
			}
			var hubs []*cfg.Loc
			var first []int // by hub: its number of sources when made
			for range 4 {
				dst := locs[r.IntN(len(locs))]
				cells := g.In(dst)
				if len(cells) == 0 {
					continue
				}
				c := cells[r.IntN(len(cells))]
				if part.cells[c].Owner != nil {
					continue
				}
				dsts := []*cfg.Loc{dst, locs[r.IntN(len(locs))], locs[r.IntN(len(locs))]}
				if h, _ := g.NewHub(randSrcs(), c, dsts); h != nil {
					hubs = append(hubs, h)
					first = append(first, len(g.HubSources(h)))
				}
			}
			if err := s.Solve(context.Background()); err != nil {
				t.Fatal(err)
			}
			for range 4 {
				for _, h := range hubs {
					if r.IntN(3) > 0 {
						grown += g.ExtendHub(h, randSrcs())
					}
				}
				if err := s.Solve(context.Background()); err != nil {
					t.Fatal(err)
				}
			}
			// Afresh: every post, hub join and edge index recomputed.
			s.posts = make([]*post, len(s.posts))
			s.hubTrees, s.idx = nil, nil
			clear(s.last)
			for _, l := range locs {
				if !s.eval(l).leq(s.state(int32(l.ID))) {
					t.Fatalf("seed %d %s: location %d is not a post-fixpoint", seed, dom.Name(), l.ID)
				}
			}
			// ExtendHub adds a location the hub has as a source no more.
			for i, h := range hubs {
				srcs := g.HubSources(h)
				for k := first[i]; k < len(srcs); k++ {
					if k2 := slices.Index(srcs, srcs[k]); k2 != k {
						t.Fatalf("seed %d: hub %d lists source %d twice", seed, i, srcs[k].ID)
					}
				}
			}
		}
	}
	if grown == 0 {
		t.Fatal("no hub grew: the test does not exercise ExtendHub")
	}
	t.Logf("%d sources added to hubs", grown)
}

// TestHubsInAFreshSolveArePostFixpoint: hubs made before the first Solve
// (no incremental verification behind it), and the invariants of that one
// Solve must be a post-fixpoint of the equations evaluated afresh. The
// edges into a hub carry no value but place it among its sources'
// successors: a hub without them is never pushed when a source changes,
// and its targets keep the join of the sources' first values.
func TestHubsInAFreshSolveArePostFixpoint(t *testing.T) {
	hubs := 0
	for seed := int64(1); seed <= 40; seed++ {
		p := genProgramN(seed, 60)
		r := rand.New(rand.NewPCG(uint64(seed), 11))
		for _, dom := range bothDomains {
			part := NewPartition(p, seed%2 == 0)
			g := New(p, part)
			locs := p.Locs
			for range 6 {
				dst := locs[r.IntN(len(locs))]
				cells := g.In(dst)
				if len(cells) == 0 {
					continue
				}
				c := cells[r.IntN(len(cells))]
				if part.cells[c].Owner != nil {
					continue
				}
				var srcs []*cfg.Loc
				for range 1 + r.IntN(6) {
					srcs = append(srcs, locs[r.IntN(len(locs))])
				}
				if h, _ := g.NewHub(srcs, c, []*cfg.Loc{dst, locs[r.IntN(len(locs))]}); h != nil {
					hubs++
				}
			}
			s := NewSolver(g, dom)
			if err := s.Solve(context.Background()); err != nil {
				t.Fatal(err)
			}
			s.posts = make([]*post, len(s.posts))
			s.hubTrees, s.idx = nil, nil
			clear(s.last)
			for _, l := range locs {
				if !s.eval(l).leq(s.state(int32(l.ID))) {
					t.Fatalf("seed %d %s: location %d is not a post-fixpoint", seed, dom.Name(), l.ID)
				}
			}
		}
	}
	if hubs == 0 {
		t.Fatal("no hub made")
	}
	t.Logf("%d hubs", hubs)
}
