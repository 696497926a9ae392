// Floating point conversions, varargs, setjmp, enums, sizeof/alignof,
// shifts and rotations, recursion (computed goto is unsupported: an error).
#include <assert.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
enum e { NEG = -3, ZERO = 0, BIG = 0x7fffffff };
enum small { S0, S1, S2 };
jmp_buf jb;
int sum(int n, ...) { va_list ap; va_start(ap, n); int s = 0; for (int i = 0; i < n; i++) s += va_arg(ap, int); va_end(ap); return s; }
long long lsum(int n, ...) { va_list ap; va_start(ap, n); long long s = 0; for (int i = 0; i < n; i++) s += va_arg(ap, long long); va_end(ap); return s; }
void jump(int v) { longjmp(jb, v); }
int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
int even(int n);
int odd(int n) { return n == 0 ? 0 : even(n - 1); }
int even(int n) { return n == 0 ? 1 : odd(n - 1); }
uint32_t rotl(uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }
int main(void) {
  { double d = 3.99; int i = (int)d; assert(i == 3); } // probe
  { double d = -3.99; int i = d; assert(i == -3); } // probe
  { float f = 16777217; assert(f == 16777216.0f); } // probe
  { int i = 7; double d = i / 2; assert(d == 3.0); } // probe
  { double d = 0.1 + 0.2; assert(d != 0.3); } // probe
  { double d = 1e10; long long l = d; assert(l == 10000000000LL); } // probe
  { unsigned char c = 200.7; assert(c == 200); } // probe
  { double d = 255.5; unsigned u = d; assert(u == 255); } // probe
  { float f = 0.5f; _Bool b = f; assert(b); } // probe
  { double x = 2.0; int r = x > 1.5; assert(r == 1); } // probe
  { int i = -1; double d = (unsigned)i; assert(d == 4294967295.0); } // probe
  { assert(sum(3, 1, 2, 3) == 6); } // probe
  { assert(lsum(2, 1LL << 40, 1LL) == (1LL << 40) + 1); } // probe
  { int r = setjmp(jb); if (r == 0) jump(3); assert(r == 3); } // probe
  { volatile int k = 0; int r = setjmp(jb); k++; if (r == 0) jump(0); assert(r == 1 && k == 2); } // probe
  { enum e v = NEG; assert(v < 0 && (int)v == -3); } // probe
  { enum e v = BIG; assert(v == INT_MAX && sizeof v == 4); } // probe
  { enum small s = S2; s++; assert(s == 3); } // probe
  { assert(sizeof(long) == 8 && sizeof(long double) == 16 && _Alignof(double) == 8 && sizeof(void *) == 8); } // probe
  { struct { char c; double d; } s; assert(sizeof s == 16); } // probe
  { int n = 33; unsigned v = 1; v <<= n & 31; assert(v == 2); } // probe
  { assert(rotl(0x80000001u, 1) == 3u); } // probe
  { uint64_t v = 0xffffffffffffffffULL; assert((v >> 63) == 1 && (v >> 1) == 0x7fffffffffffffffULL); } // probe
  { int64_t v = -1; assert((v >> 40) == -1); } // probe
  { unsigned s = 31; int v = -1 << 3; assert(v == -8 && (1u << s) == 0x80000000u); } // probe
  { assert(fib(10) == 55); } // probe
  { assert(fact(10) == 3628800); } // probe
  { assert(even(10) == 1 && odd(7) == 1); } // probe
  { long double ld = 1.5L; int i = ld * 2; assert(i == 3); } // probe
  { int x = 10; x = x * 3 / 4; assert(x == 7); } // probe
  { int x = 1 << 30; unsigned long y = (unsigned long)x << 2; assert(y == 4294967296UL); } // probe
  { short a = 200, b = 200; int r = a * b; assert(r == 40000); } // probe
  { unsigned short a = 300; unsigned short b = a * a; assert(b == 24464); } // probe
  return 0;
}
