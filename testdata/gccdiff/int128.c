// 128-bit integers: the IR's values are 64 bits wide, so every value of an
// __int128 type is any value, conversions from one are any value of the
// target type, comparisons of them any truth value, and objects holding
// one are blobs (cfg). Found here: x = 1ULL << 63; x *= 2; x == 0 was
// proven (and the other probes' negations) while __int128 was modelled as
// 64 bits.
#include <assert.h>
#include <stdint.h>
#include <string.h>
typedef unsigned __int128 u128;
typedef __int128 s128;
struct mix { int a; s128 b; int c; };
union split { u128 w; uint64_t h[2]; };
static u128 g = (u128)1 << 100;
static u128 garr[2] = {1, (u128)1 << 64};
static struct mix gm = {1, (s128)1 << 70, 3};
static u128 dbl(u128 v) { return v * 2; }
static uint64_t hi(u128 v) { return (uint64_t)(v >> 64); }
static s128 neg(s128 v) { return -v; }
int main(void) {
  { u128 x = 1ULL << 63; x *= 2; assert(x != 0); } // probe
  { uint64_t a = 0xFFFFFFFFFFFFFFFFULL, b = 3; u128 p = (u128)a * b; assert((uint64_t)(p >> 64) == 2); } // probe
  { uint64_t a = 0xFFFFFFFFFFFFFFFFULL, b = 3; u128 p = (u128)a * b; assert((uint64_t)p == 0xFFFFFFFFFFFFFFFDULL); } // probe
  { u128 x = (u128)1 << 64; assert(x > 0xFFFFFFFFFFFFFFFFULL); } // probe
  { u128 x = (u128)1 << 64; assert(!(x <= 0xFFFFFFFFFFFFFFFFULL)); } // probe
  { u128 x = (u128)1 << 70; double d = (double)x; assert(d > 1e19); } // probe
  { union split u; u.w = 0; u.w--; assert(u.h[1] == 0xFFFFFFFFFFFFFFFFULL); } // probe
  { union split u; u.w = (u128)5 << 64; assert(u.h[0] == 0 && u.h[1] == 5); } // probe
  { u128 x = (u128)7 << 64; uint64_t *p = (uint64_t *)&x; assert(p[1] == 7 && p[0] == 0); } // probe
  { assert(sizeof(struct mix) == 48 && __builtin_offsetof(struct mix, b) == 16); } // probe
  { assert(sizeof(u128) == 16 && _Alignof(s128) == 16); } // probe
  { assert((g >> 100) == 1 && (uint64_t)g == 0); } // probe
  { assert(garr[1] != 0 && hi(garr[1]) == 1); } // probe
  { assert(gm.b > 0 && (uint64_t)gm.b == 0 && gm.c == 3); } // probe
  { s128 s = -1; assert((u128)s > 0xFFFFFFFFFFFFFFFFULL); } // probe
  { u128 x = 0xFFFFFFFFFFFFFFFFULL; x += 1; assert(hi(x) == 1 && (uint64_t)x == 0); } // probe
  { u128 x = 0xFFFFFFFFFFFFFFFFULL; x++; assert(x != 0); } // probe
  { u128 x = 0xFFFFFFFFFFFFFFFFULL; ++x; assert(x >> 64 == 1); } // probe
  { assert(dbl(1ULL << 63) != 0); } // probe
  { assert(hi(dbl(1ULL << 63)) == 1); } // probe
  { u128 x = (u128)1 << 64; assert(x != 0); } // probe
  { uint64_t parts[2] = {0, 1}; u128 v; memcpy(&v, parts, 16); assert(v != 0 && hi(v) == 1); } // probe
  { _Bool b = (u128)1 << 64; assert(b == 1); } // probe
  { u128 x = (u128)3 << 64; u128 y = x + ((u128)1 << 64); assert(x != y); } // probe
  { u128 x = 1e30; assert(x > 0xFFFFFFFFFFFFFFFFULL); } // probe
  { s128 n = INT64_MIN; n -= 1; assert(n < INT64_MIN); } // probe
  { s128 n = INT64_MAX; n = n + 1; assert(n > 0); } // probe
  { s128 n = INT64_MIN; assert(neg(n) > 0); } // probe
  { u128 x = (u128)1 << 64; int r = 0; switch ((uint64_t)(x >> 64)) { case 1: r = 1; break; default: r = 2; } assert(r == 1); } // probe
  { u128 x = (u128)1 << 64; int r = x ? 1 : 2; assert(r == 1); } // probe
  { u128 x = (u128)1 << 64; int r = 0; if (x) r = 1; assert(r == 1); } // probe
  { u128 x = ((u128)1 << 64) + 5; assert(x % 10 == 1); } // probe
  { u128 x = ((u128)1 << 64); assert(x / 2 == ((u128)1 << 63) && x / 2 > 0xFFFFFFFFFFFFFFFULL); } // probe
  { uint64_t a = 1ULL << 63; u128 s = a; s += a; assert(s == (u128)1 << 64); } // probe
  { uint32_t w = (uint32_t)(((u128)1 << 96) >> 64); assert(w == 0 && (uint32_t)(((u128)1 << 96) >> 65) == 0x80000000u); } // probe
  { u128 x = (u128)1 << 127; assert((x >> 127) == 1 && (s128)x < 0); } // probe
  { long long m = (long long)(((u128)1 << 64) | 9); assert(m == 9); } // probe
  { struct mix s = {0, 0, 0}; s.b = (s128)1 << 64; s.a = 2; assert(s.b != 0 && s.a == 2); } // probe
  { uint64_t a = 0xFFFFFFFFFFFFFFFFULL; u128 r; assert(!__builtin_mul_overflow(a, a, &r) && (r >> 64) == 0xFFFFFFFFFFFFFFFEULL); } // probe
  { s128 r; assert(!__builtin_add_overflow(INT64_MAX, 1, &r) && r > INT64_MAX); } // probe
  { uint64_t a = 1ULL << 63; assert(!__builtin_add_overflow_p(a, a, (u128)0)); } // probe
  { u128 x = (u128)1 << 64; int r = 0; switch (x) { case 0 ... 0x7FFFFFFFFFFFFFFFLL: r = 1; break; default: r = 2; } assert(r == 2); } // probe
  { u128 x = ((u128)1 << 64) | 1; int r = 0; switch (x) { case 1: r = 1; break; default: r = 2; } assert(r == 2); } // probe
  return 0;
}
