// Integer semantics: conversions, wrap-around, shifts, bit-fields.
#include <assert.h>
#include <stddef.h>
struct bits { int a : 3; unsigned b : 2; };
struct wide { unsigned x : 31; unsigned y : 2; };
int main(void) {
  { _Bool b = 256; assert(b == 1); } // probe
  { int v = 2; _Bool b = v; assert(b == 1); } // probe
  { short s = (short)70000; assert(s == 4464); } // probe
  { unsigned char c = (unsigned char)-1; assert(c == 255); } // probe
  { int v = 128; signed char c = (signed char)v; assert(c == -128); } // probe
  { long long v = (long long)(unsigned)-1; assert(v == 4294967295LL); } // probe
  { unsigned long long v = (unsigned long long)(int)-1; assert(v == 18446744073709551615ULL); } // probe
  { char c = 100; c += 100; assert(c == -56); } // probe
  { unsigned char c = 200; c *= 2; assert(c == 144); } // probe
  { short s = 30000; s += 30000; assert(s == -5536); } // probe
  { signed char c = 127; c++; assert(c == -128); } // probe
  { unsigned char c = 0x81; c <<= 1; assert(c == 2); } // probe
  { int a = -7, b = 2; assert(a / b == -3 && a % b == -1); } // probe
  { int a = 7, b = -2; assert(a % b == 1 && a / b == -3); } // probe
  { int a = -8; assert((a >> 1) == -4); } // probe
  { int a = -1; unsigned b = 2; assert(a / b == 2147483647u); } // probe
  { int v = -1; unsigned u = 1; assert(!(v < u)); } // probe
  { unsigned u = 3000000000u; int i = (int)u; assert(i < 0); } // probe
  { unsigned short a = 65535, b = 1; int r = a + b; assert(r == 65536); } // probe
  // Signed left shift into the sign bit wraps (GCC): the analysis clamped it.
  { int n = 31, v = 1; int r = v << n; assert(r < 0); } // probe
  // Signed bit-fields are extracted by a signed 64-bit shift: misread too.
  { struct bits s; s.a = 3; s.a++; s.b = 3; s.b++; assert(s.a == -4 && s.b == 0); } // probe
  { struct wide s = {0}; s.y = 3; s.x = 5; assert(s.y == 3 && s.x == 5); } // probe
  // 64-bit unsigned sums past 2^64: an unbounded top was taken to fit.
  { unsigned long long a = 18446744073709551615ULL; a++; assert(a == 0); } // probe
  { unsigned long long b = 1ULL << 63; b <<= 1; assert(b == 0); } // probe
  { unsigned long long c = 18446744073709551615ULL; c += 2; assert(c == 1); } // probe
  { size_t i = 0; i--; assert(i == (size_t)-1); } // probe
  { unsigned long long v = 1; int n = 0; while (v) { v <<= 1; n++; } assert(n == 64); } // probe
  { unsigned i, n = 0; for (i = 5; i < 10; i--) n++; assert(n == 6 && i == 4294967295u); } // probe
  { signed char c = 0; int n = 0; while (c >= 0) { c++; n++; } assert(n == 128); } // probe
  { unsigned short s = 65530; int n = 0; while (s != 4) { s++; n++; } assert(n == 10); } // probe
  { int i = 0; int s = sizeof(i++); assert(i == 0 && s == 4); } // probe
  { assert((1 ? -1 : 0u) > 0); } // probe
  { assert('\xff' == -1); } // probe
  return 0;
}
