// Slice fixture (analysis/slice_test.go): the check fails only through
// the thread that writes 100; the write of 5 and the initial 0 cannot
// break it and must stay out of its slice.
typedef unsigned long pthread_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);

int x = 0;

void *small(void *arg) {
  x = 5; // slice: out
  return 0;
}

void *big(void *arg) {
  x = 100; // slice: in interference
  return 0;
}

void *reader(void *arg) {
  int v = x; // slice: in
  __VERIFIER_assert(v < 10); // slice: check
  return 0;
}

int main(void) { // slice: out
  pthread_t t;
  while (__VERIFIER_nondet_int()) {
    int c = __VERIFIER_nondet_int();
    if (c == 0)
      pthread_create(&t, 0, small, 0);
    else if (c == 1)
      pthread_create(&t, 0, big, 0);
    else
      pthread_create(&t, 0, reader, 0);
  }
  return 0;
}
