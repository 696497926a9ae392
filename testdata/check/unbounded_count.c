// chorus: --checks assert
// Unboundedly many increments: the count stays non-negative but has no
// upper bound.
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

int count = 0;
pthread_mutex_t m;

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  if (count < 2000000000)
    count = count + 1;
  __VERIFIER_assert(count >= 0);   // want assert:proven
  __VERIFIER_assert(count < 1000); // want assert:unproven
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t;
  while (__VERIFIER_nondet_int())
    pthread_create(&t, 0, worker, 0);
  return 0;
}
