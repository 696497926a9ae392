// __attribute__((cleanup(f))): f(&v) at every exit of v's scope, innermost
// and latest first, after a return's value is taken.
#include <assert.h>
int trace, count;
void note(int *p) { trace = trace * 10 + *p; count++; }
int ret_before_cleanup(void) { __attribute__((cleanup(note))) int v = 4; v = 5; return v * 2; }
int main(void) {
  { trace = 0; { __attribute__((cleanup(note))) int a = 1; __attribute__((cleanup(note))) int b = 2; } assert(trace == 21); } // probe
  { trace = 0; count = 0; for (int i = 0; i < 3; i++) { __attribute__((cleanup(note))) int c = i; if (i == 1) continue; } assert(count == 3 && trace == 12); } // probe
  { trace = 0; for (;;) { __attribute__((cleanup(note))) int d = 7; break; } assert(trace == 7); } // probe
  { trace = 0; { __attribute__((cleanup(note))) int e = 3; goto out; } out: assert(trace == 3); } // probe
  { trace = 0; int r = ret_before_cleanup(); assert(r == 10 && trace == 5); } // probe
  { trace = 0; int x = ({ __attribute__((cleanup(note))) int f = 6; f + 1; }); assert(x == 7 && trace == 6); } // probe
  return 0;
}
