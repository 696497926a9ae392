// chorus: --checks assert --domain octagon
// Owned globals (interference/owned.go): only the worker writes g, and
// one worker runs, so g is 0 at its test and the else branch is dead: the
// sequential edge of v = 1 around the then branch stands for no
// execution.
typedef unsigned long pthread_t;
typedef union { char size[24]; long align; } pthread_mutex_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
extern int pthread_mutex_lock(pthread_mutex_t *);
extern int pthread_mutex_unlock(pthread_mutex_t *);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);

int g = 0;

void *worker(void *arg) {
  int v = 1;
  if (g == 0) {
    g = 1;
    v = 2;
  }
  __VERIFIER_assert(v == 2); // want assert:proven
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  return 0;
}
