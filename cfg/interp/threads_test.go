package interp

// Thread fixtures (testdata/threads): hand-written multithreaded C
// programs whose header comments give schedules and their expected
// outcome (see lost_update.c for the notation). The interpreter, driven by
// each schedule, must reach the named failing check, or finish without a
// failure.

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

const threadsDir = "../../testdata/threads"

// knownThreadFailures maps a fixture to the frontend bug that makes it
// fail (see the list in diff_test.go).
var knownThreadFailures = map[string]string{}

// judgeKnown reports the problems of a test case: errors, unless the case
// is a known failure (then t.Log, so it stays visible); a known failure
// without problems is an error, so that the list gets updated.
func judgeKnown(t *testing.T, name, known string, problems []string) {
	t.Helper()
	switch {
	case known != "" && len(problems) == 0:
		t.Errorf("%s passes but is listed as a known failure (%s): remove it from the list", name, known)
	case known != "":
		t.Logf("KNOWN FRONTEND BUG in %s: %s\n%s", name, known, strings.Join(problems, "\n"))
	default:
		for _, p := range problems {
			t.Error(p)
		}
	}
}

type fixture struct {
	labels    map[string]int // label -> line
	schedules []fixtureSchedule
	randomOK  bool
}

type fixtureSchedule struct {
	name   string
	phases []Phase
	fails  int // the line of the check that must fail; 0: must finish without failure
}

var (
	labelRe    = regexp.MustCompile(`//\s*@(\w+)\s*$`)
	scheduleRe = regexp.MustCompile(`^//\s*schedule\s+([\w-]+):\s*(.*?)\s*->\s*(ok|fails\s+@\w+)\s*$`)
	phaseRe    = regexp.MustCompile(`^(main|t\d+)(?:@(\w+)|:(\d+))?$`)
)

func parseFixture(path string) (*fixture, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fx := &fixture{labels: map[string]int{}}
	var raw []string
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if m := scheduleRe.FindStringSubmatch(text); m != nil {
			raw = append(raw, m[1]+"\x00"+m[2]+"\x00"+m[3])
			continue
		}
		if strings.HasPrefix(text, "// random: ok") {
			fx.randomOK = true
			continue
		}
		if m := labelRe.FindStringSubmatch(text); m != nil {
			fx.labels[m[1]] = line
		}
	}
	for _, r := range raw {
		parts := strings.Split(r, "\x00")
		s := fixtureSchedule{name: parts[0]}
		for _, tok := range strings.Fields(parts[1]) {
			m := phaseRe.FindStringSubmatch(tok)
			if m == nil {
				return nil, fmt.Errorf("%s: schedule %s: bad phase %q", path, s.name, tok)
			}
			var ph Phase
			if m[1] != "main" {
				n, _ := strconv.Atoi(m[1][1:])
				ph.Thread = ThreadID(n)
			}
			if m[2] != "" {
				line, ok := fx.labels[m[2]]
				if !ok {
					return nil, fmt.Errorf("%s: schedule %s: no line marked @%s", path, s.name, m[2])
				}
				ph.UntilLine = line
			}
			if m[3] != "" {
				ph.Steps, _ = strconv.Atoi(m[3])
			}
			s.phases = append(s.phases, ph)
		}
		if strings.HasPrefix(parts[2], "fails") {
			label := strings.TrimPrefix(strings.Fields(parts[2])[1], "@")
			line, ok := fx.labels[label]
			if !ok {
				return nil, fmt.Errorf("%s: schedule %s: no line marked @%s", path, s.name, label)
			}
			s.fails = line
		}
		fx.schedules = append(fx.schedules, s)
	}
	if len(fx.schedules) == 0 {
		return nil, fmt.Errorf("%s: no schedules", path)
	}
	return fx, nil
}

func TestThreadFixtures(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(threadsDir, "*.c"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 5 {
		t.Fatalf("only %d thread fixtures in %s", len(files), threadsDir)
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".c")
		t.Run(name, func(t *testing.T) {
			fx, err := parseFixture(file)
			if err != nil {
				t.Fatal(err)
			}
			var problems []string
			report := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
			defer func() { judgeKnown(t, name, knownThreadFailures[name], problems) }()
			p, err := buildCWithin(file, childTimeout)
			if err != nil {
				report("frontend: %v", err)
				return
			}
			sawFailure, sawSuccess := false, false
			for _, s := range fx.schedules {
				res, err := Run(p, Script(FirstEnabled(), s.phases...), RunOptions{MaxSteps: 100_000, Machine: Options{CheckCells: true, CheckUninit: true}})
				if err != nil {
					t.Fatal(err)
				}
				if s.fails > 0 {
					sawFailure = true
					if res.Reason != CheckFailure || res.Failures[0].Event.Loc.Pos.Line != s.fails {
						report("schedule %s: want the check on line %d to fail, got %s", s.name, s.fails, summary(res))
					} else {
						t.Logf("schedule %s: %s after %d steps", s.name, res.Failures[0].Event, len(res.Failures[0].Schedule))
					}
					continue
				}
				sawSuccess = true
				if res.Reason != Finished || len(res.Failures) > 0 {
					report("schedule %s: want every thread to finish without failure, got %s", s.name, summary(res))
				}
			}
			if !sawSuccess {
				report("no schedule without failure")
			}
			if fx.randomOK {
				for seed := uint64(1); seed <= 30; seed++ {
					res, _ := Run(p, Random(seed), RunOptions{MaxSteps: 100_000, Machine: Options{CheckCells: true, CheckUninit: true}})
					if res.Reason != Finished || len(res.Failures) > 0 {
						report("random seed %d: %s", seed, summary(res))
						break
					}
				}
			} else if !sawFailure {
				report("fixture has neither a failing schedule nor random: ok")
			}
		})
	}
}

// summary describes how a run ended, in one line.
func summary(res Result) string {
	out := fmt.Sprintf("%v after %d steps (%d threads)", res.Reason, res.Steps, len(res.Final.Threads))
	for _, f := range res.Failures {
		out += "; " + f.Event.String()
	}
	if res.Error != nil {
		out += "; " + res.Error.Event.String()
	}
	return out
}
