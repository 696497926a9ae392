package cfg_test

import (
	"slices"
	"testing"

	"chorus/cfg"
	"chorus/explore"
)

// tlsProgram mixes thread-local and shared globals; some assertions hold
// only because each thread has its own copy starting at the initializer,
// others fail.
const tlsProgram = `
typedef unsigned long pthread_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);
__thread int mine = 3;
int shared = 0;
void *worker(void *arg) {
  __VERIFIER_assert(mine == 3);   /* holds: a new thread starts at the initializer */
  mine = mine + 1;
  shared = mine;
  __VERIFIER_assert(mine == 4);   /* holds: no other thread writes this copy */
  __VERIFIER_assert(shared == 4); /* holds: every writer writes 4 */
  __VERIFIER_assert(shared == 0); /* fails */
  return 0;
}
int main(void) {
  pthread_t t;
  mine = 7;
  pthread_create(&t, 0, worker, 0);
  pthread_create(&t, 0, worker, 0);
  __VERIFIER_assert(mine == 7);   /* holds */
  __VERIFIER_assert(shared == 0); /* fails */
  return 0;
}
`

// TestThreadLocalRewriteKeepsExecutions explores the program lowered with
// thread-local globals as locals (tls.go) and without (the interpreter
// gives each thread its own copy of a ThreadLocal global): the same
// checks fail, and the rewrite did replace the register.
func TestThreadLocalRewriteKeepsExecutions(t *testing.T) {
	failed := func(opts cfg.Options) ([]int, *cfg.Program) {
		p, err := cfg.Build("tls.c", []byte(tlsProgram), opts)
		if err != nil {
			t.Fatal(err)
		}
		res, err := explore.Explore(p, explore.Options{MaxInstances: 2})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Complete {
			t.Fatal("exploration incomplete")
		}
		var ids []int
		for _, f := range res.Failures {
			ids = append(ids, f.Event.Check.ID)
		}
		slices.Sort(ids)
		return ids, p
	}
	got, p := failed(cfg.Options{})
	want, _ := failed(cfg.Options{NoThreadLocals: true})
	if !slices.Equal(got, want) {
		t.Fatalf("failing checks with thread-locals as locals %v, as the interpreter's per-thread globals %v", got, want)
	}
	if len(want) != 2 {
		t.Fatalf("want the two shared == 0 assertions to fail, got checks %v", want)
	}
	for _, tm := range p.Templates {
		for _, l := range tm.Locs {
			for _, v := range cfg.ModVars(l.Act) {
				if v.ThreadLocal {
					t.Errorf("%s: %v still writes the thread-local global %s", tm.Name, l.Act, v.Name)
				}
			}
		}
	}
}
