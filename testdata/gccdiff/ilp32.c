// gccdiff: chorus=--data-model,ILP32 gcc=-m32
// The DDVerify drivers' data model: long and pointers are 32 bits.
// Also long arithmetic, size_t wrap, layouts of long/long long/double.
#include <assert.h>
#include <stdint.h>
#include <stddef.h>
#include <string.h>
#include <limits.h>
struct s { char c; long l; long long q; double d; };
struct t { char c; short s; long l; char e; };
long gl[3] = {-1, 2147483647L, 5};
struct q { char c; long long v; double d; short s; };
struct q gq[3] = {{1, 1LL << 40, 2.5, 7}, {2, -1, -0.5, 8}, {3}};
union uq { long long v; int h[2]; char b[8]; };
union uq gu[2] = {{.v = 0x0000000100000002LL}, {.h = {5, 6}}};
struct lp { long a; void *p; long b; } glp[2] = {{1, 0, 2}, {3, &glp[0], 4}};
int main(void) {
  { unsigned long u = 0; u--; assert(u == 4294967295UL); } // probe
  { long v = 2147483647L; unsigned long w = (unsigned long)v + 1; assert(w == 2147483648UL); } // probe
  { assert(sizeof(long) == 4 && sizeof(void *) == 4); } // probe
  { long long v = 1LL << 40; assert(v == 1099511627776LL); } // probe
  { long a = 2147483647L; unsigned long b = (unsigned long)a * 2; assert(b == 4294967294UL); } // probe
  { long a = -5; unsigned long b = a; assert(b == 4294967291UL); } // probe
  { size_t z = 0; z -= 1; assert(z == 4294967295u); } // probe
  { size_t z = 4294967295u; z += 2; assert(z == 1); } // probe
  { assert(sizeof(size_t) == 4 && sizeof(ptrdiff_t) == 4 && sizeof(intptr_t) == 4); } // probe
  { assert(LONG_MAX == 2147483647L && ULONG_MAX == 4294967295UL); } // probe
  { assert(offsetof(struct s, q) == 8 && offsetof(struct s, d) == 16 && sizeof(struct s) == 24); } // probe
  { assert(sizeof(struct t) == 12 && offsetof(struct t, e) == 8); } // probe
  { int x; uintptr_t p = (uintptr_t)&x; assert(sizeof p == 4 && (p & 3) == 0); } // probe
  { unsigned long u = 1UL << 31; assert((u << 1) == 0); } // probe
  { long long q = (long)-1; unsigned long long uq = (unsigned long)-1; assert(q == -1 && uq == 4294967295ULL); } // probe
  { int i = 1; assert(gl[i] + 0L == 2147483647L && gl[0] == -1); } // probe
  { unsigned long u = 3000000000UL; long l = (long)u; assert(l < 0); } // probe
  { char buf[10]; size_t n = strlen("hello"); size_t d = n - 6; assert(d == 4294967295u); } // probe
  { long a = -7; assert(a / 2 == -3 && a % 2 == -1 && (unsigned long)a / 2 == 2147483644UL); } // probe
  { unsigned long a = 0xffffffffUL; a++; assert(a == 0); } // probe
  { int *p = 0; p++; assert((uintptr_t)p == 4); } // probe
  { long double ld = 1.0L; assert(sizeof ld == 12); } // probe
  { assert(sizeof(struct q) == 24 && offsetof(struct q, v) == 4 && offsetof(struct q, d) == 12); } // probe
  { int i = 1; assert(gq[i].v == -1 && gq[i].d == -0.5 && gq[i].s == 8); } // probe
  { int i = 0; assert(gq[i].v == 1LL << 40 && gq[i].s == 7); } // probe
  { int i = 2; assert(gq[i].v == 0 && gq[i].c == 3); } // probe
  { unsigned char *b = (unsigned char *)&gq[0]; assert(b[4 + 5] == 1 && b[4] == 0); } // probe
  { int i = 0; assert(gu[i].h[0] == 2 && gu[i].h[1] == 1); } // probe
  { int i = 1; assert(gu[i].v == 0x0000000600000005LL); } // probe
  { int i = 1; assert(glp[i].b == 4 && glp[i].p == &glp[0] && sizeof glp[0] == 12); } // probe
  { struct q x; memset(&x, 0, sizeof x); x.v = -2; unsigned char *b = (unsigned char *)&x; assert(b[4] == 0xfe && b[11] == 0xff && b[3] == 0); } // probe
  { long long a[3] = {1, 2, 3}; assert((char *)&a[2] - (char *)&a[0] == 16); } // probe
  { char buf[10]; char *e = buf + 10; ptrdiff_t d = e - buf; assert(d == 10 && sizeof d == 4); } // probe
  { unsigned long f = 0x80000000UL; assert((f >> 31) == 1 && (long)f < 0); } // probe
  { unsigned long x = 5; long y = -1; assert(x > y == 0); } // probe
  { unsigned int x = 5; long long y = -1; assert(x > y); } // probe
  { unsigned long x = 5; long long y = -1; assert(x > y); } // probe
  { long a = -1; unsigned int b = 1; assert(a > b); } // probe
  { size_t n = 3; int k = -1; assert(k < n == 0); } // probe
  return 0;
}
