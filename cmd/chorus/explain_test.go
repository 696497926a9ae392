package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// lineWith returns the first line of file whose text (after indentation)
// starts with prefix.
func lineWith(t *testing.T, file, prefix string) int {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), prefix) {
			return i + 1
		}
	}
	t.Fatalf("%s: no line starting with %q", file, prefix)
	return 0
}

// renderDot runs stock Graphviz on a DOT file when it is installed and
// fails on any error or warning it prints.
func renderDot(t *testing.T, path string) {
	t.Helper()
	dot, err := exec.LookPath("dot")
	if err != nil {
		t.Logf("graphviz not installed: %s not rendered", path)
		return
	}
	var stderr bytes.Buffer
	cmd := exec.Command(dot, "-Tsvg", "-o", path+".svg", path)
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil || stderr.Len() > 0 {
		t.Errorf("dot -Tsvg %s: %v\n%s", path, err, stderr.String())
		return
	}
	svg, err := os.ReadFile(path + ".svg")
	if err != nil || !bytes.Contains(svg, []byte("<svg")) {
		t.Errorf("dot wrote no SVG: %v", err)
	}
}

func TestExplainNotes(t *testing.T) {
	file := filepath.Join(fixtureDir, "appendix_a_nolock.c")
	line := lineWith(t, file, "__VERIFIER_assert(counter >= 0)")
	dotFile := filepath.Join(t.TempDir(), "slice.dot")
	code, out, errs := runCmd("check", "--checks", "assert", "--explain", file+":"+strconv.Itoa(line), "--explain-dot", dotFile, file)
	if code != 1 {
		t.Fatalf("exit %d, stderr %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if !strings.Contains(lines[0], "warning:") || !strings.Contains(lines[1], ": note: the check fails when") {
		t.Errorf("want the warning then the notes:\n%s", out)
	}
	for _, want := range []string{
		"from `counter = counter - 1;` (consumer)",
		"from the same statement in another consumer thread, no lock held [interference]",
		"from `counter = counter + 1;` in another producer thread holding plock",
		"from `counter = 0;` in another producer thread holding plock",
		"introduces constant 0",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("notes lack %q:\n%s", want, out)
		}
	}
	for _, l := range lines[1 : len(lines)-1] {
		if !strings.Contains(l, ": note: ") {
			t.Errorf("not a note line: %q", l)
		}
	}
	data, err := os.ReadFile(dotFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"subgraph cluster_", "thread consumer", "thread producer", "style=dashed, color=red", "counter = counter - 1;"} {
		if !bytes.Contains(data, []byte(want)) {
			t.Errorf("slice DOT lacks %q", want)
		}
	}
	renderDot(t, dotFile)
}

func TestExplainTargets(t *testing.T) {
	file := filepath.Join(fixtureDir, "appendix_a.c")
	line := lineWith(t, file, "__VERIFIER_assert(counter >= 0)")
	code, out, errs := runCmd("check", "--checks", "assert", "--explain", file+":"+strconv.Itoa(line), file)
	if code != 0 || !strings.Contains(errs, "nothing to explain") || strings.Contains(out, "note:") {
		t.Errorf("proven check: exit %d, out %q, stderr %q", code, out, errs)
	}
	code, _, errs = runCmd("check", "--explain", file+":2", file)
	if !strings.Contains(errs, "no check of the selected kinds on that line") {
		t.Errorf("line without checks: exit %d, stderr %q", code, errs)
	}
	if code, _, _ := runCmd("check", "--explain", "nolinenumber", file); code != 2 {
		t.Errorf("bad --explain: exit %d, want 2", code)
	}
	// --explain-dot alone draws the only unproven check.
	nolock := filepath.Join(fixtureDir, "appendix_a_nolock.c")
	dotFile := filepath.Join(t.TempDir(), "s.dot")
	if code, _, errs := runCmd("check", "--checks", "assert", "--explain-dot", dotFile, nolock); code != 1 || errs != "" {
		t.Errorf("--explain-dot alone: exit %d, stderr %q", code, errs)
	}
	if code, _, errs := runCmd("check", "--explain-dot", dotFile, nolock); code != 2 || !strings.Contains(errs, "choose one") {
		t.Errorf("--explain-dot with 3 unproven checks: exit %d, stderr %q", code, errs)
	}
}

// The whole-graph --dot renders with stock Graphviz (2.43 failed with
// "trouble in init_rank" on edges between clusters before newrank).
func TestWholeGraphDotRenders(t *testing.T) {
	files := []string{"two_locks.c", "fig2_incr.c"}
	if !testing.Short() {
		files = append(files, "appendix_a.c")
	}
	for _, f := range files {
		dotFile := filepath.Join(t.TempDir(), f+".dot")
		if code, _, errs := runCmd("check", "--dot", dotFile, filepath.Join(fixtureDir, f)); code == 2 {
			t.Fatalf("%s: %s", f, errs)
		}
		renderDot(t, dotFile)
	}
}
