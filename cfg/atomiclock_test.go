package cfg

import "testing"

// TestAtomicLockNarrowWord: lock words of type _Bool and unsigned char,
// compared as int after the usual promotion ((i32)t == 1), are rewritten
// into Acquire / Release like int words; a narrowing comparison is not.
func TestAtomicLockNarrowWord(t *testing.T) {
	const src = `
extern void __VERIFIER_assume(int);
volatile _Bool B = 0;
volatile unsigned char C = 0;
volatile int W = 0;
void __VERIFIER_atomic_acquire_b(void) { if (!(B == 0)) __VERIFIER_assume(0); B = 1; }
void __VERIFIER_atomic_release_b(void) { if (!(B == 1)) __VERIFIER_assume(0); B = 0; }
void __VERIFIER_atomic_acquire_c(void) { __VERIFIER_assume(C == 0); C = 1; }
void __VERIFIER_atomic_release_c(void) { __VERIFIER_assume(C == 1); C = 0; }
/* (unsigned char)W == 0 also holds for W == 256: not a lock. */
void __VERIFIER_atomic_acquire_w(void) { __VERIFIER_assume((unsigned char)W == 0); W = 1; }
int main(void) {
  __VERIFIER_atomic_acquire_b(); __VERIFIER_atomic_release_b();
  __VERIFIER_atomic_acquire_c(); __VERIFIER_atomic_release_c();
  __VERIFIER_atomic_acquire_w();
  return 0;
}
`
	p, err := Build("locks.c", []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	acq, rel := map[string]bool{}, map[string]bool{}
	name := func(lv LValue) string {
		switch x := lv.(type) {
		case *VarRef:
			return x.Var.Name
		case *Deref:
			if len(x.Cells) == 1 {
				return x.Cells[0].Name
			}
		}
		return "?"
	}
	for _, l := range p.Locs {
		switch a := l.Act.(type) {
		case *Acquire:
			acq[name(a.Lock)] = true
		case *Release:
			if a.Custom {
				rel[name(a.Lock)] = true
			}
		}
	}
	for _, w := range []string{"B", "C"} {
		if !acq[w] || !rel[w] {
			t.Errorf("lock word %s: acquire %v, custom release %v; want both", w, acq[w], rel[w])
		}
	}
	if acq["W"] {
		t.Errorf("(unsigned char)W == 0 was taken for W == 0: W rewritten as a lock")
	}
}
