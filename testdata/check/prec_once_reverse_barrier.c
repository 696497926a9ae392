// chorus: --checks assert --domain octagon
// A barrier in the shape of SV-COMP pthread-ext/40_barrier_vf: the third
// thread to arrive finds count == 3, resets it, and every thread passes on
// to the error. The reverse epoch rule of interference/once.go must not
// take "f == c0 at the reader" from the reader's own invariant: dropping
// the edges of the increments into the acquire made count == 0 there,
// which justified dropping them (the first version proved the assertion
// unreachable). It uses only the lock argument now.
typedef unsigned long pthread_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
extern void __VERIFIER_error(void);
extern void abort(void);

unsigned int count = 0;
_Bool MTX = 0;
__thread _Bool COND = 0;

void __VERIFIER_atomic_acquire() {
  if (!(MTX == 0)) { abort(); }
  MTX = 1;
}

void __VERIFIER_atomic_release() {
  if (!(MTX == 1)) { abort(); }
  MTX = 0;
}

void barrier(void) {
  __VERIFIER_atomic_acquire();
  count++;
  if (count == 3) {
    COND = 1;
    count = 0;
  } else {
    __VERIFIER_atomic_release();
    if (!COND) { abort(); }
    COND = 0;
    __VERIFIER_atomic_acquire();
  }
  __VERIFIER_atomic_release();
}

void *thr(void *arg) {
  barrier();
  __VERIFIER_error(); // want assert:unproven
  return 0;
}

int main(void) {
  pthread_t t1, t2, t3;
  pthread_create(&t1, 0, thr, 0);
  pthread_create(&t2, 0, thr, 0);
  pthread_create(&t3, 0, thr, 0);
  return 0;
}
