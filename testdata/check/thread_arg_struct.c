// chorus: --checks assert
// The thread argument points to a configuration that main writes before the
// first spawn; no thread writes it afterwards.
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

struct config {
  int limit;
  int mode;
};
struct config conf = {5, 1};

void *worker(void *arg) {
  struct config *c = arg;
  int n = c->limit;
  __VERIFIER_assert(n == 7); // want assert:proven
  __VERIFIER_assert(n == 5); // want assert:unproven
  return 0;
}

int main(void) {
  pthread_t t;
  conf.limit = 7;
  while (__VERIFIER_nondet_int())
    pthread_create(&t, 0, worker, &conf);
  return 0;
}
