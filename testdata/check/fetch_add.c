// chorus: --checks assert
// GCC atomic builtins are single atomic steps, and their arithmetic wraps
// (C11 7.17.7.5): with unboundedly many takers, tickets passes INT_MAX and
// turns negative, so neither old >= 0 nor tickets >= 1 holds (they were
// proven while a signed atomic sum was clamped like a plain one).
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

int tickets = 0;

void *taker(void *arg) {
  int old = __sync_fetch_and_add(&tickets, 1);
  __VERIFIER_assert(old >= 0);     // want assert:unproven
  __VERIFIER_assert(tickets >= 1); // want assert:unproven
  __VERIFIER_assert(old < 5);      // want assert:unproven
  return 0;
}

int main(void) {
  pthread_t t;
  while (__VERIFIER_nondet_int())
    pthread_create(&t, 0, taker, 0);
  return 0;
}
