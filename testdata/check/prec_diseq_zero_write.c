// chorus: --checks assert --domain octagon
// Like prec_diseq_seed.c, but one thread stores 0 into seed: the
// disequality seed != 0 must not survive that interference edge.
typedef unsigned long pthread_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);

int seed = 1;

int next(int old) {
  int c;
  do
    c = __VERIFIER_nondet_int();
  while (c == old || c == 0);
  return c;
}

void *thr(void *arg) {
  __VERIFIER_assert(seed != 0); // want assert:unproven
  seed = next(seed);
  return 0;
}

void *reset(void *arg) {
  seed = 0;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, reset, 0);
  while (1)
    pthread_create(&t, 0, thr, 0);
  return 0;
}
