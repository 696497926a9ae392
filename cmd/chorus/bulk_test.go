package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"chorus/report"
)

// fixtureFiles copies n fixtures of testdata/check (sorted by name) into a
// temporary directory and returns their paths there.
func fixtureFiles(t *testing.T, n int) []string {
	t.Helper()
	all, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "check", "*.c"))
	sort.Strings(all)
	if len(all) < n {
		t.Fatalf("want %d fixtures, have %d", n, len(all))
	}
	dir := t.TempDir()
	var out []string
	for _, f := range all[:n] {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, filepath.Base(f))
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

type jsonReport struct {
	Version       int           `json:"version"`
	ChorusVersion string        `json:"chorus_version"`
	Files         []report.File `json:"files"`
}

func parseJSONReport(t *testing.T, out string) jsonReport {
	t.Helper()
	var r jsonReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("bad JSON: %v\n%s", err, out)
	}
	return r
}

// verdicts summarizes a JSON report as file -> statuses of its checks.
func verdicts(r jsonReport) map[string]string {
	m := map[string]string{}
	for _, f := range r.Files {
		var s []string
		for _, c := range f.Checks {
			s = append(s, c.Kind+":"+c.Status+":"+c.Message)
		}
		m[filepath.Base(f.File)] = f.Verdict + " " + f.Error + " " + strings.Join(s, "|")
	}
	return m
}

// TestWorkersDoNotChangeVerdicts: -j 1 and -j 3 give byte-identical SARIF
// and the same statuses and messages in JSON, the same as the in-process
// analysis (--invariants runs in this process).
func TestWorkersDoNotChangeVerdicts(t *testing.T) {
	if testing.Short() {
		t.Skip("analyses 8 fixtures three times")
	}
	files := fixtureFiles(t, 8)
	args := func(extra ...string) []string {
		return append(append([]string{"check", "--no-cache", "--quiet"}, extra...), files...)
	}
	_, s1, _ := runCmd(args("--format", "sarif", "-j", "1")...)
	_, s3, _ := runCmd(args("--format", "sarif", "-j", "3")...)
	validateSARIF(t, []byte(s1))
	if s1 != s3 {
		t.Errorf("SARIF differs between -j 1 and -j 3:\n%s\n---\n%s", s1, s3)
	}
	c1, j1, _ := runCmd(args("--format", "json", "-j", "1")...)
	c3, j3, _ := runCmd(args("--format", "json", "-j", "3")...)
	// In-process: --invariants keeps the analysis here; its invariant lines
	// precede the JSON.
	c0, j0, _ := runCmd(args("--format", "json", "--invariants")...)
	j0 = j0[strings.Index(j0, "{\n"):]
	v1, v3, v0 := verdicts(parseJSONReport(t, j1)), verdicts(parseJSONReport(t, j3)), verdicts(parseJSONReport(t, j0))
	if c1 != c3 || c1 != c0 {
		t.Errorf("exit statuses %d, %d, %d", c1, c3, c0)
	}
	for f, v := range v1 {
		if v3[f] != v || v0[f] != v {
			t.Errorf("%s: -j1 %q\n-j3 %q\nin-process %q", f, v, v3[f], v0[f])
		}
	}
	if len(v1) != len(files) {
		t.Errorf("%d files in the report, want %d", len(v1), len(files))
	}
}

// TestWorkerIsolation: a worker that crashes, one that hangs and one that
// allocates without bound lose only their own file, each unknown with a
// reason; the other files' results are intact.
// The time limit leaves the allocating worker room to reach its memory
// limit on a loaded machine (at 2 s it sometimes timed out first).
func TestWorkerIsolation(t *testing.T) {
	files := fixtureFiles(t, 5)
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = filepath.Base(f)
	}
	t.Setenv("CHORUS_TEST_WORKER_HOOK", "crash="+names[0]+",loop="+names[1]+",oom="+names[2])
	code, out, errs := runCmd(append([]string{"check", "--no-cache", "--quiet", "--format", "json", "-j", "3", "--timeout", "8s", "--memory", "300MiB"}, files...)...)
	if code != 1 {
		t.Errorf("exit %d, want 1 (unknown files)\n%s", code, errs)
	}
	r := parseJSONReport(t, out)
	if len(r.Files) != len(files) {
		t.Fatalf("%d files reported, want %d", len(r.Files), len(files))
	}
	want := map[string]string{names[0]: "worker process failed", names[1]: "timed out after 8s", names[2]: "memory"}
	for _, f := range r.Files {
		base := filepath.Base(f.File)
		if w, bad := want[base]; bad {
			if f.Verdict != "unknown" || !strings.Contains(f.Error, w) || len(f.Checks) != 0 {
				t.Errorf("%s: verdict %s, error %q, want unknown with %q", base, f.Verdict, f.Error, w)
			}
			continue
		}
		if f.Error != "" || len(f.Checks) == 0 || f.Stats == nil {
			t.Errorf("%s: not analysed: %+v", base, f)
		}
	}
}

