// chorus: --checks assert
// A read of an uninitialized local: C leaves its value indeterminate,
// the interpreter would read 0 and see the assertion hold. The exploration
// proof treats such a read as a runtime error and proves nothing.
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
int g;

void *worker(void *arg) {
  g = 1;
  return 0;
}

int main(void) {
  pthread_t t;
  int u;
  pthread_create(&t, 0, worker, 0);
  __VERIFIER_assert(u == 0); // want assert:unproven
  return 0;
}
