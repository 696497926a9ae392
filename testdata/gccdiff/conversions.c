// Integer conversions and promotions.
#include <assert.h>
#include <limits.h>
#include <stdlib.h>
#include <stdint.h>
int main(void) {
  { char c = 200; assert(c == -56); } // probe
  { unsigned char a = 250, b = 10; assert(a + b == 260); } // probe
  { unsigned char a = 250, b = 10; unsigned char s = a + b; assert(s == 4); } // probe
  { unsigned short a = 65535; unsigned r = (unsigned)a * a; assert(r == 4294836225u); } // probe
  { short a = -1; unsigned short b = a; assert(b == 65535); } // probe
  { signed char c = -1; unsigned u = c; assert(u == 4294967295u); } // probe
  { signed char c = -1; unsigned char u = c; int i = u; assert(i == 255); } // probe
  { int i = -129; signed char c = i; assert(c == 127); } // probe
  { int i = 0x12345678; short s = i; assert(s == 0x5678); } // probe
  { int i = 0x12348765; short s = i; assert(s == -30875); } // probe
  { long long l = 0x100000001LL; int i = l; assert(i == 1); } // probe
  { long long l = -4294967297LL; int i = l; assert(i == -1); } // probe
  { unsigned long long u = 0xffffffff80000000ULL; int i = u; assert(i == INT_MIN); } // probe
  { unsigned u = 0x80000000u; long long l = (int)u; assert(l == -2147483648LL); } // probe
  { unsigned u = 0x80000000u; long long l = u; assert(l == 2147483648LL); } // probe
  { int i = -5; unsigned long ul = i; assert(ul == 18446744073709551611UL); } // probe
  { long l = -1; unsigned u = 1; assert(l < u); } // probe
  { int i = -1; unsigned long ul = 1; assert(i > ul); } // probe
  { int i = -1; unsigned short us = 1; assert(i < us); } // probe
  { unsigned char a = 0; assert(a - 1 < 0); } // probe
  { unsigned a = 0; assert(a - 1 > 0); } // probe
  { _Bool b = 0.5; assert(b == 1); } // probe
  { _Bool b = -1; int i = b + b; assert(i == 2); } // probe
  { _Bool b = 1; b++; assert(b == 1); } // probe
  { _Bool b = 1; b--; assert(b == 0); } // probe
  { _Bool b = 0; b--; assert(b == 1); } // probe
  { _Bool b = 1; b += 1; assert(b == 1); } // probe
  { _Bool b = 4 & 2; assert(b == 0); } // probe
  { int i = 256; _Bool b = (char)i; assert(b == 0); } // probe
  { int a = INT_MIN; assert(abs(a + 1) == INT_MAX); } // probe
  { int a = -9, b = 4; assert(a / b == -2 && a % b == -1); } // probe
  { int a = -9, b = -4; assert(a / b == 2 && a % b == -1); } // probe
  { int a = 9, b = -4; assert(a / b == -2 && a % b == 1); } // probe
  { long long a = -9; unsigned b = 4; assert(a / b == -2); } // probe
  { int a = -9; unsigned b = 4; assert(a / b == 1073741821u); } // probe
  { int a = -9; unsigned b = 4; assert(a % b == 3); } // probe
  { int a = -1; assert(a >> 31 == -1 && (unsigned)a >> 31 == 1); } // probe
  { signed char c = -128; assert(-c == 128); } // probe
  { signed char c = -128; signed char d = -c; assert(d == -128); } // probe
  { short s = -32768; short t = s / -1; assert(t == -32768); } // probe
  { unsigned u = 5; assert(-u == 4294967291u); } // probe
  { unsigned char c = 1; assert(~c == -2); } // probe
  { unsigned char c = 1; unsigned char d = ~c; assert(d == 254); } // probe
  { uint8_t x = 0xf0; assert((x << 4) == 0xf00); } // probe
  { uint16_t x = 0x8000; assert((x << 16) < 0); } // probe
  { uint32_t x = 1; assert((x << 31) == 2147483648u); } // probe
  { int v = 7; assert((v & -v) == 1 && (8 & -8) == 8); } // probe
  { int v = -7; assert(v % 2 == -1 && -v % 2 == 1); } // probe
  { int v = 0x7fffffff; unsigned w = v + 1u; assert(w == 0x80000000u); } // probe
  { char c = 'A'; c += 0x80; assert(c < 0); } // probe
  { unsigned x = 3; int y = -1; assert(x * y == 4294967293u); } // probe
  { unsigned x = 10; int y = 3; assert(x - 2 * y == 4 && y - x > 100); } // probe
  { int i = 1000; unsigned char c = i; assert(c == 232); } // probe
  { int i = -1000; unsigned char c = i; assert(c == 24); } // probe
  { long long v = 3000000000LL; unsigned u = v; int i = v; assert(u == 3000000000u && i == -1294967296); } // probe
  { unsigned long long v = 0x123456789abcdef0ULL; unsigned short s = v; assert(s == 0xdef0); } // probe
  { unsigned long long v = 0x123456789abcdef0ULL; signed char s = v; assert(s == -16); } // probe
  return 0;
}
