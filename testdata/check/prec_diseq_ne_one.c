// chorus: --checks assert --domain interval
// The loop excludes 1, not 0: seed != 0 must stay unproven (`x != 1` says
// nothing about 0). seed != 1 holds but is not proven: only 0 is kept as a
// hole (domains/holes.go explains why). seed starts at 2; a join of 2 and
// the writes d <= 0 must not invent t2 != 0 (d may be 0).
typedef unsigned long pthread_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);

int seed = 2;
int t2 = 2;

void *thr(void *arg) {
  __VERIFIER_assert(seed != 1); // want assert:unproven
  __VERIFIER_assert(seed != 0); // want assert:unproven
  int c;
  do
    c = __VERIFIER_nondet_int();
  while (c == 1);
  seed = c;
  __VERIFIER_assert(t2 != 0); // want assert:unproven
  int d = __VERIFIER_nondet_int();
  if (d <= 0)
    t2 = d;
  return 0;
}

int main(void) {
  pthread_t t;
  while (1)
    pthread_create(&t, 0, thr, 0);
  return 0;
}
