// Objects, pointers, aggregates and the C library's memory functions.
#include <assert.h>
#include <stdlib.h>
#include <string.h>
struct pair { int a, b; };
int main(void) {
  { struct pair s1 = {1, 2}, s2; s2 = s1; s1.a = 5; assert(s2.a == 1); } // probe
  { union { int i; unsigned char c[4]; } u; u.i = 0x01020304; assert(u.c[0] == 4); } // probe
  { struct pair s = {1, 2}; memset(&s, 0, sizeof s); assert(s.b == 0); } // probe
  { int a[4] = {1, 2, 3, 4}, b[4] = {0}; memcpy(b + 1, a, 2 * sizeof(int)); assert(b[2] == 2); } // probe
  { struct pair s = {3, 4}, d = {0, 0}; memcpy(&d, &s, sizeof s); assert(d.b == 4); } // probe
  { int v = 0; short *sp = (short *)&v; sp[1] = 1; assert(v == 65536); } // probe
  { int a[8] = {0}; int *p = &a[5]; p[-2] = 3; assert(a[3] == 3); } // probe
  { int m[3][4] = {{0}}; ((int *)m)[6] = 9; assert(m[1][2] == 9); } // probe
  { int a = 1, b = 2; int *p = &a, *q = &b; int t = *p; *p = *q; *q = t; assert(a == 2); } // probe
  { int *p = calloc(4, sizeof(int)); assert(p[3] == 0); } // probe
  { int a[5] = {1, 2, 3, 4, 5}; memmove(a + 1, a, 3 * sizeof(int)); assert(a[3] == 3); } // probe
  { char s[5] = "ab"; assert(s[3] == 0); } // probe
  { int a[10] = {[2 ... 5] = 7}; assert(a[6] == 0 && a[3] == 7); } // probe
  return 0;
}