// TestResultCache: the second run is served from the cache with the same
// report; a changed file is analysed again, alone; a corrupt entry is
// ignored.
func TestResultCache(t *testing.T) {
	files := fixtureFiles(t, 4)
	cache := t.TempDir()
	run := func() (jsonReport, string) {
		_, out, _ := runCmd(append([]string{"check", "--cache", cache, "--quiet", "--format", "json", "-j", "2"}, files...)...)
		_, s, _ := runCmd(append([]string{"check", "--cache", cache, "--quiet", "--format", "sarif", "-j", "2"}, files...)...)
		validateSARIF(t, []byte(s))
		return parseJSONReport(t, out), s
	}
	r1, s1 := run()
	for _, f := range r1.Files {
		if f.Cached {
			t.Errorf("%s cached on the first run", f.File)
		}
	}
	r2, s2 := run()
	for _, f := range r2.Files {
		if !f.Cached {
			t.Errorf("%s not cached on the second run", f.File)
		}
	}
	if s1 != s2 {
		t.Error("the cached SARIF differs from the first")
	}
	if a, b := verdicts(r1), verdicts(r2); len(a) != len(b) {
		t.Error("reports differ")
	} else {
		for k := range a {
			if a[k] != b[k] {
				t.Errorf("%s: %q vs cached %q", k, a[k], b[k])
			}
		}
	}
	// A change (even a comment) re-analyses that file only.
	data, _ := os.ReadFile(files[1])
	os.WriteFile(files[1], append([]byte("/* changed */\n"), data...), 0o644)
	r3, _ := run()
	for _, f := range r3.Files {
		if f.Cached == (f.File == files[1]) {
			t.Errorf("%s: cached %v after changing %s", f.File, f.Cached, files[1])
		}
	}
	// Corrupt every entry: all are analysed again, with the same results.
	entries, _ := filepath.Glob(filepath.Join(cache, "*", "*.json"))
	if len(entries) == 0 {
		t.Fatal("no cache entries")
	}
	for i, e := range entries {
		junk := []byte("{not json")
		if i%2 == 1 {
			junk = []byte(`{"key":"0000","report":{"file":"x","verdict":"safe","checks":[]}}`)
		}
		os.WriteFile(e, junk, 0o644)
	}
	r4, _ := run()
	for _, f := range r4.Files {
		if f.Cached {
			t.Errorf("%s served from a corrupt entry", f.File)
		}
	}
	if a, b := verdicts(r3), verdicts(r4); len(a) != len(b) {
		t.Error("reports differ")
	} else {
		for k := range a {
			if a[k] != b[k] {
				t.Errorf("%s: %q vs %q", k, a[k], b[k])
			}
		}
	}
}

