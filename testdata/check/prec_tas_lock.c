// chorus: --checks assert --domain octagon
// A test-and-set spin lock (cfg/taslock.go): TAS atomically reads the
// lock word into *o and sets it to 1; the thread loops until it read 0.
// The word only ever holds 0 or 1, so the section is an acquire (word
// was 0) or no change (word was 1), and "lock = 0" is the release. Any
// number of threads run the critical section one at a time.
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
  __VERIFIER_assert(cond != lock); // want assert:proven
  c++;
  __VERIFIER_assert(c == 1); // want assert:proven
  c--;
  __VERIFIER_assert(lock != 0); // want assert:proven
  lock = 0;
  return 0;
}

int main(void) {
  pthread_t t;
  while (1)
    pthread_create(&t, 0, thr, 0);
  return 0;
}
