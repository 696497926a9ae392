// chorus: --checks assert --domain octagon
// Counter bounds with instance counts (interference/counter.go), unsafe
// variant of prec_counter_sites.c: the readers are spawned in a loop, so
// any number of them may hold the read lock at once and r <= 2 fails
// with three. A spawn site on a cycle of main bounds nothing.
typedef unsigned long pthread_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void __VERIFIER_assert(int);

int w = 0, r = 0;

void __VERIFIER_atomic_take_read(void) {
  __VERIFIER_assume(w == 0);
  r = r + 1;
}

void __VERIFIER_atomic_release_read(void) {
  r = r - 1;
}

void *reader(void *arg) {
  __VERIFIER_atomic_take_read();
  __VERIFIER_assert(r >= 1 && r <= 2); // want assert:unproven
  __VERIFIER_atomic_release_read();
  return 0;
}

int main(void) {
  pthread_t t;
  for (int i = 0; i < 3; i++)
    pthread_create(&t, 0, reader, 0);
  return 0;
}
