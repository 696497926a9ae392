// chorus: --checks bounds
// The index is read once into a local and tested: in bounds. Testing the
// shared index and reading it again is a time-of-check-to-time-of-use bug.
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

int a[10];
int idx = 0;

void *bump(void *arg) {
  idx = idx + 1;
  return 0;
}

void *use_once(void *arg) {
  int i = idx;
  if (i >= 0 && i < 10)
    a[i] = 1; // want bounds:proven
  return 0;
}

void *use_twice(void *arg) {
  if (idx >= 0 && idx < 10)
    a[idx] = 1; // want bounds:unproven
  return 0;
}

int main(void) {
  pthread_t t;
  while (__VERIFIER_nondet_int()) {
    pthread_create(&t, 0, bump, 0);
    pthread_create(&t, 0, use_once, 0);
    pthread_create(&t, 0, use_twice, 0);
  }
  return 0;
}
