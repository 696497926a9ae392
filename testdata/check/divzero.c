// chorus: --checks divzero
// Division by zero: a tested local divisor is safe; a shared divisor that
// another thread may reset to 0 between the test and the division is not.
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

int g = 1;

void *reset(void *arg) {
  g = 0;
  g = 1;
  return 0;
}

void *divide(void *arg) {
  int d = __VERIFIER_nondet_int();
  int r = 0;
  if (d != 0)
    r = 100 / d; // want divzero:proven
  if (g != 0)
    r = 100 / g; // want divzero:unproven
  return 0;
}

int main(void) {
  pthread_t t;
  while (__VERIFIER_nondet_int()) {
    pthread_create(&t, 0, reset, 0);
    pthread_create(&t, 0, divide, 0);
  }
  return 0;
}
