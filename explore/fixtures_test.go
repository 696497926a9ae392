package explore

// Cross-checks of the C fixtures: the thread fixtures (testdata/threads)
// and the analysis fixtures (testdata/check, read only). A check that the
// exhaustive search (bounded threads and inputs) sees fail must not be
// marked "proven" or "unreachable" in testdata/check: that would be a
// wrong expectation, or a frontend or interpreter bug.

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"chorus/cfg"
)

func build(t *testing.T, path string) *cfg.Program {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := cfg.Build(path, src, cfg.Options{DataModel: cfg.LP64})
	if err != nil {
		t.Fatalf("frontend: %v", err)
	}
	if err := cfg.Sanity(p); err != nil {
		t.Fatalf("sanity: %v", err)
	}
	return p
}

// failingLines is the set of source lines of the checks that failed.
func failingLines(res *Result) map[int]bool {
	out := map[int]bool{}
	for _, f := range res.Failures {
		out[f.Event.Check.Pos.Line] = true
	}
	return out
}

// knownFrontendBugs lists the fixtures a frontend bug breaks (see the list
// in cfg/interp/diff_test.go); they are logged, not failed.
var knownFrontendBugs = map[string]string{}

func TestThreadFixturesExhaustive(t *testing.T) {
	// fixture -> the labels (// @label) of exactly the checks that can fail
	want := map[string][]string{
		"lost_update":      {"assert"},
		"mutex_counter":    nil,
		"atomic_counter":   nil,
		"handshake":        nil,
		"handshake_broken": {"assert"},
		"spawn_loop":       nil,
		"join_missing":     {"assert"},
		"cas_spinlock":     nil,
		"naive_spinlock":   {"assert"},
		"atomic_function":  {"assert2"}, // the atomic twin (assert1) never fails
		"heap_args":        nil,
	}
	for name, labels := range want {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join("../testdata/threads", name+".c")
			p := build(t, path)
			res, err := Explore(p, Options{MaxInstances: 3, Timeout: 20 * time.Second, CheckCells: true})
			if err != nil {
				t.Fatal(err)
			}
			if !res.Complete {
				t.Fatalf("incomplete after %d states", res.States)
			}
			if len(res.Errors) > 0 {
				t.Errorf("runtime errors: %v", res.Errors[0].Event)
			}
			wantLines := map[int]bool{}
			for _, l := range labels {
				line := labelLine(t, path, l)
				wantLines[line] = true
			}
			got := failingLines(res)
			ok := len(got) == len(wantLines)
			for l := range got {
				ok = ok && wantLines[l]
			}
			if !ok {
				var evs []string
				for _, f := range res.Failures {
					evs = append(evs, f.Event.String())
				}
				if bug, known := knownFrontendBugs[name]; known {
					t.Logf("KNOWN FRONTEND BUG: %s: failures %v", bug, evs)
					return
				}
				t.Errorf("failures %v, want exactly the checks at %v", evs, labels)
			} else if bug, known := knownFrontendBugs[name]; known {
				t.Errorf("passes but is listed as a known failure (%s): remove it", bug)
			}
			replayAll(t, p, res)
			t.Logf("%d states, %d transitions, %d failures", res.States, res.Transitions, len(res.Failures))
		})
	}
}

var wantRe = regexp.MustCompile(`//\s*want\s+(\w+):(\w+)`)

func TestCheckFixturesNotRefuted(t *testing.T) {
	files, _ := filepath.Glob("../testdata/check/*.c")
	if len(files) == 0 {
		t.Skip("no testdata/check fixtures")
	}
	kinds := map[string]cfg.CheckKind{"assert": cfg.AssertCheck, "bounds": cfg.BoundsCheck, "overflow": cfg.OverflowCheck, "divzero": cfg.DivByZeroCheck}
	confirmed, unproven := 0, 0
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".c")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			p := build(t, file)
			res, err := Explore(p, Options{MaxInstances: 2, HavocMin: -1, HavocMax: 2, MaxStates: 20_000, Timeout: time.Second, CheckCells: true})
			if err != nil {
				t.Fatal(err)
			}
			var problems []string
			defer func() {
				bug, known := knownFrontendBugs[name]
				switch {
				case known && len(problems) == 0:
					t.Errorf("passes but is listed as a known failure (%s): remove it", bug)
				case known:
					t.Logf("KNOWN FRONTEND BUG: %s\n%s", bug, strings.Join(problems, "\n"))
				default:
					for _, p := range problems {
						t.Error(p)
					}
				}
			}()
			for _, e := range res.Errors {
				// An access outside the Deref's cells means the points-to
				// analysis missed a real target: the analysis would miss
				// that write or read.
				if strings.HasPrefix(e.Event.Text, "points-to:") {
					problems = append(problems, "frontend points-to unsound: "+e.Event.String())
				}
			}
			failed := map[int]map[cfg.CheckKind]bool{}
			for _, f := range res.Failures {
				c := f.Event.Check
				if failed[c.Pos.Line] == nil {
					failed[c.Pos.Line] = map[cfg.CheckKind]bool{}
				}
				failed[c.Pos.Line][c.Kind] = true
			}
			for i, line := range strings.Split(string(src), "\n") {
				m := wantRe.FindStringSubmatch(line)
				if m == nil {
					continue
				}
				kind, ok := kinds[m[1]]
				if !ok {
					continue
				}
				fails := failed[i+1][kind]
				switch m[2] {
				case "proven", "unreachable":
					if fails {
						problems = append(problems, fmt.Sprintf("line %d: %s check marked %s fails in the exhaustive search", i+1, m[1], m[2]))
					}
				case "unproven":
					unproven++
					if fails {
						confirmed++
					}
				}
			}
			t.Logf("complete %v, %d states, %d failures", res.Complete, res.States, len(res.Failures))
		})
	}
	t.Logf("%d of %d unproven checks are real failures within the bounds", confirmed, unproven)
}

// labelLine is the line marked "// @label" in the file.
func labelLine(t *testing.T, path, label string) int {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(string(src), "\n") {
		if strings.HasSuffix(strings.TrimSpace(line), "// @"+label) {
			return i + 1
		}
	}
	t.Fatalf("%s: no line marked @%s", path, label)
	return 0
}
