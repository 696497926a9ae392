// The lost-update program with an atomic section: once thread 1 is inside
// it, thread 2 cannot move, so the lost-update schedule cannot interleave.
// schedule try-lost: main@join t1@write t2 t1 -> ok
// random: ok
typedef unsigned long pthread_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
extern int pthread_join(pthread_t, void **);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
extern void __VERIFIER_assert(int);

int counter = 0;

void *inc(void *arg) {
  __VERIFIER_atomic_begin();
  int tmp = counter;
  counter = tmp + 1; // @write
  __VERIFIER_atomic_end();
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, inc, 0);
  pthread_create(&b, 0, inc, 0);
  pthread_join(a, 0); // @join
  pthread_join(b, 0);
  __VERIFIER_assert(counter == 2); // @assert
  return 0;
}
