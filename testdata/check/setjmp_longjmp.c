// chorus: --checks assert
// setjmp returns 0, then nonzero after each longjmp back to it, with the
// memory the thread left at the longjmp and the caller's locals changed
// since indeterminate; longjmp does not return (cfg/libc.go setjmp).
// Before, both were unknown externals: the catch branch saw the state of
// the first return (g == 0 and loc == 0 were proven; gcc: both fail), and
// longjmp fell through. Every longjmp passes 1, so the nonzero return is
// 1 and the zero arm keeps the state of the first return.
#include <assert.h>
#include <setjmp.h>
jmp_buf env;
int g, kept, after;
void thrower(int v) {
  g = v;
  longjmp(env, 1);
  after = 1; // never runs
}
int again(void) {
  static jmp_buf env2;
  int r = setjmp(env2);
  if (r != 0) {
    assert(r == 1); // want assert:proven
    return r;
  }
  longjmp(env2, 0); // setjmp returns 1
  return 0;
}
int main(void) {
  again();
  g = 0;
  kept = 7;
  int loc = 0;
  int stable = 3;
  if (setjmp(env) == 0) {
    assert(g == 0); // want assert:proven
    loc = 1;
    thrower(5);
    assert(0); // want assert:unreachable
  } else {
    assert(g == 0);      // want assert:unproven
    assert(loc == 0);    // want assert:unproven
    assert(kept == 7);   // want assert:proven
    assert(stable == 3); // want assert:proven
    assert(after == 0);  // want assert:proven
  }
  return 0;
}
