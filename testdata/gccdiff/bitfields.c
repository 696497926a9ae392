// Bit-fields: signedness, widths, wrap on assignment, unions, packing.
// (struct { char a; int b : 7; int c : 9; }, once here, is size 4 in gcc and
// 8 in cc: such units are now unsupported, cfg TestBitfieldLayouts.)
#include <assert.h>
#include <string.h>
struct s1 { int a : 4; unsigned b : 4; signed c : 1; unsigned d : 1; };
struct s2 { unsigned lo : 16, hi : 16; };
struct s3 { unsigned long long x : 40; unsigned long long y : 24; };
struct s5 { _Bool f : 1; unsigned g : 3; };
struct s6 { long long v : 33; };
union u1 { struct s2 h; unsigned w; unsigned char b[4]; };
union u2 { struct s1 s; unsigned char raw; };
struct s7 { unsigned a : 3; unsigned : 0; unsigned b : 3; };
struct s8 { int x; unsigned f : 5; int y; };
int main(void) {
  { struct s1 s = {0}; s.a = 7; s.a++; assert(s.a == -8); } // probe
  { struct s1 s = {0}; s.a = 15; assert(s.a == -1); } // probe
  { struct s1 s = {0}; s.b = 17; assert(s.b == 1); } // probe
  { struct s1 s = {0}; s.b = 0; s.b--; assert(s.b == 15); } // probe
  { struct s1 s = {0}; s.c = 1; assert(s.c == -1); } // probe
  { struct s1 s = {0}; s.d = 2; assert(s.d == 0); } // probe
  { struct s1 s = {0}; s.d = 3; s.d += 1; assert(s.d == 0); } // probe
  { struct s1 s = {0}; s.a = -8; s.a--; assert(s.a == 7); } // probe
  { struct s1 s = {0}; s.b = 15; assert(s.b + 1 == 16); } // probe
  { struct s1 s = {0}; s.a = -3; int r = s.a * 2; assert(r == -6); } // probe
  { struct s1 s = {0}; s.b = 9; s.b *= 2; assert(s.b == 2); } // probe
  { struct s1 s = {0}; s.b = 12; s.b <<= 1; assert(s.b == 8); } // probe
  { struct s1 s = {0}; s.a = 5; s.a <<= 1; assert(s.a == -6); } // probe
  { struct s1 s = {0}; s.b = 3; int r = s.b - 4; assert(r == -1); } // probe
  { struct s2 s; s.lo = 0x10000 + 5; s.hi = 70000; assert(s.lo == 5 && s.hi == 4464); } // probe
  { union u1 u; u.w = 0x12345678; assert(u.h.lo == 0x5678 && u.h.hi == 0x1234); } // probe
  { union u1 u; u.w = 0; u.h.hi = 1; assert(u.w == 65536 && u.b[2] == 1); } // probe
  { union u1 u; u.w = 0; u.b[3] = 0x80; assert(u.h.hi == 0x8000 && u.w == 0x80000000u); } // probe
  { struct s3 s = {0}; s.x = (1ULL << 40) + 9; assert(s.x == 9); } // probe
  { struct s3 s = {0}; s.x = 0xffffffffffULL; s.x++; assert(s.x == 0); } // probe
  { struct s3 s = {0}; s.y = 0xffffff; s.x = 1; assert(s.y == 0xffffff && s.x == 1); } // probe
  { struct s5 s = {0}; s.f = 5; assert(s.f == 1); } // probe
  { struct s5 s = {0}; s.g = 9; assert(s.g == 1); } // probe
  { struct s6 s; s.v = 1LL << 32; assert(s.v < 0); } // probe
  { struct s6 s; s.v = -1; assert(s.v == -1 && (long long)s.v < 0); } // probe
  { union u2 u; u.raw = 0; u.s.a = -1; assert(u.raw == 15); } // probe
  { union u2 u; u.raw = 0x9f; assert(u.s.a == -1 && u.s.b == 9); } // probe
  { struct s7 s = {5, 6}; assert(sizeof s == 8 && s.a == 5 && s.b == 6); } // probe
  { struct s8 s = {1, 31, 2}; struct s8 t = s; t.f++; assert(t.f == 0 && s.f == 31 && t.y == 2); } // probe
  { struct s8 s = {1, 31, 2}; unsigned f = s.f; assert(f == 31); } // probe
  { struct s1 s; memset(&s, 0xff, sizeof s); assert(s.a == -1 && s.b == 15 && s.c == -1 && s.d == 1); } // probe
  { struct s1 a[3] = {{1, 2, 0, 1}, {-2, 3, -1, 0}}; assert(a[1].a == -2 && a[1].c == -1 && a[2].b == 0); } // probe
  { struct s1 s = {.b = 3}; s.a = s.b * 3; assert(s.a == -7); } // probe
  { struct s2 s = {1, 2}; unsigned *p = (unsigned *)&s; assert(*p == 0x20001); } // probe
  return 0;
}
