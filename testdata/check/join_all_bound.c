// chorus: --checks assert
// A join-all loop whose bound is a local of main that nothing changes
// between the loops (a nondeterministic count of threads, at most 2).
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

void *worker(void *arg) {
  g = 5;
  return 0;
}

int main(void) {
  pthread_t tid[2];
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(0 <= n && n <= 2);
  for (int i = 0; i < n; i++)
    pthread_create(&tid[i], 0, worker, 0);
  for (int i = 0; i < n; i++)
    pthread_join(tid[i], 0);
  g = 12;
  __VERIFIER_assert(g == 12); // want assert:proven
  return 0;
}
