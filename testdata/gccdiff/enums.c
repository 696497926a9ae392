// Enumerations: underlying types GCC picks (unsigned when no value is
// negative and one exceeds INT_MAX, long for larger), enum bit-fields,
// conversions to and from enums.
#include <assert.h>
enum u { U0, UBIG = 0x80000000u };
enum l { LNEG = -1, LBIG = 0x100000000LL };
enum s { S0 = -2, S1 };
struct eb { enum s f : 2; unsigned g : 1; };
int main(void) {
  { enum u v = UBIG; assert(v > 0 && sizeof v == 4); } // probe
  { enum u v = U0; v--; assert(v > 0); } // probe
  { enum l v = LBIG; assert(sizeof v == 8 && v == 4294967296LL); } // probe
  { enum l v = LNEG; assert(v < 0); } // probe
  { enum s v = S1; assert(v == -1); } // probe
  { struct eb b = {S0, 1}; assert(b.f == -2 && b.f < 0); } // probe
  { struct eb b = {0}; b.f = S1; b.f++; assert(b.f == 0); } // probe
  { int i = 7; enum s v = i; assert(v == 7); } // probe
  { enum u v = UBIG; int i = v; assert(i < 0); } // probe
  { enum u v = UBIG; long long w = v; assert(w == 2147483648LL); } // probe
  return 0;
}
