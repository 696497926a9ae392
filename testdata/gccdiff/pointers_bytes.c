// Pointer arithmetic and comparison, byte access to ints (little-endian),
// pointers to pointers, arrays of function pointers, restrict, volatile.
#include <assert.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
int add(int a, int b) { return a + b; }
int sub(int a, int b) { return a - b; }
int mul(int a, int b) { return a * b; }
int (*ops[3])(int, int) = {add, sub, mul};
void fill(int *restrict d, const int *restrict s, int n) { for (int i = 0; i < n; i++) d[i] = s[i] + 1; }
void set2(int **pp, int *t) { *pp = t; }
int gi[4] = {10, 20, 30, 40};
int main(void) {
  { int a[5]; int *p = a + 1, *q = a + 4; assert(q - p == 3 && p < q && !(q <= p)); } // probe
  { int a[5]; int *p = &a[4]; int *q = a; assert(p > q && p - q == 4 && (char *)p - (char *)q == 16); } // probe
  { int a[5]; ptrdiff_t d = &a[0] - &a[3]; assert(d == -3); } // probe
  { int a[5]; int *e = a + 5; int n = 0; for (int *p = a; p != e; p++) n++; assert(n == 5); } // probe
  { unsigned v = 0x11223344; unsigned char *b = (unsigned char *)&v; assert(b[0] == 0x44 && b[3] == 0x11); } // probe
  { unsigned v = 0x11223344; unsigned char *b = (unsigned char *)&v; b[1] = 0; assert(v == 0x11220044); } // probe
  { int v = -1; unsigned char *b = (unsigned char *)&v; assert(b[2] == 255); } // probe
  { int v = 0x80; signed char *b = (signed char *)&v; assert(b[0] == -128 && b[1] == 0); } // probe
  { long long v = 0; int *h = (int *)&v; h[1] = 1; assert(v == 4294967296LL); } // probe
  { uint16_t w[2] = {0x1234, 0x5678}; uint32_t v; memcpy(&v, w, 4); assert(v == 0x56781234); } // probe
  { unsigned char b[8] = {1, 2, 3, 4, 5, 6, 7, 8}; uint32_t v; memcpy(&v, b + 2, 4); assert(v == 0x06050403); } // probe
  { char s[4] = {0}; *(short *)(s + 2) = 0x4142; assert(s[2] == 0x42 && s[3] == 0x41); } // probe
  { int x = 1, y = 2; int *p = &x, *q = &y; int **pp = &p; *pp = q; **pp = 5; assert(x == 1 && y == 5); } // probe
  { int x = 1; int *p = &x; int **pp = &p; int ***ppp = &pp; ***ppp = 4; assert(x == 4); } // probe
  { int t = 3; int *p = 0; set2(&p, &t); *p += 1; assert(t == 4); } // probe
  { assert(ops[0](3, 4) == 7 && ops[1](3, 4) == -1 && ops[2](3, 4) == 12); } // probe
  { int s = 0; for (int i = 0; i < 3; i++) s += ops[i](5, 2); assert(s == 20); } // probe
  { int (*f)(int, int) = ops[1]; assert(f == sub && f(1, 1) == 0); } // probe
  { int (*f)(int, int) = &mul; assert((*f)(6, 7) == 42); } // probe
  { int d[3], s[3] = {1, 2, 3}; fill(d, s, 3); assert(d[2] == 4); } // probe
  { volatile int v = 3; v++; assert(v == 4); } // probe
  { volatile unsigned char c = 255; c++; assert(c == 0); } // probe
  { int *p = gi + 3; p--; assert(*p == 30 && p[-2] == 10); } // probe
  { int *p = gi; assert(*(p + 2) == 30 && 2[p] == 30); } // probe
  { int a[2][3] = {{1, 2, 3}, {4, 5, 6}}; int (*r)[3] = a + 1; assert((*r)[2] == 6 && r[0][0] == 4); } // probe
  { int a[2][3] = {{1, 2, 3}, {4, 5, 6}}; int *f = &a[0][0]; assert(f[4] == 5); } // probe
  { struct { int a; int b[2]; } s = {1, {2, 3}}; int *p = &s.b[1]; assert(*p == 3 && (char *)p - (char *)&s == 8); } // probe
  { int x = 1; void *v = &x; int *p = v; *p = 9; assert(x == 9); } // probe
  { int a[4] = {1, 2, 3, 4}; int *p = a, *q = a + 3; while (p < q) { int t = *p; *p++ = *q; *q-- = t; } assert(a[0] == 4 && a[1] == 3 && a[3] == 1); } // probe
  { int x = 5; intptr_t ip = (intptr_t)&x; *(int *)ip = 6; assert(x == 6); } // probe
  { int a[3] = {1, 2, 3}; int *p = a; int v = *p++; assert(v == 1 && *p == 2); } // probe
  { int a[3] = {1, 2, 3}; int *p = a; int v = ++*p; assert(v == 2 && a[0] == 2 && p == a); } // probe
  { int a[3] = {1, 2, 3}; int *p = a + 2; int v = (*p)--; assert(v == 3 && a[2] == 2); } // probe
  { char buf[8] = "abcdefg"; char *p = strchr(buf, 'd'); assert(p == buf + 3); } // probe
  { int *p = NULL; int *q = 0; assert(p == q); } // probe
  { int x; int *p = &x; assert(p != NULL); } // probe
  return 0;
}
