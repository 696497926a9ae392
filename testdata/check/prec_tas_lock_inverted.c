// chorus: --checks assert --domain octagon
// Like prec_tas_lock.c, but the loop waits while TAS read 0 (it took the
// lock) and leaves when it read 1: the thread enters the critical section
// exactly when another thread holds the lock.
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
  while (cond == 0)
    __VERIFIER_atomic_TAS(&lock, &cond);
  c++;
  __VERIFIER_assert(c == 1); // want assert:unproven
  c--;
  __VERIFIER_assert(lock != 0); // want assert:unproven
  lock = 0;
  return 0;
}

int main(void) {
  pthread_t t;
  while (1)
    pthread_create(&t, 0, thr, 0);
  return 0;
}
