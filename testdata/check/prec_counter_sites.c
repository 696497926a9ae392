// chorus: --checks assert --domain octagon
// Counter bounds with instance counts (interference/counter.go,
// instanceBounds): the reader template is spawned at two sites of main,
// off main's cycles, so at most two readers run; each adds at most 1 to
// r, so a reader that has taken the read lock sees r in [1, 2].
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
  __VERIFIER_assert(r >= 1 && r <= 2); // want assert:proven
  __VERIFIER_atomic_release_read();
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, reader, 0);
  pthread_create(&t2, 0, reader, 0);
  return 0;
}
