// chorus: --checks assert
// A thread started after another one is joined (interference/join.go,
// threads started after a template finished): first's writes all
// happened before second starts, so they reach second only as the value
// main had when it spawned second (the join relay, carried into the new
// thread), never as interference. Here main overwrote g, so second sees
// 20 only; h it did not overwrite, so second sees first's 5 (or the
// initial 10, which the relay does not kill).
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
int h = 10;

void *first(void *arg) {
  g = 5;
  h = 5;
  return 0;
}

void *second(void *arg) {
  __VERIFIER_assert(g == 20); // want assert:proven
  __VERIFIER_assert(h >= 5); // want assert:proven
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, first, 0);
  pthread_join(a, 0);
  g = 20;
  pthread_create(&b, 0, second, 0);
  pthread_join(b, 0);
  return 0;
}
