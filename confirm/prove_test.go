package confirm

import (
	"errors"
	"strings"
	"testing"
	"time"

	"chorus/cfg"
	"chorus/explore"
)

const proveHeader = `
typedef unsigned long pthread_t;
extern int pthread_create(pthread_t *, const void *, void *(*)(void *), void *);
extern int pthread_join(pthread_t, void **);
extern void __VERIFIER_assert(int);
extern int __VERIFIER_nondet_int(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
extern void *malloc(unsigned long);
extern void *calloc(unsigned long, unsigned long);
extern int unknown_function(int);
extern void abort(void);
`

// peterson is Peterson's mutual exclusion for two threads; BODY0 is run
// by thread 0 in its critical section (after x = 0), before the
// assertion x == 0.
const peterson = `
int flag0, flag1, turn, x;
void *thr0(void *arg) {
  flag0 = 1; turn = 1;
  while (flag1 == 1 && turn == 1) {}
  x = 0;
  BODY0
  __VERIFIER_assert(x == 0);
  flag0 = 0;
  return 0;
}
void *thr1(void *arg) {
  flag1 = 1; turn = 0;
  while (flag0 == 1 && turn == 0) {}
  x = 1;
  __VERIFIER_assert(x == 1);
  flag1 = 0;
  return 0;
}
int main(void) {
  pthread_t a, b;
  MAIN
  pthread_create(&a, 0, thr0, 0);
  pthread_create(&b, 0, thr1, 0);
  return 0;
}
`

func petersonWith(body0, main string) string {
	return proveHeader + strings.NewReplacer("BODY0", body0, "MAIN", main).Replace(peterson)
}

