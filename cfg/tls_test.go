package cfg_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"chorus/cfg"
	"chorus/explore"
	"chorus/oracle/gen"
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

// failedAt explores src lowered with opts (two instances per template,
// inputs in lo..hi) and lists the positions of the checks that fail; ok
// is false when the search does not complete.
func failedAt(t *testing.T, name, src string, opts cfg.Options, lo, hi int64) (pos []string, ok bool) {
	t.Helper()
	p, err := cfg.Build(name, []byte(src), opts)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	res, err := explore.Explore(p, explore.Options{MaxInstances: 2, HavocMin: lo, HavocMax: hi, MaxStates: 50_000,
		Timeout: 10 * time.Second, Reduce: true})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	for _, f := range res.Failures {
		pos = append(pos, f.Event.Check.Pos.String())
	}
	slices.Sort(pos)
	return pos, res.Complete
}

// TestThreadLocalRewriteGenerated: on the generated programs that declare
// a global __thread (oracle/gen/prec.go: one seed in five), the program
// with thread-local globals as locals of each template fails exactly the
// checks of the program run with the interpreter's per-thread copies. The
// soundness oracle cannot see a wrong rewrite (it explores the rewritten
// program), so this differential test is its ground truth.
func TestThreadLocalRewriteGenerated(t *testing.T) {
	want := 25
	if testing.Short() {
		want = 8
	}
	compared, failing := 0, 0
	for seed := int64(3); seed < 2000 && compared < want; seed += 5 {
		prog := gen.Generate(seed, gen.Options{})
		if !slices.ContainsFunc(prog.Globals, func(v *gen.Var) bool { return v.ThreadLocal }) {
			continue
		}
		name, src := fmt.Sprintf("gen%d.c", seed), prog.C()
		lo, hi := prog.NondetRange()
		got, ok1 := failedAt(t, name, src, cfg.Options{}, lo, hi)
		ref, ok2 := failedAt(t, name, src, cfg.Options{NoThreadLocals: true}, lo, hi)
		if !ok1 || !ok2 {
			continue
		}
		compared++
		if len(ref) > 0 {
			failing++
		}
		if !slices.Equal(got, ref) {
			t.Errorf("%s: failing checks with thread-locals as locals %v, with per-thread globals %v", name, got, ref)
		}
	}
	t.Logf("%d generated programs with a __thread global compared (%d with failing checks)", compared, failing)
	if compared < want {
		t.Errorf("only %d programs compared, want %d", compared, want)
	}
}
