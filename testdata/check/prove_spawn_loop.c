// chorus: --checks assert
// Workers spawned in an unbounded loop: each increments a counter in an
// atomic section and asserts it stayed at most 4. It fails with a fifth
// worker; an exploration bounded to 4 instances per template would see
// no failure, so a search in which a spawn waited for an instance is no
// proof.
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
int c;

void *worker(void *arg) {
  __VERIFIER_atomic_begin();
  c = c + 1;
  int v = c;
  __VERIFIER_atomic_end();
  __VERIFIER_assert(v <= 4); // want assert:unproven
  return 0;
}

int main(void) {
  pthread_t t;
  while (1) {
    pthread_create(&t, 0, worker, 0);
  }
  return 0;
}
