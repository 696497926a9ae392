// chorus: --checks bounds
// The pruning of cfg/constbranch.go needs a thread-local register: here
// the flag is global and another thread sets it to 1 between main's
// `ok = 0` and the test, so an index of 10 or more reaches the access.
// (The frontend reads a global into a temporary before testing it, so the
// assume never reads ok itself.)
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
int table[10];
int ok;

void *setter(void *arg) {
  ok = 1;
  return 0;
}

int main(void) {
  pthread_t t;
  int i;
  pthread_create(&t, 0, setter, 0);
  i = __VERIFIER_nondet_int();
  if (0 <= i) {
    if (i < 10)
      ok = 1;
    else
      ok = 0;
  } else
    ok = 0;
  __VERIFIER_assume(ok);
  table[i] = 1; // want bounds:unproven
  return 0;
}
