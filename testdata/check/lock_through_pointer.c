// chorus: --checks assert
// The mutex is reached through a global pointer and a thread argument; the
// points-to analysis resolves both to the one mutex m.
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
pthread_mutex_t m;
pthread_mutex_t *mp = &m;

void *worker(void *arg) {
  pthread_mutex_t *lk = arg;
  pthread_mutex_lock(lk);
  if (x < 10)
    x = x + 1;
  pthread_mutex_unlock(lk);
  __VERIFIER_assert(x <= 10); // want assert:proven
  return 0;
}

void *worker2(void *arg) {
  pthread_mutex_lock(mp);
  if (x < 10)
    x = x + 1;
  pthread_mutex_unlock(mp);
  return 0;
}

int main(void) {
  pthread_t t;
  while (__VERIFIER_nondet_int()) {
    pthread_create(&t, 0, worker, &m);
    pthread_create(&t, 0, worker2, 0);
  }
  return 0;
}
