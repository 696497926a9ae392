package analysis

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"chorus/cfg"
)

// sliceOf analyzes a C file and returns the result and its assertion
// check on the given line.
func sliceOf(t *testing.T, file string, line int) (*Result, CheckResult) {
	t.Helper()
	p, err := cfg.BuildFile(file, cfg.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Analyze(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range res.Checks {
		if c.Check.Kind == cfg.AssertCheck && c.Check.Pos.Line == line {
			return res, c
		}
	}
	t.Fatalf("%s: no assertion on line %d", file, line)
	return nil, CheckResult{}
}

// lineOf returns the first line of file starting with text (after
// indentation).
func lineOf(t *testing.T, file, text string) int {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), text) {
			return i + 1
		}
	}
	t.Fatalf("%s: no line with %q", file, text)
	return 0
}

func nodeOn(sl *Slice, tmpl string, line int) *SliceNode {
	for _, n := range sl.Nodes {
		if n.Template == tmpl && n.Pos.Line == line {
			return n
		}
	}
	return nil
}

// The slice of Appendix A without the consumer lock (DESIGN.md Appendix
// A): the assertion after the unlocked decrement fails because another
// consumer decrements too (an interference edge from the decrement into
// the decrement's own load, no lock held), and the producers' increment
// and reset (under plock, which the consumer does not take) feed it.
func TestSliceAppendixANoLock(t *testing.T) {
	const file = "../testdata/check/appendix_a_nolock.c"
	res, c := sliceOf(t, file, lineOf(t, file, "__VERIFIER_assert(counter >= 0)"))
	if c.Status != Unproven {
		t.Fatalf("assertion is %v, want unproven", c.Status)
	}
	sl := res.Slice(c)
	if sl == nil {
		t.Fatal("no slice for an unproven check")
	}
	if sl.Nodes[0].Kind != NodeCheck || sl.Nodes[0].Pos.Line != c.Check.Pos.Line {
		t.Errorf("node 0 is %+v, want the check", sl.Nodes[0])
	}
	if !strings.Contains(sl.Failing, "in [-2147483648, -1]") {
		t.Errorf("failing = %q, want the negative values", sl.Failing)
	}
	dec := nodeOn(sl, "consumer", lineOf(t, file, "counter = counter - 1"))
	inc := nodeOn(sl, "producer", lineOf(t, file, "counter = counter + 1"))
	reset := nodeOn(sl, "producer", lineOf(t, file, "counter = 0;"))
	if dec == nil || inc == nil || reset == nil {
		t.Fatalf("slice lacks the decrement (%v), the increment (%v) or the reset (%v):\n%s", dec != nil, inc != nil, reset != nil, dumpSlice(sl))
	}
	if dec.Kind != NodeWrite || len(dec.Locks) != 0 {
		t.Errorf("decrement: kind %v locks %v, want an unlocked write", dec.Kind, dec.Locks)
	}
	if reset.Kind != NodeSource || reset.Introduces != "constant 0" {
		t.Errorf("reset: kind %v introduces %q", reset.Kind, reset.Introduces)
	}
	var seqDec, selfDec, incInterf, resetInterf bool
	for _, e := range sl.Edges {
		switch {
		case e.From == dec.ID && e.To == 0 && !e.Interference:
			seqDec = true
		case e.From == dec.ID && e.To == dec.ID && e.Interference:
			selfDec = e.Writer == "consumer" && len(e.WriterLocks) == 0 && !e.WriterAtomic
		case e.From == inc.ID && e.Interference && !e.Back:
			incInterf = incInterf || (e.Writer == "producer" && strings.Join(e.WriterLocks, ",") == "plock")
		case e.From == reset.ID && e.Interference && !e.Back:
			resetInterf = resetInterf || (e.Writer == "producer" && strings.Join(e.WriterLocks, ",") == "plock")
		}
	}
	if !seqDec || !selfDec || !incInterf || !resetInterf {
		t.Errorf("edges: decrement→check %v, decrement in another consumer (no lock) %v, increment under plock %v, reset under plock %v:\n%s",
			seqDec, selfDec, incInterf, resetInterf, dumpSlice(sl))
	}
	for _, e := range sl.Edges {
		for _, v := range e.Vars {
			if v.Bad.IsEmpty() || !v.Carried.Includes(v.Bad) {
				t.Errorf("edge %d→%d: bad %v not inside carried %v", e.From, e.To, v.Bad, v.Carried)
			}
		}
	}
}

// A proven check (Appendix A with both locks) has no slice; nor has an
// unreachable one.
func TestSliceProvenHasNone(t *testing.T) {
	const file = "../testdata/check/appendix_a.c"
	res, c := sliceOf(t, file, lineOf(t, file, "__VERIFIER_assert(counter >= 0)"))
	if c.Status != Proven {
		t.Fatalf("assertion is %v, want proven", c.Status)
	}
	if sl := res.Slice(c); sl != nil {
		t.Errorf("proven check has a slice:\n%s", dumpSlice(sl))
	}
	for _, c := range res.Checks {
		if sl := res.Slice(c); (sl == nil) != (c.Status != Unproven) {
			t.Errorf("%v check at line %d: slice %v", c.Status, c.Check.Pos.Line, sl != nil)
		}
	}
}

