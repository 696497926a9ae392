// Compound assignments with conversions, increments of narrow types,
// conversions through calls, returns and pointers.
#include <assert.h>
#include <stdint.h>
#include <limits.h>
unsigned char uc_id(unsigned char c) { return c; }
signed char sc_of(int v) { return (signed char)v; }
short sh_sum(short a, short b) { return a + b; }
unsigned u_neg(unsigned v) { return -v; }
long long widen(int v) { return v; }
unsigned long long uwiden(unsigned v) { return v; }
int narrow(long long v) { return (int)v; }
int main(void) {
  { unsigned char c = 10; c -= 300; assert(c == 222); } // probe
  { unsigned char c = 10; c += -11; assert(c == 255); } // probe
  { signed char c = -100; c -= 100; assert(c == 56); } // probe
  { short s = 1000; s *= 100; assert(s == -31072); } // probe
  { unsigned short s = 1; s <<= 16; assert(s == 0); } // probe
  { unsigned short s = 0x8000; s >>= 15; assert(s == 1); } // probe
  { signed char c = -128; c >>= 1; assert(c == -64); } // probe
  { signed char c = -1; c = (unsigned char)c >> 1; assert(c == 127); } // probe
  { unsigned u = 7; u /= -1; assert(u == 0); } // probe
  { int i = 7; i /= -2; assert(i == -3); } // probe
  { int i = -7; i %= 3; assert(i == -1); } // probe
  { unsigned u = 7; u %= -2; assert(u == 7); } // probe
  { int i = 5; i *= -1u; assert(i == -5); } // probe
  { int i = 1; i -= 2u; assert(i == -1); } // probe
  { long long l = 5; l -= 10u; assert(l == -5); } // probe
  { unsigned long ul = 5; ul -= 10; assert(ul == 18446744073709551611UL); } // probe
  { int i = 3; i += 2.7; assert(i == 5); } // probe
  { unsigned char c = 255; c++; c++; assert(c == 1); } // probe
  { unsigned char c = 0; c--; assert(c == 255); } // probe
  { short s = SHRT_MIN; s--; assert(s == SHRT_MAX); } // probe
  { unsigned short s = 0; --s; assert(s == 65535); } // probe
  { char c = 127; char d = ++c; assert(d == -128); } // probe
  { uint8_t a = 0x0f; a |= 0x1f0; assert(a == 0xff); } // probe
  { uint8_t a = 0xff; a &= ~1; assert(a == 0xfe); } // probe
  { uint8_t a = 0xaa; a ^= 0x1ff; assert(a == 0x55); } // probe
  { int8_t a = 0x40; a <<= 1; assert(a == -128); } // probe
  { assert(uc_id(300) == 44); } // probe
  { assert(sc_of(255) == -1); } // probe
  { assert(sh_sum(30000, 30000) == -5536); } // probe
  { assert(u_neg(1) == UINT_MAX); } // probe
  { assert(widen(-1) == -1LL); } // probe
  { assert(uwiden(-1) == 4294967295ULL); } // probe
  { assert(narrow(0x1ffffffffLL) == -1); } // probe
  { int a[4] = {0}; unsigned char i = 255; i += 2; a[i] = 9; assert(a[1] == 9); } // probe
  { unsigned char *p, buf[2] = {200, 100}; p = buf; int s = p[0] + p[1]; assert(s == 300); } // probe
  { signed char buf[2] = {-100, -100}; int s = buf[0] + buf[1]; assert(s == -200); } // probe
  { signed char buf[2] = {-100, -100}; signed char s = buf[0] + buf[1]; assert(s == 56); } // probe
  { int x = 0; unsigned char *p = (unsigned char *)&x; *p += 255; *p += 1; assert(x == 0); } // probe
  { unsigned v = 0; unsigned short *p = (unsigned short *)&v; p[0]--; assert(v == 0xffff); } // probe
  { long long v = -1; unsigned *p = (unsigned *)&v; p[1] = 0; assert(v == 4294967295LL); } // probe
  return 0;
}
