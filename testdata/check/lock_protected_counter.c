// chorus: --checks assert
// Lock-protected cells: g is written only under m. Inside critical
// sections of m the other threads' increments arrive through the relay
// after the acquire (interference/protect.go); the bound holds there.
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

int g = 0;
pthread_mutex_t m;

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  if (g < 10)
    g = g + 1;
  __VERIFIER_assert(g <= 10); // want assert:proven
  __VERIFIER_assert(g >= 1);  // want assert:proven
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t;
  while (__VERIFIER_nondet_int())
    pthread_create(&t, 0, worker, 0);
  pthread_mutex_lock(&m);
  __VERIFIER_assert(g >= 0 && g <= 10); // want assert:proven
  __VERIFIER_assert(g == 0);            // want assert:unproven
  pthread_mutex_unlock(&m);
  return 0;
}
