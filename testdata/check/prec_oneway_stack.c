// chorus: --checks assert --domain octagon
// One-way flag facts (interference/oneway.go), in the shape of SV-COMP
// pthread-ext/26_stack_cas and 36_stack_cas_p0_vs_concur: every push
// allocates a non-zero index and publishes it by a compare-and-swap on
// top, which starts at 0; nothing ever writes 0 again. A thread whose push
// succeeded has seen top != 0 (its own CAS wrote newTop != 0), so top != 0
// from then on, whatever the other threads do: their CAS's failing arm
// and their allocations carry their own, older views of top (still 0 in
// their first push), which are legal for their moment, not for the
// reader's. In octagons top shares a cell with next (the allocator's
// locals chain them), which is what let those stale views through.
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
    __VERIFIER_assert(top != 0); // want assert:proven
  return 0;
}

int main(void) {
  pthread_t t1, t2, t3;
  pthread_create(&t1, 0, thr, 0);
  pthread_create(&t2, 0, thr, 0);
  pthread_create(&t3, 0, thr, 0);
  return 0;
}
