package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"chorus/analysis"
	"chorus/cfg"
)

// The fixtures of testdata/check: the first line is
// "// chorus: <flags>" (or several flag sets separated by " | ": the file
// is checked once with each, against the same marks — one file for a
// program whose results do not depend on, say, the domain), and every line holding check sites of the selected
// kinds carries "// want kind:status ..." (kinds assert|bounds|overflow|
// divzero, statuses proven|unreachable|unproven). Every check of a
// selected kind must sit on an annotated line, and the sorted multiset of
// "kind:status" of the checks on each annotated line must equal the
// annotation's.

const fixtureDir = "../../testdata/check"

var kindShort = map[cfg.CheckKind]string{
	cfg.AssertCheck:    "assert",
	cfg.BoundsCheck:    "bounds",
	cfg.OverflowCheck:  "overflow",
	cfg.DivByZeroCheck: "divzero",
	cfg.ShiftCheck:     "shift",
}

type fixture struct {
	path     string
	flagSets [][]string
	want     map[int][]string // line -> sorted kind:status items
}

func readFixture(path string) (*fixture, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fx := &fixture{path: path, want: map[int][]string{}}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		text := sc.Text()
		if line == 1 {
			rest, ok := strings.CutPrefix(strings.TrimSpace(text), "// chorus:")
			if !ok {
				return nil, fmt.Errorf("%s:1: first line must be \"// chorus: <flags>\"", path)
			}
			for _, set := range strings.Split(rest, "|") {
				fx.flagSets = append(fx.flagSets, strings.Fields(set))
			}
			continue
		}
		i := strings.Index(text, "// want ")
		if i < 0 {
			continue
		}
		items := strings.Fields(text[i+len("// want "):])
		for _, it := range items {
			k, s, ok := strings.Cut(it, ":")
			if !ok || !validKind(k) || (s != "proven" && s != "unreachable" && s != "unproven") {
				return nil, fmt.Errorf("%s:%d: bad want item %q", path, line, it)
			}
		}
		sort.Strings(items)
		fx.want[line] = items
	}
	return fx, sc.Err()
}

func validKind(k string) bool {
	for _, v := range kindShort {
		if v == k {
			return true
		}
	}
	return false
}

func TestFixtures(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join(fixtureDir, "*.c"))
	if len(paths) == 0 {
		t.Skip("no fixtures in " + fixtureDir)
	}
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			fx, err := readFixture(path)
			if err != nil {
				t.Fatal(err)
			}
			for _, flags := range fx.flagSets {
				o, err := parseCheckArgs(append(append([]string{}, flags...), path), io.Discard)
				if err != nil {
					t.Fatalf("%s:1: bad flags %q: %v", path, flags, err)
				}
				o.timeout = 60 * time.Second
				out := checkFile(o, path)
				if out.err != nil {
					t.Fatalf("%q: %v", flags, out.err)
				}
				for _, msg := range compareFixture(fx, out.res) {
					t.Errorf("with %q: %s", flags, msg)
				}
			}
		})
	}
}

// compareFixture returns one message per mismatching line.
func compareFixture(fx *fixture, res *analysis.Result) []string {
	got := map[int][]string{}
	for _, c := range res.Checks {
		line := c.Check.Pos.Line
		if filepath.Base(c.Check.Pos.Filename) != filepath.Base(fx.path) {
			line = -1 // a check in an included file: never annotated
		}
		got[line] = append(got[line], kindShort[c.Check.Kind]+":"+c.Status.String())
	}
	var lines []int
	seen := map[int]bool{}
	for l := range got {
		lines = append(lines, l)
		seen[l] = true
	}
	for l := range fx.want {
		if !seen[l] {
			lines = append(lines, l)
		}
	}
	sort.Ints(lines)
	var msgs []string
	for _, l := range lines {
		g := got[l]
		sort.Strings(g)
		w := fx.want[l]
		if strings.Join(g, " ") != strings.Join(w, " ") {
			detail := ""
			for _, c := range res.Checks {
				if c.Check.Pos.Line == l && c.Status != analysis.Proven {
					detail += fmt.Sprintf("\n\t%s: %s", c.Check.Kind, checkWarning(c, res))
				}
			}
			msgs = append(msgs, fmt.Sprintf("%s:%d: got [%s], want [%s]%s", fx.path, l, strings.Join(g, " "), strings.Join(w, " "), detail))
		}
	}
	return msgs
}
