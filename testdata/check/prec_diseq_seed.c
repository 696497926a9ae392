// chorus: --checks assert --domain octagon | --checks assert --domain interval
// Disequalities (domains/holes.go): seed starts at 1 and is only ever
// overwritten with a value a loop has checked to be non-zero, so seed != 0
// holds in every thread, however many run; intervals and octagons alone
// join [MIN, -1] and [1, MAX] to the whole range. s is written 1 or -1 by
// different threads: the join of their writes excludes 0 (a sign split).
// g = -k with k != 0 gives g != 0 (a copy keeps the hole). The unsafe
// asserts (in a thread that writes nothing) check that a hole excludes
// its value only.
typedef unsigned long pthread_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);

int seed = 1;
int s = 1;
int g = 1;

int next(int old) {
  int c;
  do
    c = __VERIFIER_nondet_int();
  while (c == old || c == 0);
  return c;
}

void *thr(void *arg) {
  __VERIFIER_assert(seed != 0); // want assert:proven
  seed = next(seed);
  __VERIFIER_assert(s != 0); // want assert:proven
  s = -1;
  int k = __VERIFIER_nondet_int();
  while (k == 0)
    k = __VERIFIER_nondet_int();
  if (k < 1000)
    g = -k;
  else
    g = 1;
  __VERIFIER_assert(g != 0); // want assert:proven
  return 0;
}

void *other(void *arg) {
  s = 1;
  return 0;
}

// Only reads: a failing assert here stops no writer.
void *observer(void *arg) {
  __VERIFIER_assert(seed != 1); // want assert:unproven
  __VERIFIER_assert(s != 1 && s != -1); // want assert:unproven
  __VERIFIER_assert(g != 1); // want assert:unproven
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, other, 0);
  pthread_create(&t, 0, observer, 0);
  while (1)
    pthread_create(&t, 0, thr, 0);
  return 0;
}
