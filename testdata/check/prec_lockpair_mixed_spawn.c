// chorus: --checks assert --domain octagon
// Reader relays (dfg/readrelay.go), unsafe variant: the reader's only
// source of g and h before its acquire is main's code before the spawn
// (g 12, h 14), an entry edge that reaches the relay directly. Those
// values are a possible last write (main may not have run its section
// yet), so they must count among the globals at the relay: g == h fails.
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


int g = 10, h = 10;
pthread_mutex_t A;

void *reader(void *arg) {
  pthread_mutex_lock(&A);
  __VERIFIER_assert(g == h); // want assert:unproven
  pthread_mutex_unlock(&A);
  return 0;
}

int main(void) {
  pthread_t t;
  int v = __VERIFIER_nondet_int();
  g = 12;
  h = 14;
  pthread_create(&t, 0, reader, 0);
  pthread_mutex_lock(&A);
  g = v;
  h = v;
  pthread_mutex_unlock(&A);
  return 0;
}
