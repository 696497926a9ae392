// chorus: --checks assert --domain octagon
// Reader relays (dfg/readrelay.go), unsafe variant: the reader writes g
// itself, so at the relay after its second acquire g may be its own 7
// (main's 0 may come before or after); the reader-relay equation, which
// takes the globals from the other threads and the spawn only, must not
// apply to a template that writes the cell's globals.
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
pthread_mutex_t A;

void *reader(void *arg) {
  int x, y;
  pthread_mutex_lock(&A);
  x = g;
  g = 7;
  pthread_mutex_unlock(&A);
  pthread_mutex_lock(&A);
  y = g;
  __VERIFIER_assert(y == 0 || y == x); // want assert:unproven
  pthread_mutex_unlock(&A);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, reader, 0);
  pthread_mutex_lock(&A);
  g = 0;
  pthread_mutex_unlock(&A);
  return 0;
}
