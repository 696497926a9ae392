package sarif

import (
	"bytes"
	"strings"
	"testing"

	gosarif "github.com/owenrumney/go-sarif/v2/sarif"

	"chorus/report"
)

func sample(version string, files ...string) []byte {
	var fs []report.File
	for _, f := range files {
		rf := report.File{File: f, Verdict: "unknown", Checks: []report.Check{
			{Kind: report.KindBounds, File: f, Line: 3, Column: 2, Function: "main", Status: report.Unproven,
				Condition: "index a[i] out of bounds", Message: "index a[i] out of bounds not proven (i in [0, 10])", Invariant: "i in [0, 10]"},
		}}
		report.Fingerprints(&rf)
		fs = append(fs, rf)
	}
	var b bytes.Buffer
	Write(&b, Build(fs, Options{Version: version}))
	return b.Bytes()
}

func TestMergeAndFingerprints(t *testing.T) {
	a, err := Read(sample("v1", "a.c"))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Read(sample("v1", "b.c"))
	m, err := Merge([]*gosarif.Report{b, a})
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	Write(&got, m)
	if want := sample("v1", "a.c", "b.c"); !bytes.Equal(got.Bytes(), want) {
		t.Errorf("merge differs from one run:\n%s\n---\n%s", got.Bytes(), want)
	}
	if fps := Fingerprints(m); len(fps) != 2 {
		t.Errorf("fingerprints %v", fps)
	}
	c, _ := Read(sample("v2", "c.c"))
	if _, err := Merge([]*gosarif.Report{a, c}); err == nil || !strings.Contains(err.Error(), "versions") {
		t.Errorf("merging two versions: %v", err)
	}
	if _, err := Read([]byte(`{"version":"2.0.0","runs":[]}`)); err == nil {
		t.Error("SARIF 2.0.0 accepted")
	}
}
