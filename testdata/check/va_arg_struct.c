// chorus: --checks assert
// A struct passed by value past the named parameters: va_arg reads its
// contents from the <va_arg> slot (cfg/libc.go vaArg), so the pointer it
// holds (&g) is in the slot too (cfg/call.go passVariadicArgs,
// variadicAggs: memcpy's rule from the caller's copy into the slot).
// Without that rule the slot held only the address of the caller's copy
// and g == 0 was proven (gcc: g is 4).
#include <assert.h>
#include <stdarg.h>
struct S {
  int a;
  int *p;
};
int g;
int take(int n, ...) {
  va_list ap;
  va_start(ap, n);
  struct S s = va_arg(ap, struct S);
  double d = va_arg(ap, double);
  va_end(ap);
  *s.p = 4;
  return s.a + (int)d;
}
int main(void) {
  struct S s = {1, &g};
  int r = take(1, s, 2.0);
  assert(g == 0); // want assert:unproven
  assert(r == 3); // want assert:unproven
  int w = 0;
  assert(w == 0); // want assert:proven
  return 0;
}
