// chorus: --checks assert --domain octagon
// Owned globals (interference/owned.go), unsafe variant of
// prec_owned_once.c: two workers run, the second may find g == 1 and keep
// v == 1. A template with several instances owns nothing (mutation
// WithoutOwnedInstanceCheck lets it, and the oracle catches it here).
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
  __VERIFIER_assert(v == 2); // want assert:unproven
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  return 0;
}
