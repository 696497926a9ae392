// chorus: --checks assert --domain octagon
// The shape of lock_local_global.c
// without the lock: another thread may write a smaller value between the
// write and the assertion (it read value before this thread did).
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
pthread_mutex_t m;

void *inc(void *arg) {
  unsigned v;
  if (value < 1000) {
    v = value;
    value = v + 1;
    __VERIFIER_assert(value > v); // want assert:unproven
    __VERIFIER_assert(value == v + 1); // want assert:unproven
  }
  return 0;
}

int main(void) {
  pthread_t t;
  while (__VERIFIER_nondet_int())
    pthread_create(&t, 0, inc, 0);
  return 0;
}
