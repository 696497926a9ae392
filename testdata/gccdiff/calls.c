// Calls: conversions of arguments and results, out-parameters, statics,
// recursion, function pointers.
#include <assert.h>
char narrow_ret(int x) { return x; }
int narrow_param(short s) { return s; }
int bool_param(_Bool b) { return b; }
unsigned long long inc64(unsigned long long x) { return x + 1; }
int rcount;
int recurse(int n) { if (n == 0) return 0; rcount++; return recurse(n - 1); }
int counter(void) { static int c; return ++c; }
void two(int *a, int *b) { *a = 1; *b = 2; }
void swap(int *a, int *b) { int t = *a; *a = *b; *b = t; }
int twice(int x) { return 2 * x; }
int apply(int (*f)(int), int x) { return f(x); }
int main(void) {
  { assert(narrow_ret(300) == 44); } // probe
  { assert(narrow_param(70000) == 4464); } // probe
  { assert(bool_param(256) == 1); } // probe
  // A result past 2^64 wraps (see arith.c).
  { assert(inc64(-1) == 0); } // probe
  { recurse(3); assert(rcount == 3); } // probe
  { counter(); counter(); assert(counter() == 3); } // probe
  { int a = 0, b = 0; two(&a, &b); assert(a == 1 && b == 2); } // probe
  { int a = 1; swap(&a, &a); assert(a == 1); } // probe
  { assert(apply(twice, 5) == 10); } // probe
  return 0;
}
