// Constant expressions cc folds itself (the lowering takes its values):
// signed division and shifts of negatives, wrapping casts, float to
// integer, float folding in float and double, conditional and comma
// operators, enum constants and array sizes computed from expressions,
// sizeof of expressions with casts, case labels from expressions.
#include <assert.h>
#include <limits.h>
#include <stdint.h>
enum { E1 = -7 / 2, E2 = -7 % 2, E3 = (-8) >> 1, E4 = (int)(1u << 31) >> 31, E5 = (unsigned char)300, E6 = (signed char)200 };
static char sized[(int)(2.9 * 2)];
static const int folded = (0u - 1) > 0;
int main(void) {
  { assert(E1 == -3 && E2 == -1 && E3 == -4 && E4 == -1 && E5 == 44 && E6 == -56); } // probe
  { assert(sizeof sized == 5 && folded == 1); } // probe
  { assert((int)3.9 == 3 && (int)-3.9 == -3 && (_Bool)0.5 == 1 && (unsigned char)-1 == 255); } // probe
  { assert(1.0 / 3 * 3 == 1.0 && (float)0.1 != 0.1 && 0.1f + 0.2f == 0.3f && 0.1 + 0.2 != 0.3); } // probe
  { assert((1, 2) == 2 && (0 ? 1 : 2.5) == 2.5 && sizeof(0 ? (char)1 : (short)1) == 4); } // probe
  { assert((unsigned)INT_MIN == 2147483648u && -INT_MAX - 1 == INT_MIN && (long long)UINT_MAX + 1 == 4294967296LL); } // probe
  { assert((uint16_t)-1 == 65535 && (int16_t)40000 == -25536 && (uint8_t)(int8_t)-1 == 255); } // probe
  { assert(sizeof((char)1 + (char)1) == 4 && sizeof((short)1 << 1) == 4 && sizeof(1ull << 1) == 8); } // probe
  { assert(~0u == UINT_MAX && ~0 == -1 && -(unsigned)1 == UINT_MAX && !0 == 1 && !5 == 0); } // probe
  { assert((7 & -8) == 0 && (-1 ^ 5) == -6 && (6 | -8) == -2); } // probe
  { assert(0x7fffffff + 0u + 1 == 0x80000000u && (long)(unsigned)-1 == 4294967295L); } // probe
  { int r = 0; switch (3) { case 1 + 2: r = 1; break; case (int)4.5: r = 2; break; } assert(r == 1); } // probe
  { int r = 0; switch (-1) { case (signed char)255: r = 1; break; default: r = 2; } assert(r == 1); } // probe
  { assert((double)(float)16777217 == 16777216.0 && (long long)(double)9007199254740993LL == 9007199254740992LL); } // probe
  { assert((int)(unsigned char)(char)200 == 200 && (char)200 < 0); } // probe
  { assert(3 / 2 * 2 == 2 && 3 % -2 == 1 && -3 % 2 == -1 && 5 / -2 == -2); } // probe
  { assert(1e308 * 10 > 1e308 && -1e308 * 10 < -1e308); } // probe
  { assert((int)(0.1 * 10) == 1 && (int)(0.7 * 10) == 7 && (int)(0.29 * 100) == 28); } // probe
  { assert(__INT_MAX__ == INT_MAX && __CHAR_BIT__ == 8 && __SIZEOF_POINTER__ == 8); } // probe
  { assert((1 << 31) == INT_MIN && (1u << 31) >> 31 == 1 && (-1 << 1) == -2); } // probe
  { assert(LLONG_MIN / 2 == -4611686018427387904LL && ULLONG_MAX / 3 == 6148914691236517205ULL); } // probe
  return 0;
}
