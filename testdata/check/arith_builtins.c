// chorus: --checks assert,bounds
// GCC's overflow and bit builtins (cfg/valuebuiltins.go). They were
// unknown externals: any result, and every address-taken global havocked
// at each call. Every assert marked proven holds in gcc's binary; the
// unproven one fails when x + y overflows.
#include <assert.h>
#include <limits.h>
extern int __VERIFIER_nondet_int(void);
unsigned tbl[33];
int g;
int *pg = &g;
int main(void) {
  int r;
  unsigned u;
  unsigned long long ull;
  int x = __VERIFIER_nondet_int(), y = __VERIFIER_nondet_int();
  assert(!__builtin_add_overflow(1, 2, &r) && r == 3);               // want assert:proven
  assert(__builtin_add_overflow(INT_MAX, 1, &r) && r == INT_MIN);    // want assert:proven
  assert(__builtin_sub_overflow(0u, 1u, &u) && u == UINT_MAX);       // want assert:proven
  assert(!__builtin_umulll_overflow(3ULL, 5ULL, &ull) && ull == 15); // want assert:proven
  assert(!__builtin_add_overflow_p(1, 2, (int)0));                   // want assert:proven
  int z = 7;
  assert(!__builtin_add_overflow(z, 1, &z) && z == 8); // want assert:proven
  unsigned v = (unsigned)__VERIFIER_nondet_int();
  tbl[__builtin_popcount(v)] = 1; // want bounds:proven
  if (v)
    tbl[__builtin_clz(v)] = 1; // want bounds:proven
  assert(__builtin_parity(v) <= 1);              // want assert:proven
  assert(__builtin_bswap32(v) != 0 || g == 0);   // want assert:proven
  int s = __builtin_sadd_overflow(x, y, &r);
  assert(s == 0); // want assert:unproven
  return 0;
}
