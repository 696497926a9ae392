// chorus: --checks assert --domain octagon
// Handoffs (interference/handoff.go; SV-COMP pthread-ext/23_lu-fig2): the
// worker sets started and then count inside one critical section of L;
// main waits for started, then takes and releases L, so the worker has
// left that section and count holds its 1, not main's initial 0.
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
  pthread_mutex_unlock(&L);
  __VERIFIER_assert(count == 1); // want assert:proven
  return 0;
}
