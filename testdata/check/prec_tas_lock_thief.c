// chorus: --checks assert --domain octagon
// Like prec_tas_lock.c, but another thread stores 0 into the lock word
// without holding the lock: mutual exclusion is lost, the release is
// not by the holder (interference/lockset.go drops the lock), and the
// critical section may run in two threads at once.
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

void *thief(void *arg) {
  lock = 0;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, thief, 0);
  while (1)
    pthread_create(&t, 0, thr, 0);
  return 0;
}
