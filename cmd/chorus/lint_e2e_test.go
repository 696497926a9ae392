package main

// End-to-end tests of the bulk run: the real binary (built here) over the
// DDVerify drivers of ../shared/corpus, and the throughput benchmark.

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

var (
	lintAll   = flag.Bool("lint-all", false, "TestLintDrivers and TestLintBench over all 30 DDVerify drivers (default: the 3 smallest)")
	lintBench = flag.Bool("lint-bench", false, "run TestLintBench (throughput of chorus check -j 1/-j 2 next to cppcheck; minutes)")
)

// buildChorus builds the chorus binary into a temporary directory.
func buildChorus(t *testing.T) string {
	t.Helper()
	exe := filepath.Join(t.TempDir(), "chorus")
	cmd := exec.Command("go", "build", "-o", exe, ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return exe
}

// ddverifyDrivers lists the drivers: the 3 smallest, or all with
// -lint-all.
func ddverifyDrivers(t *testing.T) []string {
	root := corpusRoot(t)
	files, _ := filepath.Glob(filepath.Join(root, "ddverify", "*.c"))
	if len(files) == 0 {
		t.Skip("no ddverify drivers")
	}
	if !*lintAll {
		sort.Slice(files, func(i, j int) bool { return fileSize(files[i]) < fileSize(files[j]) })
		files = files[:3]
	}
	sort.Strings(files)
	return files
}

func fileSize(p string) int64 {
	st, err := os.Stat(p)
	if err != nil {
		return 0
	}
	return st.Size()
}

// chorusRun runs the binary and returns exit status, stdout and the wall
// time.
func chorusRun(t *testing.T, exe string, env []string, args ...string) (int, []byte, time.Duration) {
	t.Helper()
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	el := time.Since(start)
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s: %v", exe, err)
	}
	if code == 2 {
		t.Logf("stderr: %s", errb.String())
	}
	return code, out.Bytes(), el
}

// ddverifyFlags are the flags of the DDVerify runs (as in TestDDVerify).
var ddverifyFlags = []string{"check", "--data-model", "ILP32", "--checks", "bounds,overflow", "--timeout", "10m", "--quiet"}

// TestLintDrivers: the real binary over DDVerify drivers with -j 2
// --format sarif: schema-valid; byte-identical with -j 1; the second run
// served from the cache (speed-up logged, measured in TestLintBench); a
// crashing worker leaves the other drivers' results intact.
func TestLintDrivers(t *testing.T) {
	files := ddverifyDrivers(t)
	exe := buildChorus(t)
	cache := t.TempDir()
	args := func(extra ...string) []string {
		return append(append(append([]string(nil), ddverifyFlags...), extra...), files...)
	}
	code, s2, cold := chorusRun(t, exe, nil, args("-j", "2", "--format", "sarif", "--cache", cache)...)
	if code == 2 {
		t.Fatalf("-j 2: exit 2")
	}
	doc := validateSARIF(t, s2)
	if n := len(sarifNotifications(doc)); n != 0 {
		t.Errorf("%d drivers failed: %v", n, sarifNotifications(doc))
	}
	if len(sarifResults(t, doc)) == 0 {
		t.Error("no results on the drivers")
	}
	_, s1, _ := chorusRun(t, exe, nil, args("-j", "1", "--format", "sarif", "--no-cache")...)
	validateSARIF(t, s1)
	if !bytes.Equal(s1, s2) {
		t.Errorf("SARIF of -j 1 and -j 2 differ")
	}
	_, s3, warm := chorusRun(t, exe, nil, args("-j", "2", "--format", "sarif", "--cache", cache)...)
	if !bytes.Equal(s3, s2) {
		t.Errorf("SARIF served from the cache differs")
	}
	_, js, _ := chorusRun(t, exe, nil, args("-j", "2", "--format", "json", "--cache", cache)...)
	for _, f := range parseJSONReport(t, string(js)).Files {
		if !f.Cached {
			t.Errorf("%s not served from the cache", f.File)
		}
	}
	t.Logf("%d drivers: first run %.2fs, from the cache %.3fs (%.0fx)", len(files), cold.Seconds(), warm.Seconds(), cold.Seconds()/warm.Seconds())

	// A crashing worker: the others' results are those of the full run.
	victim := filepath.Base(files[0])
	_, s4, _ := chorusRun(t, exe, []string{"CHORUS_TEST_WORKER_HOOK=crash=" + victim}, args("-j", "2", "--format", "sarif", "--no-cache")...)
	doc4 := validateSARIF(t, s4)
	ns := sarifNotifications(doc4)
	if len(ns) != 1 || !strings.Contains(fmt.Sprint(ns[0]["message"]), victim) {
		t.Errorf("want one notification for %s, got %v", victim, ns)
	}
	others := func(doc map[string]any) string {
		var b strings.Builder
		for _, r := range sarifResults(t, doc) {
			if !strings.HasSuffix(fmt.Sprint(r["analysisTarget"]), victim+"]") {
				fmt.Fprintln(&b, r)
			}
		}
		return b.String()
	}
	if o4, o2 := others(doc4), others(doc); o4 != o2 || o2 == "" {
		t.Errorf("the other drivers' results changed when %s crashed", victim)
	}
}

