// chorus: --checks assert,shift | --domain octagon --checks assert,shift
// A signed left shift into the sign bit wraps (GCC defines it; cfg puts no
// overflow check before a shift). The analysis clamped signed Shl as if an
// overflow check guarded it: main's binary proved `r > 0` below (r is
// INT_MIN when n is 31) and the negation of the bit-field asserts (signed
// bit-fields are extracted with a signed 64-bit left shift). Every assert
// marked proven holds in gcc's binary; the unproven ones fail in some run.
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
struct { int a : 3; unsigned b : 2; } s;
int main(void) {
  int n = 31, v = 1;
  if (__VERIFIER_nondet_int())
    n = 30;
  int r = v << n; // want shift:proven
  assert(r > 0); // want assert:unproven
  assert(r != 0); // want assert:proven
  s.a = 3;
  s.a++;
  s.b = 3;
  s.b++;
  assert(s.a == -4 && s.b == 0); // want assert:proven
  return 0;
}
