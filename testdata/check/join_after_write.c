// chorus: --checks assert --explore-proof-states 0
// (Exploration proofs are off: the program is finite-state, and an
// exhaustive search would prove the worker's assertion too.)
// Main writes g only after joining the one worker, and no worker can
// start after that: the worker never reads main's late write. Proven only
// with the join-after rule (interference.WithJoinAfterRule, off by
// default; analysis TestJoinAfterRule runs it on).
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
  int x = g;
  __VERIFIER_assert(x == 10); // want assert:unproven
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  g = 20;
  __VERIFIER_assert(g == 20); // want assert:proven
  return 0;
}
