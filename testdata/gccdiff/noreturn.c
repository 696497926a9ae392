// Paths that end (exit, abort, noreturn functions, longjmp) and the code
// after them: a negated probe there must not be called unreachable.
#include <assert.h>
#include <setjmp.h>
#include <stdlib.h>
int flag;
void maybe_exit(int c) { if (c) exit(0); }
_Noreturn void die(void) { abort(); }
void check_or_die(int ok) { if (!ok) die(); }
jmp_buf jb;
void jump(int v) { longjmp(jb, v); }
int main(void) {
  { maybe_exit(0); flag = 1; assert(flag == 1); } // probe
  { check_or_die(1); assert(flag == 0 || flag == 1); } // probe
  { int k = 0; if (setjmp(jb) == 0) { k = 1; jump(4); } else { k += 10; } assert(k == 11); } // probe
  { volatile int v = 0; if (setjmp(jb)) { assert(v == 2); } else { v = 2; jump(1); } } // probe
  { int x = 3; if (x > 5) __builtin_unreachable(); assert(x == 3); } // probe
  { int x = 0; for (int i = 0; i < 3; i++) { if (i == 5) exit(1); x++; } assert(x == 3); } // probe
  return 0;
}
