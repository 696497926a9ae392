package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const raceProgram = `typedef unsigned long pthread_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);
int g = 0;
void *w(void *a) {
  g = g + 1;
  __VERIFIER_assert(g >= 0);
  __VERIFIER_assert(g <= 1);
  return 0;
}
int main(void) {
  pthread_t t;
  while (__VERIFIER_nondet_int())
    pthread_create(&t, 0, w, 0);
  return 0;
}
`

const safeProgram = `extern void __VERIFIER_assert(int);
int g = 3;
int main(void) {
  int x = g;
  __VERIFIER_assert(x == 3);
  return 0;
}
`

func writeTemp(t *testing.T, name, src string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func runCmd(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestCheckTextAndExitCodes(t *testing.T) {
	race := writeTemp(t, "race.c", raceProgram)
	safe := writeTemp(t, "safe.c", safeProgram)

	code, out, errs := runCmd("check", "--checks", "assert", safe)
	if code != 0 || !strings.Contains(out, "1 checks: 1 proven, 0 unreachable, 0 unproven") {
		t.Errorf("safe: exit %d, out %q, err %q", code, out, errs)
	}
	code, out, _ = runCmd("check", "--checks", "assert", race)
	if code != 1 {
		t.Errorf("race: exit %d, want 1", code)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], "race.c:9:") || !strings.Contains(lines[0], "warning:") || !strings.HasSuffix(lines[0], "[assert]") {
		t.Errorf("race: want one warning on line 9 and a summary, got %q", out)
	}
	if !strings.HasPrefix(lines[len(lines)-1], "2 checks: 1 proven, 0 unreachable, 1 unproven") {
		t.Errorf("race: summary %q", lines[len(lines)-1])
	}
	// Usage errors.
	for _, args := range [][]string{
		{"check"},
		{"check", "--domain", "polyhedra", safe},
		{"check", "--checks", "nonsense", safe},
		{"check", "--format", "xml", safe},
		{"check", "--data-model", "LP128", safe},
	} {
		if code, _, _ := runCmd(args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

func TestCheckJSONAndBadFile(t *testing.T) {
	dir := t.TempDir()
	race := filepath.Join(dir, "race.c")
	bad := filepath.Join(dir, "bad.c")
	missing := filepath.Join(dir, "missing.c")
	os.WriteFile(race, []byte(raceProgram), 0o644)
	os.WriteFile(bad, []byte("int main(void) { return undeclared_thing; }\n"), 0o644)
	// The report is sorted by file: bad.c, missing.c, race.c.
	code, out, _ := runCmd("check", "--format", "json", "--checks", "assert", race, bad, missing)
	if code != 2 {
		t.Errorf("exit %d, want 2 (input errors)", code)
	}
	var doc struct {
		Version int `json:"version"`
		Files   []struct {
			File    string `json:"file"`
			Error   string `json:"error"`
			Verdict string `json:"verdict"`
			Checks  []struct {
				Kind, File, Function, Status, Message string
				Line, Column                          int
			} `json:"checks"`
			Stats *struct {
				Locations         int   `json:"locations"`
				GamePositions     int   `json:"game_positions"`
				Rounds            int   `json:"rounds"`
				InterferenceEdges int   `json:"interference_edges"`
				MS                int64 `json:"ms"`
			} `json:"stats"`
		} `json:"files"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("bad JSON: %v\n%s", err, out)
	}
	if doc.Version != 1 || len(doc.Files) != 3 {
		t.Fatalf("version %d, %d files", doc.Version, len(doc.Files))
	}
	if doc.Files[0].Error == "" || doc.Files[0].Verdict != "unknown" {
		t.Errorf("bad file: %+v", doc.Files[0])
	}
	if doc.Files[1].Error == "" || doc.Files[1].Verdict != "unknown" {
		t.Errorf("missing file: %+v", doc.Files[1])
	}
	r := doc.Files[2]
	if r.Error != "" || r.Verdict != "unknown" || len(r.Checks) != 2 || r.Stats == nil {
		t.Fatalf("race file: %+v", r)
	}
	if r.Stats.Rounds < 1 || r.Stats.InterferenceEdges == 0 || r.Stats.GamePositions == 0 || r.Stats.Locations < r.Stats.GamePositions {
		t.Errorf("stats: %+v", *r.Stats)
	}
	var statuses []string
	for _, c := range r.Checks {
		if c.Kind != "assert" || c.Function != "w" || c.Line == 0 {
			t.Errorf("check fields: %+v", c)
		}
		statuses = append(statuses, c.Status)
	}
	if strings.Join(statuses, ",") != "proven,unproven" {
		t.Errorf("statuses %v, want proven,unproven", statuses)
	}
}

func TestCheckInvariantsAndDot(t *testing.T) {
	race := writeTemp(t, "race.c", raceProgram)
	dot := filepath.Join(t.TempDir(), "g.dot")
	code, out, errs := runCmd("check", "--invariants", "--dot", dot, "--domain", "octagon", race)
	if code != 1 {
		t.Errorf("exit %d (%s)", code, errs)
	}
	if !strings.Contains(out, "template w:") || !strings.Contains(out, "template main:") {
		t.Errorf("no invariants printed:\n%s", out)
	}
	data, err := os.ReadFile(dot)
	if err != nil || !bytes.Contains(data, []byte("digraph")) {
		t.Errorf("dot file: %v %q", err, data)
	}
	if code, _, _ := runCmd("check", "--dot", dot, race, race); code != 2 {
		t.Errorf("--dot with two files: exit %d, want 2", code)
	}
}

func TestDataModelFromTaskYML(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "task.i")
	os.WriteFile(src, []byte(safeProgram), 0o644)
	os.WriteFile(filepath.Join(dir, "task-1.yml"), []byte("format_version: '2.0'\ninput_files: 'task.i'\noptions:\n  language: C\n  data_model: ILP32\n"), 0o644)
	o := &checkOptions{}
	dm, err := dataModelFor(o, o.unitOf(src))
	if err != nil || dm.String() != "ILP32" {
		t.Errorf("from yml: %v %v", dm, err)
	}
	o.dataModel = "LP64"
	if dm, _ := dataModelFor(o, o.unitOf(src)); dm.String() != "LP64" {
		t.Errorf("flag must override the yml: %v", dm)
	}
	if dm, _ := dataModelFor(&checkOptions{}, unit{file: filepath.Join(t.TempDir(), "x.c")}); dm.String() != "LP64" {
		t.Errorf("default: %v", dm)
	}
}
