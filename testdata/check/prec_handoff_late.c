// chorus: --checks assert --domain octagon
// Handoffs (interference/handoff.go), unsafe variant: the worker writes
// count in a second critical section, after it released L once; main
// may take L between the two and still see count == 0 (H2 fails: a path
// from the write of started reaches a release before a write of count).
// Also the mutation fixture of WithUnsoundHandoffs (H2 unchecked).
typedef unsigned long pthread_t;
typedef union { char size[24]; long align; } pthread_mutex_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
extern int pthread_mutex_lock(pthread_mutex_t *);
extern int pthread_mutex_unlock(pthread_mutex_t *);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);

int started = 0;
int count = 0;
pthread_mutex_t L;

void *worker(void *arg) {
  pthread_mutex_lock(&L);
  started = 1;
  pthread_mutex_unlock(&L);
  pthread_mutex_lock(&L);
  count = count + 1;
  pthread_mutex_unlock(&L);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  while (started == 0) {
  }
  pthread_mutex_lock(&L);
  int c = count;
  pthread_mutex_unlock(&L);
  __VERIFIER_assert(c == 1); // want assert:unproven
  return 0;
}
