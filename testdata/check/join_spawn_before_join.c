// chorus: --checks assert
// second is started before first is joined: first's write may land in
// second although main joins first later (the rule for threads started
// after a join must not apply).
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

int g = 10;

void *first(void *arg) {
  g = 5;
  return 0;
}

void *second(void *arg) {
  __VERIFIER_assert(g == 20); // want assert:unproven
  return 0;
}

int main(void) {
  pthread_t a, b;
  g = 20;
  pthread_create(&a, 0, first, 0);
  pthread_create(&b, 0, second, 0);
  pthread_join(a, 0);
  return 0;
}
