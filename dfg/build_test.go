package dfg

import (
	"context"
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
