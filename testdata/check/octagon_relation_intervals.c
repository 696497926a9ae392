// chorus: --checks assert --domain interval
// The same relations with intervals: x > y needs a relation between x and y,
// which intervals cannot hold (a precision gap, not a bug).
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

void *worker(void *arg) {
  int y = __VERIFIER_nondet_int();
  int x;
  __VERIFIER_assume(y < 1000);
  x = y + 1;
  __VERIFIER_assert(x > y); // want assert:unproven
  __VERIFIER_assert(x <= 1000); // want assert:proven
  return 0;
}

int main(void) {
  pthread_t t;
  while (__VERIFIER_nondet_int())
    pthread_create(&t, 0, worker, 0);
  return 0;
}
