// chorus: --checks assert
// Two threads of one function, each in its own handle, both joined
// (interference/join.go, spawn classes): after the second join neither
// can write g, so main's write is the last one. The first join alone
// leaves the other instance running.
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

pthread_mutex_t m;
int g = 10;

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  g = 20;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  g = 12;
  __VERIFIER_assert(g == 12); // want assert:unproven
  pthread_join(b, 0);
  g = 12;
  __VERIFIER_assert(g == 12); // want assert:proven
  return 0;
}
