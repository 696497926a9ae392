package confirm

import (
	"context"
	"testing"
	"time"

	"chorus/cfg"
)

const racy = `
typedef unsigned long pthread_t;
extern int pthread_create(pthread_t *, const void *, void *(*)(void *), void *);
extern int pthread_join(pthread_t, void **);
extern void __VERIFIER_assert(int);
extern void reach_error(void);
extern void abort(void);
int g = 0;
void *inc(void *arg) { g = g + 1; return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, inc, 0);
  pthread_create(&b, 0, inc, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  if (g != 2) { reach_error(); abort(); }
  __VERIFIER_assert(g >= 1);
  return 0;
}
`

func build(t *testing.T, src string) *cfg.Program {
	t.Helper()
	p, err := cfg.Build("racy.c", []byte(src), cfg.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// The lost update needs two workers; the reach_error check sits at a
// location without successors, which Explore must still execute. The
// second assertion always holds and must not be confirmed.
func TestConfirmLostUpdate(t *testing.T) {
	p := build(t, racy)
	if len(p.Checks) < 2 {
		t.Fatalf("want 2 checks, got %d", len(p.Checks))
	}
	nLocs, nSuccs := len(p.Locs), 0
	for _, l := range p.Locs {
		nSuccs += len(l.Succs)
	}
	cex, err := Confirm(context.Background(), p, p.Checks, 2, Budget{Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	var reach, holds *cfg.Check
	for _, c := range p.Checks {
		switch c.Pos.Line {
		case 16:
			reach = c
		case 17:
			holds = c
		}
	}
	if reach == nil || holds == nil {
		t.Fatalf("checks not found: %v", p.Checks)
	}
	if cex[holds] != nil {
		t.Errorf("g >= 1 always holds but was confirmed violated: %+v", cex[holds])
	}
	c := cex[reach]
	if c == nil {
		t.Fatal("lost update not found")
	}
	threads := map[int]bool{}
	for _, s := range c.Schedule {
		threads[s.Thread] = true
	}
	if !threads[1] || !threads[2] || c.Schedule[len(c.Schedule)-1].Pos.Line != 16 {
		t.Errorf("schedule %+v: want both workers and the check last", c.Schedule)
	}
	// Explore restored the IR.
	n := 0
	for _, l := range p.Locs {
		n += len(l.Succs)
	}
	if len(p.Locs) != nLocs || n != nSuccs {
		t.Errorf("IR changed: %d locs, %d edges; was %d, %d", len(p.Locs), n, nLocs, nSuccs)
	}
	// With one worker per template the race is impossible: the same
	// question with k = 1 and a single worker spawn has no answer.
	one, err := Confirm(context.Background(), p, []*cfg.Check{reach}, 1, Budget{Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if one[reach] != nil {
		t.Errorf("k=1 confirmed a race that needs two instances: %+v", one[reach].Schedule)
	}
}

// An unknown external function is havocked by the frontend (a modelling
// assumption): an execution that calls it is not trustworthy, one that
// does not is. The first check fails only after the call (its result
// would have to be 1, which the havoc picks but nothing says the
// real function returns); the second fails on the branch without it,
// after a puts whose result is unused (an output function writes no
// program memory: allowed); the third needs puts to return 1 (its result
// is havocked: not allowed).
const external = `
extern int mystery(int);
extern int puts(const char *);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);
int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x == 0) {
    int y = mystery(x);
    __VERIFIER_assert(y != 1);
  } else {
    puts("bug");
    __VERIFIER_assert(x != 1);
  }
  int r = puts("r");
  __VERIFIER_assert(r != 1);
  return 0;
}
`

func TestConfirmAvoidsAssumptions(t *testing.T) {
	p := build(t, external)
	if len(p.Assumptions) == 0 {
		t.Fatal("the unknown function made no assumption")
	}
	var afterCall, noCall, putsResult *cfg.Check
	for _, c := range p.Checks {
		switch c.Pos.Line {
		case 10:
			afterCall = c
		case 13:
			noCall = c
		case 16:
			putsResult = c
		}
	}
	if afterCall == nil || noCall == nil || putsResult == nil {
		t.Fatalf("checks not found: %v", p.Checks)
	}
	cex, err := Confirm(context.Background(), p, p.Checks, 1, Budget{Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if cex[afterCall] != nil {
		t.Errorf("a violation after the havocked call was reported: %+v", cex[afterCall].Schedule)
	}
	if cex[noCall] == nil {
		t.Errorf("the violation on the branch without the call was not found")
	}
	if cex[putsResult] != nil {
		t.Errorf("a violation that needs puts to return 1 was reported: %+v", cex[putsResult].Schedule)
	}
	for _, c := range cex {
		for _, s := range c.Schedule {
			if s.Pos.Line == 9 {
				t.Errorf("schedule runs the unknown call: %+v", c.Schedule)
			}
		}
	}
}