// The fixtures of testdata/slice mark lines: "// slice: check" (the
// assertion explained), "// slice: in [source] [interference] [locked] [atomic]"
// (a statement of the slice: introducing bad values; the source of an
// interference edge; written under a lock; in an atomic section), "// slice: out" (must not be
// in the slice); "// slice: check any": the slice has the ⊥ source.
func TestSliceFixtures(t *testing.T) {
	files, _ := filepath.Glob("../testdata/slice/*.c")
	if len(files) < 3 {
		t.Fatalf("only %d slice fixtures", len(files))
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			marks := map[int][]string{}
			check := 0
			f, err := os.Open(file)
			if err != nil {
				t.Fatal(err)
			}
			sc := bufio.NewScanner(f)
			for n := 1; sc.Scan(); n++ {
				_, m, ok := strings.Cut(sc.Text(), "// slice: ")
				if !ok {
					continue
				}
				words := strings.Fields(m)
				if words[0] == "check" {
					check = n
				}
				marks[n] = words
			}
			f.Close()
			if check == 0 {
				t.Fatal("no // slice: check line")
			}
			res, c := sliceOf(t, file, check)
			sl := res.Slice(c)
			if sl == nil {
				t.Fatalf("no slice (check %v)", c.Status)
			}
			onLine := func(line int) *SliceNode {
				for _, n := range sl.Nodes {
					if n.Pos.Line == line && n.Kind != NodeAny {
						return n
					}
				}
				return nil
			}
			for line, words := range marks {
				n := onLine(line)
				switch words[0] {
				case "check":
					if len(words) > 1 && words[1] == "any" {
						any := false
						for _, n := range sl.Nodes {
							any = any || n.Kind == NodeAny
						}
						if !any {
							t.Errorf("no ⊥ (any value) node")
						}
					}
				case "out":
					if n != nil {
						t.Errorf("line %d is in the slice (%v)", line, n.Actions)
					}
				case "in":
					if n == nil {
						t.Errorf("line %d is not in the slice", line)
						continue
					}
					for _, w := range words[1:] {
						switch w {
						case "source":
							if n.Kind != NodeSource {
								t.Errorf("line %d: kind %v, want source", line, n.Kind)
							}
						case "interference", "locked", "atomic":
							found := false
							for _, e := range sl.Edges {
								if e.From == n.ID && e.Interference && (w != "locked" || len(e.WriterLocks) > 0) && (w != "atomic" || e.WriterAtomic) {
									found = true
								}
							}
							if !found {
								t.Errorf("line %d: no %s interference edge out of it", line, w)
							}
						default:
							t.Fatalf("line %d: unknown mark %q", line, w)
						}
					}
				}
			}
			if t.Failed() {
				t.Log(dumpSlice(sl))
			}
		})
	}
}

// The budget cuts statements and says so.
func TestSliceBudget(t *testing.T) {
	const file = "../testdata/check/appendix_a_nolock.c"
	res, c := sliceOf(t, file, lineOf(t, file, "__VERIFIER_assert(counter >= 0)"))
	full := res.Slice(c)
	sl := res.Slice(c, WithSliceStatements(3))
	if len(sl.Nodes) != 3 || sl.CutStatements != len(full.Nodes)-3 || sl.Cut == "" {
		t.Errorf("budget 3: %d nodes, %d cut (of %d), cut %q", len(sl.Nodes), sl.CutStatements, len(full.Nodes), sl.Cut)
	}
	for _, e := range sl.Edges {
		if e.From >= 3 || e.To >= 3 {
			t.Errorf("edge %d→%d leaves the shown nodes", e.From, e.To)
		}
	}
	if sl := res.Slice(c, WithSliceSteps(2)); !sl.Truncated || !strings.Contains(sl.Cut, "stopped") {
		t.Errorf("step budget 2: truncated %v, cut %q", sl.Truncated, sl.Cut)
	}
}

func dumpSlice(sl *Slice) string {
	var b strings.Builder
	for _, n := range sl.Nodes {
		b.WriteString(strings.Join([]string{"  N", itoa(n.ID), " ", n.Kind.String(), " ", n.Template, " line ", itoa(n.Pos.Line), " ", strings.Join(n.Actions, "; "), "\n"}, ""))
	}
	for _, e := range sl.Edges {
		b.WriteString("  N" + itoa(e.From) + " -> N" + itoa(e.To) + " " + e.Label())
		if e.Interference {
			b.WriteString(" [interference " + e.Writer + " locks " + strings.Join(e.WriterLocks, ",") + "]")
		}
		if e.Back {
			b.WriteString(" [back]")
		}
		b.WriteString("\n")
	}
	return b.String()
}

func itoa(n int) string { return strconv.Itoa(n) }
