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
