// chorus: --checks assert
// The paper's Figure 2 situation: every thread adds a positive increment to
// the shared c, with no lock. Lost updates cannot make c negative (signed
// overflow is a separate check; proofs assume earlier checks held).
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

int c = 0;

void *adder(void *arg) {
  int incr = __VERIFIER_nondet_int();
  __VERIFIER_assume(incr > 0);
  c = c + incr;
  __VERIFIER_assert(c >= 0); // want assert:proven
  __VERIFIER_assert(c <= 0); // want assert:unproven
  return 0;
}

int main(void) {
  pthread_t t;
  while (__VERIFIER_nondet_int())
    pthread_create(&t, 0, adder, 0);
  return 0;
}
