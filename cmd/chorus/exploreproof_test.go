package main

import (
	"io"
	"path/filepath"
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
