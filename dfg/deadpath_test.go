package dfg

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"chorus/cfg"
)

// deadPathsPerEdge is DeadPaths as one walk per query (the definition the
// memoized walks must agree with).
func deadPathsPerEdge(g *Graph, dead []bool) func(src, dst *cfg.Loc, c CellID) bool {
	has := map[*cfg.Template]bool{}
	for id, d := range dead {
		if d {
			has[g.prog.Locs[id].Template] = true
		}
	}
	return func(src, dst *cfg.Loc, c CellID) bool {
		t := dst.Template
		if !has[t] || t == nil || t.Entry == nil {
			return false
		}
		seen := map[*cfg.Loc]bool{}
		var work []*cfg.Loc
		push := func(l *cfg.Loc) {
			if l.Template == t && !seen[l] {
				seen[l] = true
				work = append(work, l)
			}
		}
		if src.Template == t {
			if dead[src.ID] {
				return true
			}
			for _, s := range src.Succs {
				push(s)
			}
		} else {
			push(t.Entry)
		}
		for len(work) > 0 {
			l := work[len(work)-1]
			work = work[:len(work)-1]
			if l == dst {
				return false
			}
			if dead[l.ID] || g.gens(l, c) {
				continue
			}
			for _, s := range l.Succs {
				push(s)
			}
		}
		return true
	}
}

// TestDeadPathsMemoAgrees asks the memoized DeadPaths and the walk per
// query the same questions, in a random order (so that walks are resumed
// at every depth), for random dead sets on real programs: every source
// that defines a cell, every destination, every cell it defines. A memo
// that answered from a stale or wrong walk would drop an edge the walk per
// query keeps (a wrong proven) or keep one it drops.
func TestDeadPathsMemoAgrees(t *testing.T) {
	files := []string{
		filepath.Join("..", "testdata", "check", "prec_owned_busy.c"),
		filepath.Join("..", "testdata", "check", "prec_owned_once.c"),
		filepath.Join("..", "..", "shared", "corpus", "ddverify", "toshiba.c"), // the corpus beside the repository
	}
	for _, f := range files {
		opts := cfg.Options{}
		if filepath.Base(f) == "toshiba.c" {
			opts.DataModel = cfg.ILP32
		}
		if _, err := os.Stat(f); err != nil && filepath.Base(f) == "toshiba.c" {
			t.Logf("%s absent: corpus case skipped", f)
			continue
		}
		p, err := cfg.BuildFile(f, opts)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		g := New(p, NewPartition(p, false))
		rng := rand.New(rand.NewPCG(1, uint64(len(p.Locs))))
		type query struct {
			src, dst *cfg.Loc
			c        CellID
		}
		for round := range 3 {
			dead := make([]bool, len(p.Locs))
			for i := range dead {
				dead[i] = rng.IntN(40) == 0
			}
			dead[p.Templates[0].Locs[rng.IntN(len(p.Templates[0].Locs))].ID] = true
			var qs []query
			for _, src := range p.Locs {
				for _, c := range g.gen[src.ID] {
					for _, dst := range p.Locs {
						if rng.IntN(40) == 0 || len(p.Locs) < 400 {
							qs = append(qs, query{src, dst, c})
						}
					}
				}
			}
			rng.Shuffle(len(qs), func(i, j int) { qs[i], qs[j] = qs[j], qs[i] })
			memo, ref := g.DeadPaths(dead), deadPathsPerEdge(g, dead)
			if memo == nil {
				t.Fatalf("%s: DeadPaths nil for a non-empty dead set", f)
			}
			dropped := 0
			for _, q := range qs {
				got, want := memo(q.src, q.dst, q.c), ref(q.src, q.dst, q.c)
				if got != want {
					t.Fatalf("%s round %d: %d —%d→ %d: memoized %v, per query %v", f, round, q.src.ID, q.c, q.dst.ID, got, want)
				}
				if got {
					dropped++
				}
			}
			if dropped == 0 || dropped == len(qs) {
				t.Errorf("%s round %d: %d of %d queries dropped: the comparison says nothing", f, round, dropped, len(qs))
			}
		}
	}
}

// TestDeadPathsNilWithoutDead: no dead location, no predicate.
func TestDeadPathsNilWithoutDead(t *testing.T) {
	p, err := cfg.BuildFile(filepath.Join("..", "testdata", "check", "prec_owned_once.c"), cfg.Options{})
	if err != nil {
		t.Fatal(err)
	}
	g := New(p, NewPartition(p, false))
	if g.DeadPaths(make([]bool, len(p.Locs))) != nil {
		t.Error("DeadPaths with no dead location: want nil")
	}
}
