package main

import (
	"context"
	"io"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"chorus/analysis"
	"chorus/cfg"
	"chorus/report"
)

// The exploration proof is on by default (also for options built without
// the flag parser, as the corpus tests build them), reported in the
// check's proof field, and off with --explore-proof-states 0.
func TestExploreProofFlag(t *testing.T) {
	path := filepath.Join(fixtureDir, "prove_peterson.c")
	for _, tc := range []struct {
		args   []string
		proven bool
	}{
		{nil, true},
		{[]string{"--explore-proof-states", "0"}, false},
		{[]string{"--explore-proof-states", "5"}, false}, // too few states to finish
	} {
		o, err := parseCheckArgs(append(append([]string{"--checks", "assert"}, tc.args...), path), io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		out := checkFile(o, path)
		if out.err != nil {
			t.Fatal(out.err)
		}
		f := toReport(out)
		for i, c := range out.res.Checks {
			if got := c.Status == analysis.Proven; got != tc.proven {
				t.Errorf("%v: check at line %d proven %v, want %v", tc.args, c.Check.Pos.Line, got, tc.proven)
			}
			rc := f.Checks[i]
			if tc.proven != strings.HasPrefix(rc.Proof, "exploration: ") || tc.proven != (rc.Status == report.Proven) {
				t.Errorf("%v: report status %q proof %q", tc.args, rc.Status, rc.Proof)
			}
		}
	}
	// Options built without the parser (the corpus tests) get the default.
	o := &checkOptions{domain: "interval", maxRounds: 200, kinds: []cfg.CheckKind{cfg.AssertCheck}}
	out := checkFile(o, path)
	if out.err != nil || !out.res.Safe() {
		t.Fatalf("zero options: %v, safe %v", out.err, out.err == nil && out.res.Safe())
	}
}

// The exploration proof and --confirm explore the analysed program with
// its actions as lowered put back (loweredActions) instead of a second
// lowering: that program must be the one a fresh lowering gives, deeply
// (every location, action, variable, object and check), on every
// fixture and SV-COMP task, and putting the analysis's actions back must
// give the analysed program again. Would catch an analysis that changes
// the program in a way other than replacing actions (a new location, an
// edited successor list, a changed variable or cell set), which the
// exploration would then run instead of the C program.
func TestLoweredActionsRestoreProgram(t *testing.T) {
	rewritten := 0 // programs the analysis changed (the comparison can fail)
	try := func(t *testing.T, path string, flags []string) {
		t.Helper()
		o, err := parseCheckArgs(append(append([]string{}, flags...), path), io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		u := o.unitOf(path)
		opts, err := frontendOptions(o, u)
		if err != nil {
			t.Fatal(err)
		}
		fresh, err := buildUnit(o, u, opts)
		if err != nil {
			t.Fatal(err)
		}
		p, err := buildUnit(o, u, opts)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(fresh, p) {
			t.Fatalf("%s: two lowerings differ: the comparison cannot work", path)
		}
		kept := keepLoweredActions(p)
		if _, err := analysis.Analyze(context.Background(), p, analysis.WithDomain(o.domain), analysis.WithChecks(o.kinds...), analysis.WithMaxRounds(o.maxRounds)); err != nil {
			t.Fatal(err)
		}
		analysed := make([]cfg.Action, len(p.Locs))
		for i, l := range p.Locs {
			analysed[i] = l.Act
		}
		if !reflect.DeepEqual(fresh, p) {
			rewritten++
		}
		got, err := kept.asLowered()
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(fresh, got) {
			t.Errorf("%s %q: the analysed program with its lowered actions differs from a fresh lowering", path, flags)
		}
		kept.asAnalysed()
		for i, l := range p.Locs {
			if l.Act != analysed[i] {
				t.Errorf("%s: location %v has not its analysed action back", path, l)
				break
			}
		}
	}
	paths, _ := filepath.Glob(filepath.Join(fixtureDir, "*.c"))
	for _, path := range paths {
		fx, err := readFixture(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, flags := range fx.flagSets {
			try(t, path, flags)
		}
	}
	t.Run("svcomp", func(t *testing.T) {
		root := corpusRoot(t)
		for _, tk := range readManifest(t, root) {
			try(t, filepath.Join(root, "svcomp", tk.dir, tk.input), []string{"--checks", "assert", "--data-model", tk.dataModel, "--domain", "octagon"})
		}
	})
	if rewritten == 0 {
		t.Error("the analysis rewrote no program: the comparison was never put to the test")
	}
}
