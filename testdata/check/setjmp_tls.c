// chorus: --checks assert
// What the thread writes between a setjmp and the longjmp back to it is
// any value at setjmp's second return: the writes of the zero arm (not
// reachable from the nonzero return itself) and thread-local registers
// (one register per template here) included (cfg/libc.go expandSetjmps).
// gcc: tl is 5 at the assertion.
#include <assert.h>
#include <setjmp.h>
#include <pthread.h>
__thread int tl;
jmp_buf env;
void thrower(void) { tl = 5; longjmp(env, 1); }
void *w(void *a) { tl = 1; return 0; }
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, w, 0);
  tl = 0;
  if (setjmp(env) == 0)
    thrower();
  else
    assert(tl == 0); // want assert:unproven
  return 0;
}
