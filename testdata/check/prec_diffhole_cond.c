// chorus: --checks assert --domain octagon
// Difference holes (domains/diffholes.go) with flag-infeasible edges
// (dfg/flagpath.go): z records whether x == y; on the path where z is 1
// only the branch x != y reaches the assert, and assume(x != y) records
// the hole x - y != 0, which octagons alone cannot hold. The unsafe
// asserts take the opposite branch's fact.
typedef unsigned long pthread_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);

void *thr(void *arg) {
  int x = __VERIFIER_nondet_int();
  int y = __VERIFIER_nondet_int();
  int z;
  if (x == y)
    z = 0;
  else
    z = 1;
  if (z == 0) {
    __VERIFIER_assert(x == y); // want assert:proven
    __VERIFIER_assert(x != y); // want assert:unproven
  } else {
    __VERIFIER_assert(x != y); // want assert:proven
    __VERIFIER_assert(x == y + 1); // want assert:unproven
  }
  int w = x - y;
  if (z != 0)
    __VERIFIER_assert(w != 0); // want assert:proven
  return 0;
}

int main(void) {
  pthread_t t;
  while (1)
    pthread_create(&t, 0, thr, 0);
  return 0;
}
