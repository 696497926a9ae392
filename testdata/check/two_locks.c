// chorus: --checks assert
// Broken: the two kinds of threads protect x with different locks, so the
// test and the increment of one can interleave with the other's.
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
pthread_mutex_t a, b;

void *ta(void *arg) {
  pthread_mutex_lock(&a);
  if (x < 10)
    x = x + 1;
  pthread_mutex_unlock(&a);
  return 0;
}

void *tb(void *arg) {
  pthread_mutex_lock(&b);
  if (x < 10)
    x = x + 1;
  __VERIFIER_assert(x <= 10); // want assert:unproven
  pthread_mutex_unlock(&b);
  return 0;
}

int main(void) {
  pthread_t t;
  while (__VERIFIER_nondet_int()) {
    pthread_create(&t, 0, ta, 0);
    pthread_create(&t, 0, tb, 0);
  }
  return 0;
}
