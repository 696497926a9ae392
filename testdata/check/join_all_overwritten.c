// chorus: --checks assert
// The handle tid[0] is overwritten between the loops: the join loop
// joins the second thread twice and never the first, so no join-all.
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
  for (int i = 0; i < 2; i++)
    pthread_create(&tid[i], 0, worker, 0);
  tid[0] = tid[1];
  for (int i = 0; i < 2; i++)
    pthread_join(tid[i], 0);
  g = 12;
  __VERIFIER_assert(g == 12); // want assert:unproven
  return 0;
}
