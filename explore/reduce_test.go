package explore

import (
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"testing"
	"time"

	"chorus/cfg"
	"chorus/cfg/interp"
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
		name            string
		por, reset, dfs bool
	}{{"POR", true, false, false}, {"POR+dead", true, true, false}, {"POR+dead+DFS", true, true, true}} {
		o := opts
		o.Reduce, o.ForgetDead, o.DepthFirst = variant.por, variant.reset, variant.dfs
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
		if red.States > plain.States && !variant.dfs {
			t.Errorf("%s: %s explored %d states, more than plain %d", name, variant.name, red.States, plain.States)
		}
		if i < 2 {
			total[1+i] += red.States
		}
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

// lazyWithin explores p with LazyStart (k running threads, at most spawns
// spawns per template) and plainly with spawns eager instances: lazy
// start only removes executions, so its failed checks and errors must be
// among the plain search's. It reports false when either search is
// incomplete.
func lazyWithin(t *testing.T, name string, p *cfg.Program, opts Options, k, spawns int) bool {
	t.Helper()
	opts.Timeout = 20 * time.Second
	plainOpts := opts
	plainOpts.MaxInstances = spawns
	plain, err := Explore(p, plainOpts)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	lazyOpts := opts
	lazyOpts.MaxInstances, lazyOpts.LazyStart, lazyOpts.MaxSpawns = k, true, spawns
	lazyOpts.Reduce, lazyOpts.ForgetDead = true, true
	lazy, err := Explore(p, lazyOpts)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if !plain.Complete || !lazy.Complete {
		return false
	}
	have := outcomeOf(plain)
	for _, c := range outcomeOf(lazy).failed {
		if !slices.Contains(have.failed, c) {
			t.Errorf("%s: lazy start fails check %d, the plain search does not (%v)", name, c, have)
		}
	}
	for _, l := range outcomeOf(lazy).errors {
		if !slices.Contains(have.errors, l) {
			t.Errorf("%s: lazy start errs at location %d, the plain search does not (%v)", name, l, have)
		}
	}
	for _, f := range lazy.Failures {
		sched, inputs := interp.Replay(f.Schedule)
		run, err := interp.Run(p, sched, interp.RunOptions{Inputs: inputs, Machine: interp.Options{MaxInstances: k, LazyStart: true, MaxSpawns: spawns}})
		if err != nil {
			t.Fatal(err)
		}
		if run.Reason != interp.CheckFailure || run.Failures[0].Event.Check != f.Event.Check || run.Steps != len(f.Schedule) {
			t.Errorf("%s: replay of %s: %v after %d of %d steps", name, f.Event, run.Reason, run.Steps, len(f.Schedule))
		}
	}
	return true
}

// TestLazyStartWithin: on the fixtures and generated programs, lazy
// thread start (one running thread per template, three spawns) finds only
// failures the eager search with three instances finds, and its
// schedules replay.
func TestLazyStartWithin(t *testing.T) {
	files, _ := filepath.Glob("../testdata/threads/*.c")
	more, _ := filepath.Glob("../testdata/check/*.c")
	compared := 0
	for _, f := range append(files, more...) {
		if lazyWithin(t, filepath.Base(f), build(t, f), Options{HavocMin: -1, HavocMax: 1, MaxStates: 100_000}, 1, 3) {
			compared++
		}
	}
	n := 40
	if testing.Short() {
		n = 10
	}
	for seed := int64(1); seed <= int64(n); seed++ {
		prog := gen.Generate(seed, gen.Options{})
		name := fmt.Sprintf("gen%d.c", seed)
		p, err := cfg.Build(name, []byte(prog.C()), cfg.Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		lo, hi := prog.NondetRange()
		if lazyWithin(t, name, p, Options{HavocMin: lo, HavocMax: hi, MaxStates: 20_000}, 1, 3) {
			compared++
		}
	}
	t.Logf("%d programs compared", compared)
	if compared < 20 {
		t.Errorf("only %d programs compared", compared)
	}
}

// A loop spawning many threads of one template with the same argument
// costs one state per spawn with lazy start: the pending threads are
// interchangeable, only the lowest-numbered may start.
func TestLazyStartSpawnLoop(t *testing.T) {
	p := buildSrc(t, `
typedef unsigned long pthread_t;
extern int pthread_create(pthread_t *, const void *, void *(*)(void *), void *);
extern void reach_error(void);
int n;
void *w(void *arg) { n = n + 1; return 0; }
int main(void) {
  pthread_t t;
  for (int i = 0; i < 1000; i++) pthread_create(&t, 0, w, 0);
  if (n == 1000) reach_error();
  return 0;
}
`)
	res, err := Explore(p, Options{MaxInstances: 1, LazyStart: true, MaxSpawns: 1000, Reduce: true, ForgetDead: true, DepthFirst: true,
		Stop: func(Failure) bool { return true }})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Failures) != 1 {
		t.Fatalf("no failure after %d states", res.States)
	}
	t.Logf("found after %d states, schedule of %d steps", res.States, len(res.Failures[0].Schedule))
	replayAll(t, p, res)
}

// abortPaths marks, like confirm's doomedLocs, the abort() calls (an
// Assume of false without successors) and the locations that reach one
// by moves over the thread's own registers only.
func abortPaths(p *cfg.Program) []bool {
	out := make([]bool, len(p.Locs))
	for _, l := range p.Locs {
		if a, ok := l.Act.(*cfg.Assume); ok && len(l.Succs) == 0 {
			if c, ok := a.Cond.(*cfg.Const); ok && c.Value == 0 {
				out[l.ID] = true
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for _, l := range p.Locs {
			if out[l.ID] || len(l.Succs) == 0 || !invisibleAct(l.Act) || mayFail(l.Act) {
				continue
			}
			all := true
			for _, s := range l.Succs {
				all = all && out[s.ID]
			}
			if all {
				out[l.ID] = true
				changed = true
			}
		}
	}
	return out
}

// A thread standing before the way to abort() must be able to wait there
// while the others run: moving onto an Exclusive location disables every
// other thread, so that move is visible to the reduction (reachesExclusive).
// Here the first worker decides on its own registers that it is bound for
// abort(); only while it waits can the second worker reach the error (the
// shape of SV-COMP's 40_barrier_vf with its thread-local flag as a local).
func TestReduceExclusive(t *testing.T) {
	p := buildSrc(t, `
typedef unsigned long pthread_t;
extern int pthread_create(pthread_t *, const void *, void *(*)(void *), void *);
extern void reach_error(void);
extern void abort(void);
int count = 0;
void *w(void *arg) {
  int c = count;
  count = c + 1;
  int mine = c == 1;
  if (!mine) abort();
  reach_error();
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, w, 0);
  pthread_create(&b, 0, w, 0);
  return 0;
}
`)
	exclusive := abortPaths(p)
	if !slices.Contains(exclusive, true) {
		t.Fatal("no location marked exclusive")
	}
	var total [3]int
	if !compareReduced(t, "exclusive", p, Options{MaxInstances: 2, Exclusive: exclusive}, &total) {
		t.Fatal("plain search incomplete")
	}
	plain, err := Explore(p, Options{MaxInstances: 2, Exclusive: exclusive})
	if err != nil {
		t.Fatal(err)
	}
	if len(plain.Failures) != 1 {
		t.Fatalf("plain search: %d failures, want reach_error's", len(plain.Failures))
	}
}
