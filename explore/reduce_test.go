package explore

import (
	"fmt"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"chorus/cfg"
	"chorus/oracle/gen"
)

// outcome is what the reduction must preserve: the failed checks, the
// locations of runtime errors, and whether some state deadlocks.
type outcome struct {
	failed, errors []int
	deadlock       bool
}

func outcomeOf(res *Result) outcome {
	var o outcome
	for _, f := range res.Failures {
		o.failed = append(o.failed, f.Event.Check.ID)
	}
	for _, f := range res.Errors {
		o.errors = append(o.errors, f.Event.Loc.ID)
	}
	sort.Ints(o.failed)
	sort.Ints(o.errors)
	o.deadlock = res.Deadlocks > 0
	return o
}

func (o outcome) String() string {
	return fmt.Sprintf("failed checks %v, errors at %v, deadlock %v", o.failed, o.errors, o.deadlock)
}

// compareReduced explores p plainly and with each reduction; it reports
// false (and nothing else) when the plain search does not complete.
func compareReduced(t *testing.T, name string, p *cfg.Program, opts Options, total *[3]int) bool {
	t.Helper()
	opts.Timeout = 20 * time.Second
	plain, err := Explore(p, opts)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if !plain.Complete {
		return false
	}
	want := outcomeOf(plain)
	total[0] += plain.States
	for i, variant := range []struct {
		name       string
		por, reset bool
	}{{"POR", true, false}, {"POR+dead", true, true}} {
		o := opts
		o.Reduce, o.ForgetDead = variant.por, variant.reset
		red, err := Explore(p, o)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !red.Complete {
			t.Errorf("%s: %s search incomplete after %d states (plain: %d)", name, variant.name, red.States, plain.States)
			continue
		}
		if got := outcomeOf(red); got.String() != want.String() {
			t.Errorf("%s: %s: %v, plain: %v", name, variant.name, got, want)
		}
		if red.States > plain.States {
			t.Errorf("%s: %s explored %d states, more than plain %d", name, variant.name, red.States, plain.States)
		}
		total[1+i] += red.States
		replayAll(t, p, red)
	}
	return true
}

// TestReduceFixtures: on every C fixture, the partial-order reduction and
// the dead-register reset reach exactly the failed checks, runtime errors
// and deadlocks of the plain search.
func TestReduceFixtures(t *testing.T) {
	files, _ := filepath.Glob("../testdata/threads/*.c")
	more, _ := filepath.Glob("../testdata/check/*.c")
	files = append(files, more...)
	var total [3]int
	compared := 0
	for _, f := range files {
		p := build(t, f)
		if compareReduced(t, filepath.Base(f), p, Options{MaxInstances: 2, HavocMin: -1, HavocMax: 1, MaxStates: 100_000}, &total) {
			compared++
		}
	}
	t.Logf("%d of %d fixtures compared; states plain %d, POR %d, POR+dead %d", compared, len(files), total[0], total[1], total[2])
	if compared < len(files)/2 {
		t.Errorf("only %d of %d fixtures explored completely", compared, len(files))
	}
}

// TestReduceGenerated: the same on generated programs (the soundness
// oracle's generator), at least 200 of them explored completely.
func TestReduceGenerated(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 40
	}
	var total [3]int
	compared := 0
	for seed := int64(1); seed <= int64(n) && compared < 200; seed++ {
		prog := gen.Generate(seed, gen.Options{})
		name := fmt.Sprintf("gen%d.c", seed)
		p, err := cfg.Build(name, []byte(prog.C()), cfg.Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		lo, hi := prog.NondetRange()
		if compareReduced(t, name, p, Options{MaxInstances: 2, HavocMin: lo, HavocMax: hi, MaxStates: 30_000}, &total) {
			compared++
		}
	}
	t.Logf("%d programs compared; states plain %d, POR %d, POR+dead %d", compared, total[0], total[1], total[2])
	if !testing.Short() && compared < 200 {
		t.Errorf("only %d programs explored completely, want at least 200", compared)
	}
}

func buildSrc(t *testing.T, src string) *cfg.Program {
	t.Helper()
	p, err := cfg.Build("t.c", []byte(src), cfg.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Result.Havocs and Result.Bounded tell confirm which rounds would repeat
// the same search.
func TestHavocsAndBounded(t *testing.T) {
	const decls = `
typedef unsigned long pthread_t;
extern int pthread_create(pthread_t *, const void *, void *(*)(void *), void *);
extern int __VERIFIER_nondet_int(void);
int g;
void *w(void *arg) { g = g + 1; return 0; }
void *v(void *arg) { g = g + 2; return 0; }
`
	cases := []struct {
		name, main string
		havocs     bool
		bounded    bool
	}{
		{"no input", `int main(void) { pthread_t a; pthread_create(&a, 0, w, 0); return 0; }`, false, false},
		{"input read", `int main(void) { int x = __VERIFIER_nondet_int(); if (x > 0) g = 5; return 0; }`, true, false},
		{"input dead", `int main(void) { __VERIFIER_nondet_int(); g = 1; return 0; }`, false, false},
		{"two templates", `int main(void) { pthread_t a, b; pthread_create(&a, 0, w, 0); pthread_create(&b, 0, v, 0); return 0; }`, false, false},
		{"same template twice", `int main(void) { pthread_t a, b; pthread_create(&a, 0, w, 0); pthread_create(&b, 0, w, 0); return 0; }`, false, true},
	}
	for _, c := range cases {
		p := buildSrc(t, decls+c.main)
		for _, reduce := range []bool{false, true} {
			res, err := Explore(p, Options{MaxInstances: 1, HavocMin: 0, HavocMax: 1, Reduce: reduce, ForgetDead: true})
			if err != nil {
				t.Fatal(err)
			}
			if !res.Complete || (res.Havocs > 0) != c.havocs || res.Bounded != c.bounded {
				t.Errorf("%s (reduce %v): complete %v havocs %d bounded %v, want havocs %v bounded %v", c.name, reduce, res.Complete, res.Havocs, res.Bounded, c.havocs, c.bounded)
			}
		}
	}
}
