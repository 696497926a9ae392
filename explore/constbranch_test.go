package explore

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"chorus/cfg"
)

// TestConstBranchPruningKeepsExecutions: the frontend's removal of edges
// x := c -> assume refuted by x == c (cfg/constbranch.go) removes no
// execution. For its fixtures the exhaustive search (two instances per
// template, inputs -1..11 so that indexes reach 10) finds, with and
// without the pruning (Options.NoConstBranches), the same views at every
// location and the same failing checks; the pruning must cut some edge
// (the fixtures have the shape), except in prec_constbranch_global.c,
// whose flag is a global. The mutation UnsoundConstBranches (casts
// evaluated without wrapping) loses the failure of
// prec_constbranch_cast.c.
func TestConstBranchPruningKeepsExecutions(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "check", "prec_constbranch*.c"))
	if len(files) < 2 {
		t.Fatalf("want the prec_constbranch fixtures, found %v", files)
	}
	explore := func(f string, src []byte, o cfg.Options) (*Result, *cfg.Program) {
		t.Helper()
		o.DataModel = cfg.LP64
		p, err := cfg.Build(f, src, o)
		if err != nil {
			t.Fatal(err)
		}
		if err := cfg.Sanity(p); err != nil {
			t.Fatalf("%s: sanity: %v", f, err)
		}
		res, err := Explore(p, Options{MaxInstances: 2, MaxStates: 400000, HavocMin: -1, HavocMax: 11})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Complete {
			t.Fatalf("%s %+v: search incomplete", f, o)
		}
		return res, p
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		on, pOn := explore(f, src, cfg.Options{})
		off, pOff := explore(f, src, cfg.Options{NoConstBranches: true})
		if edges(pOn) >= edges(pOff) && filepath.Base(f) != "prec_constbranch_global.c" {
			t.Errorf("%s: the pruning cut no edge (%d edges, %d without it)", f, edges(pOn), edges(pOff))
		}
		if a, b := lines(failingLines(on)), lines(failingLines(off)); a != b {
			t.Errorf("%s: failing check lines %s with the pruning, %s without", f, a, b)
		}
		if len(on.Views) != len(off.Views) {
			t.Fatalf("%s: %d locations with the pruning, %d without", f, len(on.Views), len(off.Views))
		}
		for id := range on.Views {
			if a, b := viewSet(on.Views[id]), viewSet(off.Views[id]); a != b {
				t.Errorf("%s: L%d: views %s with the pruning, %s without", f, id, a, b)
			}
		}
		if filepath.Base(f) == "prec_constbranch_cast.c" {
			mut, _ := explore(f, src, cfg.Options{UnsoundConstBranches: true})
			if a, b := lines(failingLines(mut)), lines(failingLines(off)); a == b {
				t.Errorf("%s: the mutation kept the failing lines %s", f, a)
			}
			if len(failingLines(off)) == 0 {
				t.Errorf("%s: no failing check without the pruning", f)
			}
		}
	}
}

func edges(p *cfg.Program) int {
	n := 0
	for _, l := range p.Locs {
		n += len(l.Succs)
	}
	return n
}

func lines(m map[int]bool) string {
	var out []int
	for l := range m {
		out = append(out, l)
	}
	sort.Ints(out)
	return fmt.Sprint(out)
}

func viewSet(vs []View) string {
	var out []string
	for _, v := range vs {
		out = append(out, fmt.Sprint(v.Values))
	}
	sort.Strings(out)
	return fmt.Sprint(out)
}
