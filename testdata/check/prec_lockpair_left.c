// chorus: --checks assert --domain octagon
// Counter bounds (interference/counter.go), unsafe variant of
// prec_lockpair_double.c: an a-section may leave +1 in count at its
// release, so count grows without bound and count == 0 fails for a
// reader holding both locks.
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
pthread_mutex_t a, b;

void __VERIFIER_atomic_inc(void) { count++; }
void __VERIFIER_atomic_dec(void) { count--; }

void *up(void *arg) {
  pthread_mutex_lock(&a);
  __VERIFIER_atomic_inc();
  __VERIFIER_atomic_dec();
  if (__VERIFIER_nondet_int())
    __VERIFIER_atomic_inc(); // left in count at the release
  pthread_mutex_unlock(&a);
  return 0;
}

void *down(void *arg) {
  pthread_mutex_lock(&b);
  __VERIFIER_atomic_dec();
  __VERIFIER_atomic_inc();
  pthread_mutex_unlock(&b);
  return 0;
}

void *reader(void *arg) {
  pthread_mutex_lock(&a);
  __VERIFIER_assert(count >= -1 && count <= 0); // want assert:unproven
  pthread_mutex_lock(&b);
  __VERIFIER_assert(count == 0); // want assert:unproven
  pthread_mutex_unlock(&b);
  pthread_mutex_unlock(&a);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, reader, 0);
  while (__VERIFIER_nondet_int()) {
    if (__VERIFIER_nondet_int())
      pthread_create(&t, 0, up, 0);
    else
      pthread_create(&t, 0, down, 0);
  }
  return 0;
}
