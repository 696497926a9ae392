// chorus: --checks assert --domain octagon
// Reader relays (dfg/readrelay.go), the pattern of Goblint's 58/02: the
// reader copies g and h into locals under A (a mixed cell), then takes
// B. main holds B over both of its A-sections, so the -5 it may leave in
// g between them never reaches a reader holding B: at the relay after
// the acquire of B the globals come from the other threads' writes and
// the values at the reader's spawn, not from the reader's stale copy.
// A reader holding only A may see the -5.
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


int g = 0, h = 0;
pthread_mutex_t A, B;

void *reader(void *arg) {
  int x, y;
  pthread_mutex_lock(&A);
  x = g;
  y = h;
  __VERIFIER_assert(x <= y); // want assert:proven
  pthread_mutex_lock(&B);
  __VERIFIER_assert(g == h); // want assert:proven
  pthread_mutex_unlock(&B);
  pthread_mutex_unlock(&A);
  return 0;
}

void *reader_a(void *arg) {
  pthread_mutex_lock(&A);
  __VERIFIER_assert(g == 0); // want assert:unproven
  pthread_mutex_unlock(&A);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, reader, 0);
  pthread_create(&t, 0, reader_a, 0);
  pthread_mutex_lock(&B);
  pthread_mutex_lock(&A);
  h = 0;
  if (__VERIFIER_nondet_int())
    g = -5;
  pthread_mutex_unlock(&A);
  pthread_mutex_lock(&A);
  g = 0;
  pthread_mutex_unlock(&A);
  pthread_mutex_unlock(&B);
  return 0;
}
