// chorus: --checks assert --domain octagon
// prec_oneway_stack.c with a thread that empties the stack (top = 0): top
// may return to 0 after a push, so a thread's own successful push no
// longer keeps top != 0 (premise P1 of interference/oneway.go fails at the
// fixpoint and the analysis is redone without the flag). The mutation
// WithoutOneWayCheck (analysis/mutation_test_hooks.go) keeps the facts
// without checking P1, and the oracle catches the wrong proof here.
typedef unsigned long pthread_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
extern void __VERIFIER_assert(int);

int next = 1;
int top = 0;

void __VERIFIER_atomic_alloc(int *idx) {
  if (next + 1 > 7)
    *idx = 0;
  else {
    *idx = next;
    next += 2;
  }
}

void __VERIFIER_atomic_CAS(int *v, int e, int u, int *r) {
  if (*v == e) {
    *v = u;
    *r = 1;
  } else {
    *r = 0;
  }
}

int push(void) {
  int oldTop, newTop, ret;
  __VERIFIER_atomic_alloc(&newTop);
  if (newTop == 0)
    return 0;
  while (1) {
    oldTop = top;
    __VERIFIER_atomic_CAS(&top, oldTop, newTop, &ret);
    if (ret)
      return 1;
  }
}

void *thr(void *arg) {
  int r = push();
  if (r)
    __VERIFIER_assert(top != 0); // want assert:unproven
  return 0;
}

void *reset(void *arg) {
  top = 0;
  return 0;
}

int main(void) {
  pthread_t t1, t2, t3;
  pthread_create(&t1, 0, thr, 0);
  pthread_create(&t2, 0, thr, 0);
  pthread_create(&t3, 0, reset, 0);
  return 0;
}
