package interference

import (
	"path/filepath"
	"testing"

	"chorus/cfg"
	"chorus/dfg"
)

// counterFactsOf builds a fixture and returns its counter bounds for the
// variable named name, by the line of their location.
func counterFactsOf(t *testing.T, fixture, name string, opts ...Option) map[int][2]int64 {
	t.Helper()
	p, err := cfg.BuildFile(filepath.Join("..", "testdata", "check", fixture), cfg.Options{})
	if err != nil {
		t.Fatal(err)
	}
	part := dfg.NewPartition(p, false)
	e, err := New(p, dfgCells{dfg.New(p, part), part}, append(opts, WithoutZ3())...)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	out := map[int][2]int64{}
	for _, f := range e.CounterFacts() {
		if f.Var.Name != name {
			continue
		}
		b, ok := out[f.Loc.Pos.Line]
		if !ok {
			b = [2]int64{f.Lo, f.Hi}
		}
		b[0], b[1] = min(b[0], f.Lo), max(b[1], f.Hi)
		out[f.Loc.Pos.Line] = b
	}
	return out
}

// TestCounterNotBeforeInit: no bound where the initial value is not yet
// written (main's InitGlobals location; found by the oracle, seed 7134).
func TestCounterNotBeforeInit(t *testing.T) {
	p, err := cfg.Build("init.c", []byte("int g2 = -1;\nint main(void) {\n  if (g2) {\n    g2 = g2 + 1;\n  }\n  return 0;\n}\n"), cfg.Options{})
	if err != nil {
		t.Fatal(err)
	}
	part := dfg.NewPartition(p, false)
	e, err := New(p, dfgCells{dfg.New(p, part), part}, WithoutZ3())
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	n := 0
	for _, f := range e.CounterFacts() {
		if _, ok := f.Loc.Act.(*cfg.InitGlobals); ok {
			t.Errorf("a bound %d..%d on %s before InitGlobals", f.Lo, f.Hi, f.Var.Name)
		}
		n++
	}
	if n == 0 {
		t.Errorf("no bound at all on the main-only counter")
	}
}

// TestCounterBounds: the bounds at the readers of the lock-pair fixtures,
// and none where a premise fails (testdata/check/prec_lockpair_*.c).
func TestCounterBounds(t *testing.T) {
	d := counterFactsOf(t, "prec_lockpair_double.c", "count")
	if got, want := d[48], [2]int64{0, 0}; got != want {
		t.Errorf("double, both locks held (line 48): count in %v, want %v", got, want)
	}
	if got, want := d[45], [2]int64{-1, 0}; got != want {
		t.Errorf("double, a held (line 45): count in %v, want %v", got, want)
	}
	// Without the reader's locks the bound takes every holder in.
	m := counterFactsOf(t, "prec_lockpair_double.c", "count", WithUnsoundCounterLocks())
	if got := m[45]; got != [2]int64{0, 0} {
		t.Errorf("double with the lock check off (line 45): count in %v, want the unsound [0 0]", got)
	}
	for _, f := range []string{"prec_lockpair_left.c", "prec_lockpair_nolock.c", "prec_lockpair_race.c"} {
		for line, b := range counterFactsOf(t, f, "count") {
			t.Errorf("%s: a bound %v at line %d", f, b, line)
		}
	}
	n := counterFactsOf(t, "prec_lockpair_nested.c", "x")
	if got, want := n[50], [2]int64{0, 2}; got != want {
		t.Errorf("nested, g held (line 50): x in %v, want %v", got, want)
	}
	if got, want := n[55], [2]int64{0, 1}; got != want {
		t.Errorf("nested, m and g held (line 55): x in %v, want %v", got, want)
	}
}
