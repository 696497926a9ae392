// chorus: --checks assert --domain octagon
// Like monotone_counter.c, but another thread may reset value to 0 and
// write max without comparing first: neither global only grows, so the
// assertions after the unlock can fail (the check at the fixpoint drops
// both, analysis/monotone.go).
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

unsigned value = 0;
int max = 0;
pthread_mutex_t m;

void *inc(void *arg) {
  unsigned v = 0;
  int e = __VERIFIER_nondet_int();
  pthread_mutex_lock(&m);
  if (value == 4294967295u) {
    pthread_mutex_unlock(&m);
    return 0;
  }
  v = value;
  value = v + 1;
  if (e > max)
    max = e;
  pthread_mutex_unlock(&m);
  __VERIFIER_assert(value > v); // want assert:unproven
  __VERIFIER_assert(e <= max); // want assert:unproven
  return 0;
}

void *reset(void *arg) {
  int e = __VERIFIER_nondet_int();
  pthread_mutex_lock(&m);
  value = 0;
  if (e < 5)
    max = e;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, inc, 0);
  pthread_create(&t, 0, reset, 0);
  return 0;
}
