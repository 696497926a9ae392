// chorus: --checks assert --domain octagon
// Stable globals of mixed cells (dfg/stable.go), unsafe variant of
// prec_stable_readers.c: a rogue thread writes x = 7 without the write
// lock, so x may change between a reader's copy and its check; its edge
// into the section comes from a template that writes x, which is then
// not stable there. Mutation fixture of WithoutStableGlobalsCheck.
typedef unsigned long pthread_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void __VERIFIER_assert(int);

int w = 0, r = 0, x, y;

void __VERIFIER_atomic_take_read(void) {
  __VERIFIER_assume(w == 0);
  r = r + 1;
}

void __VERIFIER_atomic_release_read(void) {
  r = r - 1;
}

void *rogue(void *arg) {
  x = 7;
  return 0;
}

void *reader(void *arg) {
  int l;
  __VERIFIER_atomic_take_read();
  l = x;
  y = l;
  __VERIFIER_assert(y == x); // want assert:unproven
  __VERIFIER_atomic_release_read();
  return 0;
}

int main(void) {
  pthread_t t1, t2, t3;
  pthread_create(&t1, 0, rogue, 0);
  pthread_create(&t2, 0, reader, 0);
  pthread_create(&t3, 0, reader, 0);
  return 0;
}
