package cfg

import (
	"fmt"
	"strings"
	"testing"
)

func lowerBudget(t *testing.T, src string, maxLocs int) (*Program, error) {
	t.Helper()
	p, err := Build("budget.c", []byte(src), Options{DataModel: ILP32, MaxLocs: maxLocs})
	if err == nil {
		if serr := Sanity(p); serr != nil {
			t.Fatalf("Sanity: %v", serr)
		}
	}
	return p, err
}

func budgetNote(p *Program) string {
	for _, a := range p.Assumptions {
		if a.Note && strings.Contains(a.Msg, "budget") {
			return a.Msg
		}
	}
	return ""
}

// A program over its location budget is not an error: calls past the
// budget share bodies, and a note and Program.Coarsened say so.
func TestOverBudgetShares(t *testing.T) {
	var b strings.Builder
	b.WriteString("int g;\nint f(int x) { int y = x + 1; if (y > 3) y = 3; g = g + y; return y; }\nint main(void) {\n  int s = 0;\n")
	for i := range 80 {
		fmt.Fprintf(&b, "  g = g + %d;\n", i)
	}
	for i := range 40 {
		fmt.Fprintf(&b, "  s = s + f(%d);\n", i)
	}
	b.WriteString("  return s;\n}\n")
	p, err := lowerBudget(t, b.String(), 60)
	if err != nil {
		t.Fatal(err)
	}
	if p.Coarsened == "" || budgetNote(p) == "" {
		t.Errorf("over budget without saying so: Coarsened %q, note %q", p.Coarsened, budgetNote(p))
	}
	if len(p.Bodies) == 0 {
		t.Error("no call shares a body")
	}
	// Within budget: nothing said.
	p, err = lowerBudget(t, b.String(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if p.Coarsened != "" || budgetNote(p) != "" {
		t.Errorf("within budget: Coarsened %q, note %q", p.Coarsened, budgetNote(p))
	}
}

// A program that does not fit hardLocFactor times its budget with its
// calls inlined (here: a spawning function, inlined per call in a small
// unit) is lowered again with every call shared, and says so; only code
// that does not fit even then is an error, with the budget named.
func TestFarOverBudgetCoarsens(t *testing.T) {
	var b strings.Builder
	b.WriteString("#include <pthread.h>\nint g, h;\nvoid *thr(void *a) { g++; return 0; }\n")
	b.WriteString("void start(int k) {\n  pthread_t t;\n")
	for i := range 12 {
		fmt.Fprintf(&b, "  if (k > %d) h = h + %d;\n", i, i)
	}
	b.WriteString("  pthread_create(&t, 0, thr, 0);\n}\nint main(void) {\n")
	for i := range 60 {
		fmt.Fprintf(&b, "  start(%d);\n", i)
	}
	b.WriteString("  return 0;\n}\n")
	const budget = 20
	p, err := lowerBudget(t, b.String(), budget)
	if err != nil {
		t.Fatalf("not coarsened: %v", err)
	}
	if !strings.Contains(p.Coarsened, "every call") || !strings.Contains(budgetNote(p), "every call") {
		t.Errorf("Coarsened %q, note %q", p.Coarsened, budgetNote(p))
	}
	if len(p.Locs) >= hardLocFactor*budget {
		t.Errorf("%d locations, over the hard bound %d", len(p.Locs), hardLocFactor*budget)
	}
	shared := false
	for _, bd := range p.Bodies {
		shared = shared || len(bd.Calls) > 1
	}
	if !shared {
		t.Error("the spawning function has no shared body")
	}
	// The same program inlined is over the hard bound: it would have been
	// an error before.
	p, err = lowerBudget(t, b.String(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Locs) < hardLocFactor*budget {
		t.Fatalf("the test program is too small: %d locations inlined", len(p.Locs))
	}

	// Straight-line code alone over the bound: an error, not a panic.
	b.Reset()
	b.WriteString("int g;\nint main(void) {\n")
	for i := range hardLocFactor * budget {
		fmt.Fprintf(&b, "  g = g + %d;\n", i)
	}
	b.WriteString("  return g;\n}\n")
	_, err = lowerBudget(t, b.String(), budget)
	if err == nil || !strings.Contains(err.Error(), "even with every call shared") || !strings.Contains(err.Error(), "budget.c:") {
		t.Errorf("error %v, want a positioned 'too large even with every call shared'", err)
	}
}
