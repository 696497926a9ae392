package confirm

import (
	"context"
	"testing"
	"time"

	"chorus/cfg"
	"chorus/cfg/interp"
	"chorus/explore"
)

// confirmAll runs Confirm on every assertion of src with k instances.
func confirmAll(t *testing.T, src string, k int) (map[*cfg.Check]*Counterexample, error) {
	t.Helper()
	p := build(t, src)
	var asserts []*cfg.Check
	for _, c := range p.Checks {
		if c.Kind == cfg.AssertCheck {
			asserts = append(asserts, c)
		}
	}
	return Confirm(context.Background(), p, asserts, k, Budget{Timeout: 10 * time.Second})
}

const pthreadDecls = `
typedef unsigned long pthread_t;
extern int pthread_create(pthread_t *, const void *, void *(*)(void *), void *);
extern int pthread_join(pthread_t, void **);
extern void reach_error(void);
extern void abort(void);
`

// A thread-local flag is each thread's own: one worker's write never
// reaches the other, so the error is unreachable in C (it would be
// reachable if the flag were shared).
const threadLocalFlag = pthreadDecls + `
__thread int mine = 0;
int turn = 0;
void *w(void *arg) {
  if (turn == 0) { turn = 1; mine = 1; return 0; }
  if (mine == 1) { reach_error(); }
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, w, 0);
  pthread_create(&b, 0, w, 0);
  return 0;
}
`

// The same with a shared flag: the second worker sees the first's write.
const sharedFlag = pthreadDecls + `
int mine = 0;
int turn = 0;
void *w(void *arg) {
  if (turn == 0) { turn = 1; mine = 1; return 0; }
  if (mine == 1) { reach_error(); }
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, w, 0);
  pthread_create(&b, 0, w, 0);
  return 0;
}
`

func TestConfirmThreadLocal(t *testing.T) {
	cex, err := confirmAll(t, threadLocalFlag, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(cex) != 0 {
		t.Errorf("thread-local flag: %d violations reported, want none", len(cex))
	}
	cex, err = confirmAll(t, sharedFlag, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(cex) != 1 {
		t.Errorf("shared flag: %d violations reported, want 1", len(cex))
	}
}

// A thread-local array has one instance per thread in C, which the
// interpreter does not model: no counterexample at all.
func TestConfirmThreadLocalObjectRefused(t *testing.T) {
	_, err := confirmAll(t, pthreadDecls+`
__thread int buf[2];
void *w(void *arg) { buf[0] = 1; return 0; }
int main(void) {
  pthread_t a;
  pthread_create(&a, 0, w, 0);
  if (buf[0] == 1) { reach_error(); }
  return 0;
}
`, 2)
	if err != ErrAssumptions {
		t.Errorf("err = %v, want ErrAssumptions", err)
	}
}

// abort() ends the whole program: once the worker has written go and is
// bound for abort() (nothing but its own registers on the way), main
// cannot run on to see go == 1 (it would without the abort).
const abortEnds = pthreadDecls + `
int flag = 0;
int go = 0;
void *w(void *arg) {
  int f = flag;
  if (f == 0) { go = 1; abort(); }
  return 0;
}
int main(void) {
  pthread_t a;
  pthread_create(&a, 0, w, 0);
  if (go == 1) { reach_error(); }
  return 0;
}
`

// The same with a return instead of the abort: main reaches the error.
const noAbort = pthreadDecls + `
int flag = 0;
int go = 0;
void *w(void *arg) {
  int f = flag;
  if (f == 0) { go = 1; return 0; }
  return 0;
}
int main(void) {
  pthread_t a;
  pthread_create(&a, 0, w, 0);
  if (go == 1) { reach_error(); }
  return 0;
}
`

func TestConfirmAbortEndsProgram(t *testing.T) {
	cex, err := confirmAll(t, abortEnds, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(cex) != 0 {
		t.Errorf("error after the worker's abort reported violated")
	}
	cex, err = confirmAll(t, noAbort, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(cex) != 1 {
		t.Errorf("noAbort: %d violations, want 1", len(cex))
	}
}

// Every reported schedule replays in the reference interpreter; a
// schedule with a step removed or a fence crossed does not.
func TestReplayChecks(t *testing.T) {
	p := build(t, racy)
	forbidden, _ := untrustedLocs(p)
	doomed := doomedLocs(p)
	res, err := Explore(p, explore.Options{MaxInstances: 2, HavocMin: 0, HavocMax: 1, Reduce: true, ForgetDead: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Failures) == 0 {
		t.Fatal("no failure found")
	}
	for _, f := range res.Failures {
		if err := replay(p, f.Schedule, f.Event.Check, forbidden, doomed, 2, false); err != nil {
			t.Errorf("%v: %v", f.Event, err)
		}
		short := append(append([]interp.Step(nil), f.Schedule[:len(f.Schedule)/2]...), f.Schedule[len(f.Schedule)/2+1:]...)
		if err := replay(p, short, f.Event.Check, forbidden, doomed, 2, false); err == nil {
			t.Errorf("%v: a schedule without step %d replays", f.Event, len(f.Schedule)/2)
		}
		fence := make([]bool, len(p.Locs))
		fence[p.Locs[f.Schedule[len(f.Schedule)/2].Loc].ID] = true
		if err := replay(p, f.Schedule, f.Event.Check, fence, doomed, 2, false); err == nil {
			t.Errorf("%v: a schedule through a fenced location replays", f.Event)
		}
	}
}

// A bug that needs one particular input value is out of reach of the
// enumerated ranges; solving the path condition of a schedule that
// reaches the check finds the value, and the schedule replays.
const needsValue = pthreadDecls + `
extern int __VERIFIER_nondet_int(void);
int g;
void *w(void *arg) { int x = __VERIFIER_nondet_int(); g = x * 3 - 7; return 0; }
int main(void) {
  pthread_t a;
  pthread_create(&a, 0, w, 0);
  pthread_join(a, 0);
  if (g == 36029) reach_error();
  return 0;
}
`

func TestConfirmSolvesInputs(t *testing.T) {
	cex, err := confirmAll(t, needsValue, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(cex) != 1 {
		t.Fatalf("%d violations, want 1", len(cex))
	}
	for _, x := range cex {
		if !x.Solved {
			t.Errorf("not solved for")
		}
		found := false
		for _, s := range x.Schedule {
			if s.Havoc && s.Value == 12012 {
				found = true
			}
		}
		if !found {
			t.Errorf("no input 12012 in the schedule %+v", x.Schedule)
		}
	}
}