func proveSrc(t *testing.T, src string, kinds []cfg.CheckKind, b ProofBudget) (*cfg.Program, *Proof, error) {
	t.Helper()
	p, err := cfg.Build("prove.c", []byte(src), cfg.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if kinds == nil {
		kinds = []cfg.CheckKind{cfg.AssertCheck}
	}
	var checks []*cfg.Check
	for _, c := range p.Checks {
		if c.Kind == cfg.AssertCheck {
			checks = append(checks, c)
		}
	}
	if len(checks) == 0 {
		t.Fatal("no assertion")
	}
	if b.Timeout == 0 {
		b.Timeout = 2 * time.Minute // the machine may be loaded: the state bound decides
	}
	if b.CPUTimeout == 0 {
		// Not the default 1.5 s: on a slow machine the 256 values of
		// uchar_input took more CPU than that ("budget exhausted"); these
		// cases test exactness, not speed.
		b.CPUTimeout = 30 * time.Second
	}
	pr, err := Prove(p, checks, kinds, b)
	return p, pr, err
}

// Peterson is proven; each variant breaks one exactness condition (or
// makes an assertion fail) and must lose the proof of thread 0's
// assertion.
func TestProveConditions(t *testing.T) {
	_, pr, err := proveSrc(t, petersonWith("", ""), nil, ProofBudget{})
	if err != nil || len(pr.Proven) != 2 || pr.Threads != 3 || pr.States == 0 {
		t.Fatalf("Peterson: %v, %+v", err, pr)
	}
	cases := []struct {
		name, body0, main string
		inexact           string // the ErrInexact message part; "" : a proof without thread 0's assertion
		budget            ProofBudget
	}{
		{name: "budget", budget: ProofBudget{MaxStates: 20}, inexact: "budget exhausted"},
		{name: "int input", body0: "if (__VERIFIER_nondet_int() == 7) x = 1;", inexact: "reached"},
		// every value of an unsigned char is tried, not only -1..1
		{name: "uchar input", body0: "if (__VERIFIER_nondet_uchar() == 200) x = 1;"},
		// an int input only compared with 0 takes the values 0 and 1
		{name: "truth input", body0: "if (__VERIFIER_nondet_int()) x = 1;"},
		{name: "uninitialized register", body0: "int u; x = u;", inexact: "runtime error"},
		{name: "uninitialized local object", body0: "int a[2]; a[0] = 0; x = a[1];", inexact: "reached"},
		{name: "malloc", body0: "int *m = malloc(4); x = *m;", inexact: "reached"},
		{name: "unknown function", body0: "x = unknown_function(0);", inexact: "reached"},
		// (a shift by 40 was the runtime error here until shifts got their
		// shift-count check, which fails first)
		{name: "runtime error", body0: "int *np = 0; x = *np - *np;", inexact: "runtime error"},
		{name: "float", body0: "double d = 0.5; x = (int)(d + d) - 1;", inexact: "reached"},
		{name: "spawn bound", main: "for (int i = 0; i < 5; i++) pthread_create(&b, 0, thr1, 0);", budget: ProofBudget{Instances: 2}, inexact: "spawn waited"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, pr, err := proveSrc(t, petersonWith(tc.body0, tc.main), nil, tc.budget)
			if tc.inexact != "" {
				if !errors.Is(err, ErrInexact) || !strings.Contains(err.Error(), tc.inexact) {
					t.Fatalf("want ErrInexact (%s), got %v, %+v", tc.inexact, err, pr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range pr.Proven {
				if c.Func == "thr0" {
					t.Errorf("thread 0's assertion can fail, proven (%d checks in %v)", len(p.Checks), pr)
				}
			}
		})
	}
}

// A well-formed variant of each refused feature is still proven: calloc
// zeroes, a local array read after its thread wrote the element, an
// unsigned char input whose every value passes the assertion.
func TestProveExactVariants(t *testing.T) {
	for _, body0 := range []string{
		"int *m = calloc(1, 4); x = *m;",
		"struct { int f, g; } s; s.g = 0; x = s.g;",
		"unsigned char c = __VERIFIER_nondet_uchar(); if (c > 255) x = 1;",
		"if (__VERIFIER_nondet_int()) x = 0;",
	} {
		_, pr, err := proveSrc(t, petersonWith(body0, ""), nil, ProofBudget{})
		if err != nil || len(pr.Proven) != 2 {
			t.Errorf("%s: %v, %+v", body0, err, pr)
		}
	}
}

// A failed check of a kind not asked for ends its executions: no proof.
// Asked for, it is only itself unproven.
func TestProveUnaskedKindFails(t *testing.T) {
	body0 := "int big = 2147483647; big = big + flag0;" // overflows: flag0 is 1 here
	_, pr, err := proveSrc(t, petersonWith(body0, ""), nil, ProofBudget{})
	if !errors.Is(err, ErrInexact) || !strings.Contains(err.Error(), "not asked for") {
		t.Fatalf("overflow not asked for: want ErrInexact, got %v, %+v", err, pr)
	}
	_, pr, err = proveSrc(t, petersonWith(body0, ""), []cfg.CheckKind{cfg.AssertCheck, cfg.OverflowCheck}, ProofBudget{})
	if err != nil || len(pr.Proven) != 2 {
		t.Fatalf("overflow asked for: %v, %+v", err, pr)
	}
}

// abort() ends only the calling thread in the IR: the other threads go
// on (more executions than C), and the proof still holds.
func TestProveAbortIsSuperset(t *testing.T) {
	_, pr, err := proveSrc(t, petersonWith("", "if (flag0) abort();"), nil, ProofBudget{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range pr.Proven {
		if c.Func == "thr0" || c.Func == "thr1" {
			n++
		}
	}
	if n != 2 {
		t.Fatalf("%d of the threads' assertions proven, want 2", n)
	}
}

// Thread-local objects have one instance for all threads in the
// interpreter: refused.
func TestProveThreadLocalObject(t *testing.T) {
	src := strings.Replace(petersonWith("x = x + use()[0];", ""), "int flag0,", "_Thread_local int tl[2];\nint *use(void) { return tl; }\nint flag0,", 1)
	_, _, err := proveSrc(t, src, nil, ProofBudget{})
	if !errors.Is(err, ErrInexact) {
		t.Fatalf("want ErrInexact, got %v", err)
	}
}

// The mutation tests: each breaks one exactness condition of Prove
// through proveHook, on a program where the condition is what keeps a
// failing assertion from being proven; the broken Prove must prove it
// (else the test, not the condition, keeps the proof out).
func TestProveMutations(t *testing.T) {
	cases := []struct {
		name, src string
		options   func(*explore.Options)
		result    func(*explore.Result)
	}{
		{name: "ignore blocked spawns",
			src:     petersonWith("", "for (int i = 0; i < 3; i++) pthread_create(&b, 0, thr1, 0);"),
			options: func(o *explore.Options) { o.StopWhenBounded = false },
			result:  func(r *explore.Result) { r.Bounded = false }},
		{name: "uninitialized registers read as 0",
			src:     petersonWith("int u; x = u;", ""),
			options: func(o *explore.Options) { o.CheckUninit = false }},
		{name: "havocs take -1..1",
			src:     petersonWith("if (__VERIFIER_nondet_uchar() == 200) x = 1;", ""),
			options: func(o *explore.Options) { o.HavocValues = nil; o.StopAt = nil }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			defer func() { proveHook.options, proveHook.result = nil, nil }()
			proveHook.options, proveHook.result = tc.options, tc.result
			_, pr, err := proveSrc(t, tc.src, nil, ProofBudget{Instances: 1})
			if err != nil {
				t.Fatalf("broken Prove: %v", err)
			}
			found := false
			for _, c := range pr.Proven {
				found = found || c.Func == "thr0"
			}
			if !found {
				t.Fatalf("the broken condition did not prove thread 0's assertion: %+v", pr)
			}
		})
	}
}

// EarlyStop finds a wide input main reads before anything can block, and
// nothing in a program Prove proves.
func TestEarlyStop(t *testing.T) {
	for _, tc := range []struct {
		main string
		stop bool
	}{
		{"", false},
		{"int n = __VERIFIER_nondet_int(); x = n;", true},
		{"if (__VERIFIER_nondet_int()) x = 0;", false},                     // a truth-only input
		{"x = 1; pthread_join(a, 0); x = __VERIFIER_nondet_int();", false}, // after a join: the search decides
		{"pthread_create(&a, 0, reader, 0);", true},                        // a thread main spawns reads one
	} {
		src := strings.Replace(petersonWith("", tc.main), "int main(void)", "void *reader(void *arg) { x = __VERIFIER_nondet_int(); return 0; }\nint main(void)", 1)
		p, err := cfg.Build("prove.c", []byte(src), cfg.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := EarlyStop(p) != nil; got != tc.stop {
			t.Errorf("%q: EarlyStop %v, want %v", tc.main, got, tc.stop)
		}
	}
}

// main(argc, argv) havocs its parameters: when nothing reads them (or
// they are only copied into registers nothing reads), they take one value
// and the proof stands; when one is read, the search stops there.
func TestProveUnreadMainParameters(t *testing.T) {
	withArgs := func(main string) string {
		return strings.Replace(petersonWith("", main), "int main(void)", "int main(int argc, char **argv)", 1)
	}
	for _, main := range []string{"", "int n = argc; int m = n;"} {
		_, pr, err := proveSrc(t, withArgs(main), nil, ProofBudget{})
		if err != nil || len(pr.Proven) != 2 {
			t.Errorf("%q: want both assertions proven, got %v, %+v", main, err, pr)
		}
	}
	for _, main := range []string{"if (argc == 3) turn = 1;", "int n = argc; x = n;", "if (argv[0] == 0) turn = 1;"} {
		_, pr, err := proveSrc(t, withArgs(main), nil, ProofBudget{})
		if !errors.Is(err, ErrInexact) || !strings.Contains(err.Error(), "reached") {
			t.Errorf("%q: want ErrInexact (reached), got %v, %+v", main, err, pr)
		}
	}
}

// When every check to prove has failed, the search stops there (nothing
// is left to prove) instead of running to its budget.
func TestProveStopsWhenAllFailed(t *testing.T) {
	// Without mutual exclusion both assertions fail.
	src := strings.Replace(petersonWith("", ""), "while (flag1 == 1 && turn == 1) {}", "", 1)
	src = strings.Replace(src, "while (flag0 == 1 && turn == 0) {}", "", 1)
	var got *explore.Result
	defer func() { proveHook.result = nil }()
	proveHook.result = func(r *explore.Result) { got = r }
	_, pr, err := proveSrc(t, src, nil, ProofBudget{})
	if !errors.Is(err, ErrInexact) || got == nil {
		t.Fatalf("want ErrInexact after a search, got %v, %+v", err, pr)
	}
	if got.Complete || len(got.Failures) != 2 {
		t.Errorf("want the search stopped at the second failure: complete=%v, %d failures, %d states", got.Complete, len(got.Failures), got.States)
	}
}
