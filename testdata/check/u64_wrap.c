// chorus: --checks assert | --domain octagon --checks assert
// 64-bit unsigned arithmetic wraps at 2^64. Values past MaxInt64 have no
// finite bound in the intervals ([MaxInt64, +oo]); a result whose upper
// bound is +oo was taken to fit the type, so main's binary proved every
// assert below, and those marked unproven fail in gcc's binary (each on
// its own branch: a failing assert ends its path).
#include <assert.h>
#include <stddef.h>
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int k = __VERIFIER_nondet_int();
  if (k == 0) {
    unsigned long long a = 18446744073709551615ULL;
    a++;
    assert(a != 0); // want assert:unproven
  } else if (k == 1) {
    unsigned long long b = 1ULL << 63;
    b <<= 1;
    assert(b != 0); // want assert:unproven
  } else if (k == 2) {
    unsigned long long c = 18446744073709551615ULL;
    c += 2;
    assert(c > 1); // want assert:unproven
  } else if (k == 3) {
    unsigned long long e = (unsigned long long)__VERIFIER_nondet_int();
    e = e + 1;
    assert(e != 0); // want assert:unproven
  }
  size_t i = 0;
  i--;
  assert(i > 0); // want assert:proven
  unsigned long long d = 3;
  d = d * 2;
  assert(d == 6); // want assert:proven
  return 0;
}
