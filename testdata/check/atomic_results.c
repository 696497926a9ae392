// chorus: --checks assert,overflow | --domain octagon --checks assert,overflow
// GCC's atomic builtins return *p's type (cc types them as implicit int:
// __sync_add_and_fetch on a long returned its sum truncated to 32 bits, so
// the first assert was proven), and their arithmetic wraps (C11 7.17.7.5;
// a signed sum was clamped, so the code after an overflowing
// atomic_fetch_add was unreachable). Asserts marked unproven fail in gcc's
// binary (each on its own branch: a failing assert ends its path).
#include <assert.h>
#include <stdatomic.h>
extern int __VERIFIER_nondet_int(void);
_Atomic long long g = 1LL << 40;
int main(void) {
  int k = __VERIFIER_nondet_int();
  if (k == 0) {
    long v = 1;
    long r = __sync_add_and_fetch(&v, 1L << 40);
    assert(r != (1L << 40) + 1); // want assert:unproven
  } else if (k == 1) {
    long long o = atomic_fetch_add(&g, 1);
    assert(o != 1LL << 40); // want assert:unproven
  } else if (k == 2) {
    _Atomic signed char c = 127;
    atomic_fetch_add(&c, 1);
    assert(c != -128); // want assert:unproven
  } else if (k == 3) {
    int v = 2147483647;
    __sync_fetch_and_add(&v, 1);
    assert(v != -2147483647 - 1); // want assert:unproven
  }
  return 0;
}
