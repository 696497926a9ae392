package main

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"chorus/cfg"
	"chorus/confirm"
)

// disputedLabel is a row of testdata/disputed_labels.tsv: a corpus label
// shown to be wrong, with the argument.
type disputedLabel struct {
	corpus, file     string
	line             int
	manifest, actual string
	why              string
}

func readDisputedLabels(t *testing.T) []disputedLabel {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "disputed_labels.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []disputedLabel
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		text := sc.Text()
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		cols := strings.Split(text, "\t")
		if len(cols) != 6 {
			t.Fatalf("disputed_labels.tsv: want 6 columns, got %q", text)
		}
		line, err := strconv.Atoi(cols[2])
		if err != nil {
			t.Fatalf("disputed_labels.tsv: bad line %q", cols[2])
		}
		out = append(out, disputedLabel{corpus: cols[0], file: cols[1], line: line, manifest: cols[3], actual: cols[4], why: cols[5]})
	}
	return out
}

// goblintDisputed returns the disputed Goblint rows by file and line.
func goblintDisputed(t *testing.T) map[string]map[int]disputedLabel {
	out := map[string]map[int]disputedLabel{}
	for _, d := range readDisputedLabels(t) {
		if d.corpus != "goblint" {
			continue
		}
		if out[d.file] == nil {
			out[d.file] = map[int]disputedLabel{}
		}
		out[d.file][d.line] = d
	}
	return out
}

// TestDisputedLabels keeps the list of disputed corpus labels honest:
// each row must still be in the manifest with the disputed label (once
// the manifest is fixed, the row must go), and each dispute is re-checked
// without the analysis: an exact exhaustive exploration (confirm.Prove:
// every state of every interleaving, no input, no bounded spawn) must
// prove an assertion disputed as true.
func TestDisputedLabels(t *testing.T) {
	root := corpusRoot(t)
	rows := readGoblintManifest(t, root)
	for _, d := range readDisputedLabels(t) {
		if d.corpus != "goblint" {
			t.Errorf("disputed label for unknown corpus %q", d.corpus)
			continue
		}
		found := false
		for _, r := range rows {
			if r.file == d.file && r.line == d.line {
				found = true
				if r.expect != d.manifest {
					t.Errorf("%s:%d: the manifest now says %q (disputed: %q): drop the row from testdata/disputed_labels.tsv", d.file, d.line, r.expect, d.manifest)
				}
			}
		}
		if !found {
			t.Errorf("%s:%d: not in the manifest: drop the row from testdata/disputed_labels.tsv", d.file, d.line)
			continue
		}
		if d.actual != "true" {
			t.Errorf("%s:%d: only disputes to \"true\" are re-checked", d.file, d.line)
			continue
		}
		path := filepath.Join(root, "goblint", "programs", d.file)
		p, err := cfg.BuildFile(path, cfg.Options{DataModel: cfg.LP64})
		if err != nil {
			t.Fatal(err)
		}
		var at []*cfg.Check
		for _, c := range p.Checks {
			if c.Kind == cfg.AssertCheck && c.Pos.Line == d.line {
				at = append(at, c)
			}
		}
		if len(at) == 0 {
			t.Errorf("%s:%d: no assertion there", d.file, d.line)
			continue
		}
		proof, err := confirm.Prove(p, at, []cfg.CheckKind{cfg.AssertCheck}, confirm.ProofBudget{MaxStates: 1_000_000, Timeout: 5 * time.Minute})
		if err != nil {
			t.Errorf("%s:%d: the dispute is not re-proved: %v", d.file, d.line, err)
			continue
		}
		if len(proof.Proven) != len(at) {
			t.Errorf("%s:%d: exploration finds the assertion failing (%d of %d sites proven): the manifest's %q stands", d.file, d.line, len(proof.Proven), len(at), d.manifest)
		}
	}
}
