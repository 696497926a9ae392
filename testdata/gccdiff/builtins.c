// GCC's value builtins (cfg/valuebuiltins.go) with their C types.
#include <assert.h>
#include <limits.h>
#include <stddef.h>
#include <string.h>
struct off { char c; int i; };
int main(void) {
  { unsigned char uc; _Bool o = __builtin_add_overflow(200, 100, &uc); assert(o && uc == 44); } // probe
  { long long ll; _Bool o = __builtin_add_overflow(INT_MAX, 1, &ll); assert(!o && ll == 2147483648LL); } // probe
  { unsigned u; _Bool o = __builtin_sub_overflow(0, 1, &u); assert(o && u == UINT_MAX); } // probe
  { int r; _Bool o = __builtin_mul_overflow(65536, 65536, &r); assert(o && r == 0); } // probe
  { int r; _Bool o = __builtin_mul_overflow(-3, 5, &r); assert(!o && r == -15); } // probe
  { signed char sc; _Bool o = __builtin_sub_overflow(-100, 100, &sc); assert(o && sc == 56); } // probe
  { unsigned long long r; _Bool o = __builtin_mul_overflow(-1, -1, &r); assert(!o && r == 1); } // probe
  { unsigned r; _Bool o = __builtin_add_overflow(-5, 3, &r); assert(o && r == UINT_MAX - 1); } // probe
  { assert(__builtin_ffs(0) == 0 && __builtin_ffs(8) == 4); } // probe
  { assert(__builtin_popcountll(~0ULL) == 64); } // probe
  { assert(__builtin_ctzll(1ULL << 40) == 40 && __builtin_clzll(1) == 63); } // probe
  { unsigned v = 0x11223344; assert(__builtin_bswap32(v) == 0x44332211); } // probe
  { unsigned long long v = 0x0102030405060708ULL; assert(__builtin_bswap64(v) == 0x0807060504030201ULL); } // probe
  { unsigned short v = 0x1234; assert(__builtin_bswap16(v) == 0x3412); } // probe
  { unsigned v = 0x80000000u; assert(__builtin_clz(v) == 0 && __builtin_ctz(v) == 31); } // probe
  { int v = -1; assert(__builtin_clrsb(v) == 31 && __builtin_parity(7u) == 1); } // probe
  { int x = 3; assert(__builtin_expect(x, 0) == 3); } // probe
  { assert(__builtin_offsetof(struct off, i) == 4); } // probe
  { assert(__builtin_choose_expr(1, 5, 6.0) == 5); } // probe
  { assert(__builtin_types_compatible_p(int, const int) == 1); } // probe
  { char b[4] = "ab"; assert(__builtin_strlen(b) == 2); } // probe
  { int a[2] = {1, 2}; __builtin_memset(a, 0, sizeof a); assert(a[1] == 0); } // probe
  { int a[2] = {1, 2}, b[2]; __builtin_memcpy(b, a, sizeof a); assert(b[1] == 2); } // probe
  return 0;
}
