// Slice fixture (analysis/slice_test.go): the bad value is written inside
// an atomic section of another thread; its interference edge says so.
typedef unsigned long pthread_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
extern void __VERIFIER_assert(int);

int x = 0;

void *writer(void *arg) {
  __VERIFIER_atomic_begin();
  x = 42; // slice: in interference atomic
  __VERIFIER_atomic_end();
  return 0;
}

void *small(void *arg) {
  __VERIFIER_atomic_begin();
  x = 3; // slice: out
  __VERIFIER_atomic_end();
  return 0;
}

void *reader(void *arg) {
  int v = x; // slice: in
  __VERIFIER_assert(v < 10); // slice: check
  return 0;
}

int main(void) {
  pthread_t t;
  while (__VERIFIER_nondet_int()) {
    int c = __VERIFIER_nondet_int();
    if (c == 0)
      pthread_create(&t, 0, writer, 0);
    else if (c == 1)
      pthread_create(&t, 0, small, 0);
    else
      pthread_create(&t, 0, reader, 0);
  }
  return 0;
}
