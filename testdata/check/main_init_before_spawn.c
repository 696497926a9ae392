// chorus: --checks assert
// main's writes before its first spawn pair with no thread: the workers see
// only the final value.
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

int limit;
int ready;

void *worker(void *arg) {
  __VERIFIER_assert(limit == 10); // want assert:proven
  __VERIFIER_assert(ready == 1);  // want assert:proven
  return 0;
}

int main(void) {
  pthread_t t;
  limit = 3;
  limit = limit + 7;
  ready = 1;
  while (__VERIFIER_nondet_int())
    pthread_create(&t, 0, worker, 0);
  return 0;
}
