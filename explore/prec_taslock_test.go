package explore

import (
	"os"
	"path/filepath"
	"testing"

	"chorus/cfg"
)

// TestTASRewriteKeepsFailures: the test-and-set rewrite (cfg/taslock.go)
// keeps the executions that matter: for its fixtures, the exhaustive
// search (two instances per template, so two threads contend for the
// lock) sees exactly the same checks fail with and without the rewrite
// (Options.NoAtomicLocks). Both searches must complete.
func TestTASRewriteKeepsFailures(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "check", "prec_tas_lock*.c"))
	if len(files) < 4 {
		t.Fatalf("want the prec_tas_lock fixtures, found %v", files)
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var got [2]map[int]bool
		rewrote := false
		for i, no := range []bool{false, true} {
			p, err := cfg.Build(f, src, cfg.Options{DataModel: cfg.LP64, NoAtomicLocks: no})
			if err != nil {
				t.Fatal(err)
			}
			if err := cfg.Sanity(p); err != nil {
				t.Fatalf("%s: sanity: %v", f, err)
			}
			if !no {
				for _, l := range p.Locs {
					if _, ok := l.Act.(*cfg.Acquire); ok {
						rewrote = true
					}
				}
			}
			res, err := Explore(p, Options{MaxInstances: 2, MaxStates: 400000})
			if err != nil {
				t.Fatal(err)
			}
			if !res.Complete {
				t.Fatalf("%s (NoAtomicLocks %v): search incomplete", f, no)
			}
			got[i] = failingLines(res)
		}
		if len(got[0]) != len(got[1]) {
			t.Errorf("%s: failing check lines %v with the rewrite, %v without", f, got[0], got[1])
			continue
		}
		for l := range got[0] {
			if !got[1][l] {
				t.Errorf("%s: failing check lines %v with the rewrite, %v without", f, got[0], got[1])
				break
			}
		}
		t.Logf("%s: rewritten %v, failing lines %v", filepath.Base(f), rewrote, got[0])
	}
}