// TestIgnoresAndBaseline: an ignore comment suppresses its check (SARIF
// suppression, summary count, exit 0); an unused one is reported with
// --strict-ignores; a baseline hides the results it has and reports new
// ones.
func TestIgnoresAndBaseline(t *testing.T) {
	dir := t.TempDir()
	w := filepath.Join(dir, "w.c")
	ignored := strings.Replace(writerProgram, "  __VERIFIER_assert(g <= 1);", "  // chorus:ignore[assert] main's writes happen after the check in practice\n  __VERIFIER_assert(g <= 1);", 1)
	os.WriteFile(w, []byte(ignored), 0o644)
	code, out, _ := runCmd("check", "--no-cache", "--checks", "assert", "--format", "sarif", w)
	if code != 0 {
		t.Errorf("suppressed: exit %d, want 0", code)
	}
	rs := sarifResults(t, validateSARIF(t, []byte(out)))
	if len(rs) != 1 {
		t.Fatalf("want the suppressed result, got %d", len(rs))
	}
	sup, _ := rs[0]["suppressions"].([]any)
	if len(sup) != 1 || sup[0].(map[string]any)["kind"] != "inSource" || !strings.Contains(sup[0].(map[string]any)["justification"].(string), "in practice") {
		t.Errorf("suppressions: %v", sup)
	}
	code, out, _ = runCmd("check", "--no-cache", "--checks", "assert", w)
	if code != 0 || !strings.Contains(out, "0 unproven, 1 suppressed") || strings.Contains(out, "warning:") {
		t.Errorf("text: exit %d\n%s", code, out)
	}
	// An ignore comment on a proven check suppresses nothing.
	s := filepath.Join(dir, "s.c")
	os.WriteFile(s, []byte(strings.Replace(safeProgram, "  __VERIFIER_assert(x == 3);", "  __VERIFIER_assert(x == 3); // chorus:ignore[assert] old", 1)), 0o644)
	if code, _, _ := runCmd("check", "--no-cache", "--checks", "assert", s); code != 0 {
		t.Errorf("unused ignore without --strict-ignores: exit %d", code)
	}
	code, out, _ = runCmd("check", "--no-cache", "--checks", "assert", "--strict-ignores", "--format", "sarif", s)
	rs = sarifResults(t, validateSARIF(t, []byte(out)))
	if code != 1 || len(rs) != 1 || rs[0]["ruleId"] != "chorus.unused-ignore" {
		t.Errorf("--strict-ignores: exit %d, results %v", code, rs)
	}

	// Baseline: the warning of writerProgram is known; a new one is not.
	os.WriteFile(w, []byte(writerProgram), 0o644)
	base := filepath.Join(dir, "base.sarif")
	if code, _, _ := runCmd("check", "--no-cache", "--checks", "assert", "--format", "sarif", "--output", base, w); code != 1 {
		t.Errorf("baseline run: exit %d", code)
	}
	data, _ := os.ReadFile(base)
	validateSARIF(t, data)
	code, out, _ = runCmd("check", "--no-cache", "--checks", "assert", "--baseline", base, w)
	if code != 0 || !strings.Contains(out, "1 in the baseline") || strings.Contains(out, "warning:") {
		t.Errorf("with the baseline: exit %d\n%s", code, out)
	}
	grown := strings.Replace("\n\n"+writerProgram, "  return 0;\n}\nint main", "  __VERIFIER_assert(g != 5);\n  return 0;\n}\nint main", 1)
	os.WriteFile(w, []byte(grown), 0o644)
	code, out, _ = runCmd("check", "--no-cache", "--checks", "assert", "--baseline", base, "--format", "sarif", w)
	rs = sarifResults(t, validateSARIF(t, []byte(out)))
	if code != 1 || len(rs) != 1 || !strings.Contains(rs[0]["message"].(map[string]any)["text"].(string), "g != 5") || rs[0]["baselineState"] != "new" {
		t.Errorf("new alarm after the baseline: exit %d, results %v", code, rs)
	}
}

// TestShardsMerge: the shards of a file list partition it, and merging
// their SARIF logs gives the log of one run over all files, byte for byte.
func TestShardsMerge(t *testing.T) {
	files := fixtureFiles(t, 6)
	args := func(extra ...string) []string {
		return append(append([]string{"check", "--quiet", "--format", "sarif", "-j", "2"}, extra...), files...)
	}
	_, all, _ := runCmd(args()...)
	validateSARIF(t, []byte(all))
	dir := t.TempDir()
	var logs []string
	seen := map[string]int{}
	for i := 0; i < 3; i++ {
		p := filepath.Join(dir, "shard"+string(rune('0'+i))+".sarif")
		runCmd(args("--shard", string(rune('0'+i))+"/3", "--output", p)...)
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		validateSARIF(t, data)
		logs = append(logs, p)
		_, js, _ := runCmd(append([]string{"check", "--quiet", "--format", "json", "--shard", string(rune('0'+i)) + "/3"}, files...)...)
		for _, f := range parseJSONReport(t, js).Files {
			seen[f.File]++
		}
	}
	for _, f := range files {
		if seen[f] != 1 {
			t.Errorf("%s in %d shards, want 1", f, seen[f])
		}
	}
	code, merged, errs := runCmd(append([]string{"merge"}, logs...)...)
	if code != 0 {
		t.Fatalf("merge: exit %d: %s", code, errs)
	}
	validateSARIF(t, []byte(merged))
	if merged != all {
		t.Errorf("merged shards differ from one run:\n%s\n---\n%s", merged, all)
	}
	if code, _, _ := runCmd("check", "--shard", "3/3", files[0]); code != 2 {
		t.Errorf("--shard 3/3: exit %d, want 2", code)
	}
}

