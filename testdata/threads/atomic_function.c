// A __VERIFIER_atomic_ function body runs as one atomic step; the
// non-atomic twin of the same code loses updates.
// schedule try-interleave-a: main@join t1@writea t2 t1 t3 t4 -> ok
// schedule interleave-b: main@join t3@writeb t4 t3 t1 t2 -> fails @assert2
// schedule sequential: main@join t1 t2 t3 t4 -> ok
typedef unsigned long pthread_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
extern int pthread_join(pthread_t, void **);
extern void __VERIFIER_assert(int);

int a = 0, b = 0;

void __VERIFIER_atomic_inc_a(void) {
  int t = a;
  a = t + 1; // @writea
}

void inc_b(void) {
  int t = b;
  b = t + 1; // @writeb
}

void *ta(void *arg) {
  __VERIFIER_atomic_inc_a();
  return 0;
}

void *tb(void *arg) {
  inc_b();
  return 0;
}

int main(void) {
  pthread_t h[4];
  pthread_create(&h[0], 0, ta, 0);
  pthread_create(&h[1], 0, ta, 0);
  pthread_create(&h[2], 0, tb, 0);
  pthread_create(&h[3], 0, tb, 0);
  pthread_join(h[0], 0); // @join
  pthread_join(h[1], 0);
  pthread_join(h[2], 0);
  pthread_join(h[3], 0);
  __VERIFIER_assert(a == 2); // @assert1
  __VERIFIER_assert(b == 2); // @assert2
  return 0;
}
