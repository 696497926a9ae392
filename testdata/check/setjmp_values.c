// chorus: --checks assert
// longjmp(env, code) with a value that is not one constant: setjmp's
// second return is any nonzero value (longjmp(env, 0) makes it 1), and
// the thread's writes since the setjmp are any value there
// (cfg/libc.go expandSetjmps).
#include <assert.h>
#include <setjmp.h>
jmp_buf env;
int g;
void fail(int code) {
  g = code;
  longjmp(env, code);
}
int main(int argc, char **argv) {
  int r = setjmp(env);
  if (r != 0) {
    assert(r != 0); // want assert:proven
    assert(r == 2); // want assert:unproven
    assert(g == 0); // want assert:unproven
    return 0;
  }
  // The second return is no one constant, so no edge into this arm is
  // dropped: it joins the havocked state (imprecise, not wrong).
  assert(g == 0); // want assert:unproven
  if (argc > 1)
    fail(0);
  fail(2);
  return 0;
}