func TestVersion(t *testing.T) {
	code, out, _ := runCmd("--version")
	if code != 0 || !strings.HasPrefix(out, "chorus ") {
		t.Errorf("--version: exit %d, %q", code, out)
	}
	_, js, _ := runCmd("check", "--format", "json", "--no-cache", writeTemp(t, "s.c", safeProgram))
	if r := parseJSONReport(t, js); r.ChorusVersion == "" {
		t.Error("no chorus_version in JSON")
	}
}

// TestWorkerStdout: what a worker prints on its standard output reaches
// the parent's, and does not disturb the report (a pipe of its own).
func TestWorkerStdout(t *testing.T) {
	files := fixtureFiles(t, 2)
	t.Setenv("CHORUS_TEST_WORKER_HOOK", "print="+filepath.Base(files[0]))
	out := filepath.Join(t.TempDir(), "r.json")
	_, stdout, _ := runCmd(append([]string{"check", "--no-cache", "--quiet", "--format", "json", "--output", out}, files...)...)
	if !strings.Contains(stdout, "noise on the worker's standard output") {
		t.Errorf("the worker's output was lost: %q", stdout)
	}
	data, _ := os.ReadFile(out)
	r := parseJSONReport(t, string(data))
	if len(r.Files) != 2 || r.Files[0].Error != "" || len(r.Files[0].Checks) == 0 {
		t.Errorf("report disturbed: %+v", r.Files)
	}
}

func TestParseBytesAndShard(t *testing.T) {
	for s, want := range map[string]int64{"2GiB": 2 << 30, "1500MB": 1500 << 20, "512m": 512 << 20, "1.5G": 3 << 29, "4096": 4096} {
		if got, err := parseBytes(s); err != nil || got != want {
			t.Errorf("parseBytes(%q) = %d, %v; want %d", s, got, err, want)
		}
	}
	for _, s := range []string{"", "GiB", "-1G", "2XB", "0"} {
		if _, err := parseBytes(s); err == nil {
			t.Errorf("parseBytes(%q): no error", s)
		}
	}
	for _, s := range []string{"1/0", "2/2", "-1/3", "a/b", "1"} {
		if _, _, err := parseShard(s); err == nil {
			t.Errorf("parseShard(%q): no error", s)
		}
	}
}

// Issue 10: a file stopped by a limit says which budget and which phase:
// a worker hanging while lowering times out "during lowering", one
// allocating without bound in the analysis is stopped by the memory
// limit "during the analysis"; a linked program (--link) runs in a
// worker too, so its lowering is bounded and named the same way.
func TestWorkerLimitPhase(t *testing.T) {
	files := fixtureFiles(t, 3)
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = filepath.Base(f)
	}
	t.Setenv("CHORUS_TEST_WORKER_HOOK", "loop@lowering="+names[0]+",oom@analysis="+names[1])
	code, out, errs := runCmd(append([]string{"check", "--no-cache", "--quiet", "--format", "json", "-j", "2", "--timeout", "3s", "--memory", "300MiB"}, files[:2]...)...)
	if code != 1 {
		t.Errorf("exit %d, want 1 (unknown files)\n%s", code, errs)
	}
	r := parseJSONReport(t, out)
	want := map[string]string{names[0]: "timed out after 3s during lowering", names[1]: "exceeded the memory limit of 300MiB during the analysis"}
	for _, f := range r.Files {
		if w := want[filepath.Base(f.File)]; f.Verdict != "unknown" || !strings.Contains(f.Error, w) {
			t.Errorf("%s: verdict %s, error %q, want unknown with %q", f.File, f.Verdict, f.Error, w)
		}
	}
	// Linked: the hook matches the base name of the linked unit's name
	// ("DIR/a.c + DIR/b.c": "b.c").
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.c"), filepath.Join(dir, "b.c")
	os.WriteFile(a, []byte("extern int f(int);\nint main(void) { return f(1); }\n"), 0o644)
	os.WriteFile(b, []byte("int f(int x) { return x + 1; }\n"), 0o644)
	t.Setenv("CHORUS_TEST_WORKER_HOOK", "loop@analysis=b.c")
	code, out, errs = runCmd("check", "--no-cache", "--quiet", "--format", "json", "--link", "--timeout", "3s", a, b)
	r = parseJSONReport(t, out)
	if code != 1 || len(r.Files) != 1 || !strings.Contains(r.Files[0].Error, "timed out after 3s during the analysis") {
		t.Errorf("linked: exit %d, %+v\n%s", code, r.Files, errs)
	}
}
