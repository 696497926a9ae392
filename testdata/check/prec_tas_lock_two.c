// chorus: --checks assert --domain octagon
// Like prec_tas_lock.c, but another thread may store 2 into the lock
// word: TAS then reads 2, the loop ends, and the thread enters without
// the lock (the word does not hold only 0 or 1: cfg/taslock.go leaves the
// section alone).
typedef unsigned long pthread_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
extern void __VERIFIER_assert(int);

volatile int lock = 0;
int c = 0;

void __VERIFIER_atomic_TAS(volatile int *v, volatile int *o) {
  *o = *v;
  *v = 1;
}

void *thr(void *arg) {
  int cond;
  __VERIFIER_atomic_TAS(&lock, &cond);
  while (cond == 1)
    __VERIFIER_atomic_TAS(&lock, &cond);
  __VERIFIER_assert(cond != lock); // want assert:unproven
  c++;
  __VERIFIER_assert(c == 1); // want assert:unproven
  c--;
  __VERIFIER_assert(lock != 0); // want assert:unproven
  lock = 0;
  return 0;
}

void *other(void *arg) {
  lock = 2;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, other, 0);
  while (1)
    pthread_create(&t, 0, thr, 0);
  return 0;
}
