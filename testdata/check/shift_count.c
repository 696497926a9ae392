// chorus: --checks shift,assert | --domain octagon --checks shift,assert
// Shift counts (cfg/expr.go shiftCheck): a count outside [0, width of the
// promoted left operand) is undefined behaviour. A constant count in range
// is no check; a left shift into the sign bit (1 << 31) follows GCC, which
// defines it, and is no check either. The count k that other threads write
// is checked against every value they store.
#include <assert.h>
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
int k = 3;
int big;

void *setter(void *arg) {
  k = 17;
  return 0;
}

void *spoiler(void *arg) {
  big = 40;
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, setter, 0);
  pthread_create(&t2, 0, spoiler, 0);
  int n = __VERIFIER_nondet_int();
  unsigned u = (unsigned)__VERIFIER_nondet_int();
  unsigned x = 1u << n; // want shift:unproven
  if (n >= 0 && n < 32)
    x = 1u << n; // want shift:proven
  if (u < 32)
    x ^= 1u << u; // want shift:proven
  long long w = 0;
  if (n >= 0 && n < 64)
    w = 1LL << n; // want shift:proven
  char c = (char)n;
  if (n >= 8 && n <= 31)
    x = (unsigned)(c << n); // want shift:proven
  int m = __VERIFIER_nondet_int(); // n is in range here: the check above failed otherwise
  if (m >= 0 && m <= 32)
    x >>= m; // want shift:unproven
  if (n > 0 && n < 32)
    x <<= n; // want shift:proven
  int sign = 1 << 31;
  x = x << 0;
  x = x >> k; // want shift:proven
  x = x >> big; // want shift:unproven
  assert((1u << 4) == 16); // want assert:proven
  assert((x >> 31) <= 1); // want assert:proven
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return sign < 0;
}
