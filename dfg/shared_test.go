package dfg

import (
	"strings"
	"testing"

	"chorus/cfg"
	"chorus/domains"
)

// Calls of a shared body (cfg.Options.ShareAll) from several sites with
// different arguments: values flow into the body joined over the call
// sites (context-insensitive), and back to every return site only for
// what the body writes; the caller's other variables bypass the body.
const sharedSrc = `
extern void __VERIFIER_assert(int);
int g;
int inc(int v) { return v + 1; }
void bump(void) { g = g + 1; }
int main(void) {
  int x = 5, a, b;
  a = inc(x);
  __VERIFIER_assert(x == 5); // want proven bypass
  x = 9;
  b = inc(x);
  __VERIFIER_assert(x == 9); // want proven bypass
  __VERIFIER_assert(a >= 6 && a <= 10); // want proven
  __VERIFIER_assert(a == 6); // want unproven
  g = 0;
  bump();
  g = 10;
  bump();
  __VERIFIER_assert(g == 11); // want unproven
  __VERIFIER_assert(g >= 1); // want proven
  return 0;
}
`

func sharedStatuses(t *testing.T, bypass bool) (map[int]Status, map[int]string) {
	t.Helper()
	bypassCell.Store(bypass)
	defer bypassCell.Store(true)
	flagPathsOff.Store(!bypass) // the return-site flag would route values around the body too (flagpath.go)
	defer flagPathsOff.Store(false)
	p, err := cfg.Build("shared.c", []byte(sharedSrc), cfg.Options{ShareAll: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := cfg.Sanity(p); err != nil {
		t.Fatal(err)
	}
	if len(p.Bodies) != 2 {
		t.Fatalf("want shared bodies of inc and bump, got %d", len(p.Bodies))
	}
	s := solve(t, p, false, domains.Intervals)
	got := map[int]Status{}
	for _, c := range p.Checks {
		if c.Kind == cfg.AssertCheck {
			got[c.Pos.Line], _ = s.CheckStatus(c)
		}
	}
	want := map[int]string{}
	for i, l := range strings.Split(sharedSrc, "\n") {
		if _, w, ok := strings.Cut(l, "// want "); ok {
			want[i+1] = w
		}
	}
	return got, want
}

func TestSharedBodyBypass(t *testing.T) {
	got, want := sharedStatuses(t, true)
	names := map[string]Status{"proven": Proven, "unproven": Unproven}
	for line, w := range want {
		ws, _, _ := strings.Cut(w, " ")
		if got[line] != names[ws] {
			t.Errorf("line %d: got %v, want %s", line, got[line], ws)
		}
	}
	// Without the bypass, the caller's locals meet in the body: the facts
	// marked "bypass" are lost (the test shows what the bypass is for).
	off, _ := sharedStatuses(t, false)
	for line, w := range want {
		if strings.HasSuffix(w, "bypass") && off[line] == Proven {
			t.Errorf("line %d: proven without the bypass too (the test does not exercise it)", line)
		}
	}
}
