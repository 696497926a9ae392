// chorus: --checks assert
// Broken: without the lock two threads pass the test at x = 9 and both
// increment: x = 11.
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

int x = 0;

void *worker(void *arg) {
  if (x < 10)
    x = x + 1;
  __VERIFIER_assert(x <= 10); // want assert:unproven
  return 0;
}

int main(void) {
  pthread_t t;
  while (__VERIFIER_nondet_int())
    pthread_create(&t, 0, worker, 0);
  return 0;
}
