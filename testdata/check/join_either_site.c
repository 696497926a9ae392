// chorus: --checks assert
// The thread is spawned on either arm of a branch into the same handle:
// at most one of the two sites runs, so the handle's join waits for the
// only instance (interference/join.go, spawn classes).
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

int g = 10;

void *worker(void *arg) {
  g = 20;
  return 0;
}

int main(void) {
  pthread_t id;
  if (__VERIFIER_nondet_int())
    pthread_create(&id, 0, worker, 0);
  else
    pthread_create(&id, 0, worker, 0);
  pthread_join(id, 0);
  g = 12;
  __VERIFIER_assert(g == 12); // want assert:proven
  return 0;
}