// TestLintBench prints the throughput of chorus check over the DDVerify
// drivers with -j 1 and -j 2 (no cache), a warm-cache run, and cppcheck
// on the same files when installed. Opt-in: -lint-bench (make bench-lint).
func TestLintBench(t *testing.T) {
	if !*lintBench {
		t.Skip("run with -args -lint-bench")
	}
	files := ddverifyDrivers(t)
	exe := buildChorus(t)
	var lines int
	for _, f := range files {
		data, _ := os.ReadFile(f)
		lines += bytes.Count(data, []byte("\n"))
	}
	row := func(name string, el time.Duration) {
		t.Logf("%-32s %8.1fs %10.0f lines/s %8.2f files/s", name, el.Seconds(), float64(lines)/el.Seconds(), float64(len(files))/el.Seconds())
	}
	t.Logf("%d drivers, %d lines, --timeout %v per driver (-corpus-timeout)", len(files), lines, *corpusTimeout)
	flags := append(append([]string(nil), ddverifyFlags...), "--timeout", corpusTimeout.String())
	cache := t.TempDir()
	var cold time.Duration
	for _, j := range []string{"1", "2"} {
		extra := []string{"-j", j, "--format", "sarif", "--no-cache"}
		if j == "2" {
			extra = []string{"-j", j, "--format", "sarif", "--cache", cache}
		}
		_, out, el := chorusRun(t, exe, nil, append(append(append([]string(nil), flags...), extra...), files...)...)
		row("chorus check -j "+j, el)
		if j == "2" {
			doc := validateSARIF(t, out)
			t.Logf("  %d results, %d drivers unknown or failed", len(sarifResults(t, doc)), len(sarifNotifications(doc)))
		}
		cold = el
	}
	_, _, warm := chorusRun(t, exe, nil, append(append(append([]string(nil), flags...), "-j", "2", "--format", "sarif", "--cache", cache), files...)...)
	row("chorus check -j 2 (cache warm)", warm)
	t.Logf("cache speed-up: %.0fx", cold.Seconds()/warm.Seconds())
	if cpp, err := exec.LookPath("cppcheck"); err == nil {
		for _, j := range []string{"1", "2"} {
			cmd := exec.Command(cpp, append([]string{"-j", j, "--quiet", "--platform=unix32"}, files...)...)
			start := time.Now()
			cmd.Run() // findings or not, only the time counts
			row("cppcheck -j "+j, time.Since(start))
		}
	} else {
		t.Log("cppcheck not installed (apt-get install cppcheck)")
	}
}
