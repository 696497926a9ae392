// chorus: --checks assert
// A join-all loop (cfg/joinall.go, interference/join.go): the first loop
// starts two workers into tid[0..2), the second joins tid[0..2). Past
// it every worker has terminated: main's own write is what it reads back,
// and a thread started afterwards sees main's value, not the workers'.
// Right after the join loop the workers' 5 arrives through the relay
// there (g != 5 must stay unproven).
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

void *reader(void *arg) {
  __VERIFIER_assert(g == 12); // want assert:proven
  return 0;
}

int main(void) {
  pthread_t tid[2], r;
  int i;
  for (i = 0; i < 2; i++)
    pthread_create(&tid[i], 0, worker, 0);
  __VERIFIER_assert(g == 0); // want assert:unproven
  for (int j = 0; j < 2; j++) {
    pthread_join(tid[j], 0);
  }
  __VERIFIER_assert(g != 5); // want assert:unproven
  g = 12;
  __VERIFIER_assert(g == 12); // want assert:proven
  pthread_create(&r, 0, reader, 0);
  return 0;
}
