package dfg

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"chorus/cfg"
	"chorus/domains"
)

// Single-threaded C programs through the real frontend: each assertion's
// expected status is in a comment "// want proven|unproven|unreachable".
const buildSrc = `
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void __VERIFIER_assert(int);
int a[10];
unsigned int u = 0;
int main(void) {
  int i, s = 0;
  for (i = 0; i < 10; i++) {
    a[i] = i;
    __VERIFIER_assert(i >= 0 && i < 10); // want proven
  }
  __VERIFIER_assert(i == 10); // want proven
  __VERIFIER_assert(a[3] <= 9); // want proven
  __VERIFIER_assert(a[3] == 3); // want unproven
  u = u - 1;
  __VERIFIER_assert(u == 4294967295u); // want proven
  int y = __VERIFIER_nondet_int();
  __VERIFIER_assume(y < 1000);
  int x = y + 1;
  __VERIFIER_assert(x > y); // want proven
  if (y > 2000) {
    __VERIFIER_assert(0); // want unreachable
  }
  int d = __VERIFIER_nondet_int();
  if (d != 0) {
    s = 100 / d;
  }
  __VERIFIER_assert(s <= 100); // want proven
  __VERIFIER_assert(s >= 0); // want unproven
  return 0;
}
`

func TestBuiltProgram(t *testing.T) {
	p, err := cfg.Build("seq.c", []byte(buildSrc), cfg.Options{})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(buildSrc, "\n")
	want := map[int]Status{}
	for i, l := range lines {
		if _, w, ok := strings.Cut(l, "// want "); ok {
			want[i+1] = map[string]Status{"proven": Proven, "unproven": Unproven, "unreachable": Unreachable}[strings.TrimSpace(w)]
		}
	}
	s := solve(t, p, true, domains.Octagons)
	seen := map[int]bool{}
	for _, c := range p.Checks {
		w, ok := want[c.Pos.Line]
		if !ok || c.Kind != cfg.AssertCheck {
			continue
		}
		seen[c.Pos.Line] = true
		if got, msg := s.CheckStatus(c); got != w {
			t.Errorf("line %d %s: got %v (%s), want %v", c.Pos.Line, c.Msg, got, msg, w)
		}
	}
	for line := range want {
		if !seen[line] {
			t.Errorf("line %d: no assertion check found", line)
		}
	}
}

func TestNeedAfterSolveRestarts(t *testing.T) {
	p, _, _, checks, g := threadProgram()
	part := NewPartition(p, false)
	gr := New(p, part)
	s := NewSolver(gr, domains.Intervals)
	if err := s.Solve(context.Background()); err != nil {
		t.Fatal(err)
	}
	gr.Need(part.CellOf(g))
	if err := s.Solve(context.Background()); err != nil {
		t.Fatal(err)
	}
	if s.Stats().Solves != 2 || s.Stats().IncrementalSolves != 0 {
		t.Errorf("stats %+v: want a second from-scratch solve", s.Stats())
	}
	for _, l := range p.Locs {
		if st := s.At(l); !st.IsBottom() && st.Cell(part.CellOf(g)) == nil {
			t.Errorf("%v: g not tracked after Need", l)
		}
	}
	wantStatus(t, s, checks[2], Proven)
}

// NeedAt tracks the needed cell only where asked (and where the action
// uses it), and the results stay those of the unrestricted Need there.
func TestNeedAtRestricts(t *testing.T) {
	p, _, _, checks, g := threadProgram()
	part := NewPartition(p, false)
	cg := part.CellOf(g)
	at := func(l *cfg.Loc) bool { return l.ID%2 == 0 }
	gr := New(p, part)
	gr.NeedAt(at, cg)
	base := New(p, part) // no Need: g tracked where actions use it
	restricted := 0
	for _, l := range p.Locs {
		if got, want := gr.Tracks(l, cg), at(l) || base.Tracks(l, cg); got != want {
			t.Errorf("%v: tracks g = %v, want %v", l, got, want)
		}
		if !gr.Tracks(l, cg) {
			restricted++
		}
	}
	if restricted == 0 {
		t.Fatal("NeedAt tracked g everywhere")
	}
	s := NewSolver(gr, domains.Intervals)
	if err := s.Solve(context.Background()); err != nil {
		t.Fatal(err)
	}
	wantStatus(t, s, checks[2], Proven)
}

// A loop head whose widening would climb a long ladder of program
// constants one rung per widening switches to the short ladder after
// thresholdWidenings widenings: the number of widenings stays bounded
// (here 60 constants lie between the start and the loop bound), and
// narrowing still recovers the loop bound.
func TestWideningSwitchesToShortLadder(t *testing.T) {
	var src strings.Builder
	src.WriteString("extern int __VERIFIER_nondet_int(void);\nextern void __VERIFIER_assert(int);\nint main(void) {\n  int x = 0, hits = 0;\n  int k = __VERIFIER_nondet_int();\n")
	for c := 1; c <= 60; c++ {
		fmt.Fprintf(&src, "  if (k == %d) hits++;\n", c*1000)
	}
	src.WriteString("  while (x < 100000) { x = x + 3; }\n  __VERIFIER_assert(x <= 100002);\n  return 0;\n}\n")
	p, err := cfg.Build("ladder.c", []byte(src.String()), cfg.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := len(collectThresholds(p, nil)); got < 3*60 {
		t.Fatalf("only %d thresholds: the ladder is not long", got)
	}
	s := solve(t, p, false, domains.Intervals)
	if w := s.Stats().Widenings; w > 24 { // thresholdWidenings (16) and a few more
		t.Errorf("%d widenings: the head kept climbing the long ladder", w)
	}
	var check *cfg.Check
	for _, c := range p.Checks {
		if c.Kind == cfg.AssertCheck {
			check = c
		}
	}
	wantStatus(t, s, check, Proven)
}
