// chorus: --checks assert --domain octagon
// A lock built from atomic sections that another thread may release
// without holding it (thief): unlike pthread_mutex_unlock, that is
// defined, so the lock gives no mutual exclusion and value == v + 1 can
// fail (the lock is dropped from the must-lockset, interference/lockset.go).
typedef unsigned long pthread_t;
typedef union { char size[24]; long align; } pthread_mutex_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
extern int pthread_join(pthread_t, void **);
extern int pthread_mutex_lock(pthread_mutex_t *);
extern int pthread_mutex_trylock(pthread_mutex_t *);
extern int pthread_mutex_unlock(pthread_mutex_t *);
extern int __VERIFIER_nondet_int(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
extern void __VERIFIER_assume(int);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
extern void __VERIFIER_assert(int);

unsigned value = 0;
int m = 0;

void __VERIFIER_atomic_acquire(void) {
  __VERIFIER_assume(m == 0);
  m = 1;
}
void __VERIFIER_atomic_release(void) {
  __VERIFIER_assume(m == 1);
  m = 0;
}

void *inc(void *arg) {
  unsigned v;
  __VERIFIER_atomic_acquire();
  if (value < 3) {
    v = value;
    value = v + 1;
    __VERIFIER_assert(value == v + 1); // want assert:unproven
  }
  __VERIFIER_atomic_release();
  return 0;
}

void *thief(void *arg) {
  __VERIFIER_atomic_release();
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, inc, 0);
  pthread_create(&t, 0, thief, 0);
  pthread_create(&t, 0, inc, 0);
  return 0;
}
