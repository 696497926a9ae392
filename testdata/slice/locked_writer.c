// Slice fixture (analysis/slice_test.go): the interference edge from the
// writer is marked with the lock it holds; the reader's own increment
// under no lock is the sequential edge; the reset to 0 cannot break the
// check.
typedef unsigned long pthread_t;
typedef union { char size[24]; long align; } pthread_mutex_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
extern int pthread_mutex_lock(pthread_mutex_t *);
extern int pthread_mutex_unlock(pthread_mutex_t *);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);

int g = 0;
pthread_mutex_t m;

void *writer(void *arg) {
  pthread_mutex_lock(&m);
  g = -7; // slice: in interference locked
  pthread_mutex_unlock(&m);
  return 0;
}

void *resetter(void *arg) {
  g = 0; // slice: out
  return 0;
}

void *checker(void *arg) {
  int v = g; // slice: in
  __VERIFIER_assert(v >= 0); // slice: check
  return 0;
}

int main(void) {
  pthread_t t;
  while (__VERIFIER_nondet_int()) {
    int c = __VERIFIER_nondet_int();
    if (c == 0)
      pthread_create(&t, 0, writer, 0);
    else if (c == 1)
      pthread_create(&t, 0, resetter, 0);
    else
      pthread_create(&t, 0, checker, 0);
  }
  return 0;
}
