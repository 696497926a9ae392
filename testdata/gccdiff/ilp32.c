// gccdiff: chorus=--data-model,ILP32 gcc=-m32
// The DDVerify drivers' data model: long and pointers are 32 bits.
#include <assert.h>
int main(void) {
  { unsigned long u = 0; u--; assert(u == 4294967295UL); } // probe
  { long v = 2147483647L; unsigned long w = (unsigned long)v + 1; assert(w == 2147483648UL); } // probe
  { assert(sizeof(long) == 4 && sizeof(void *) == 4); } // probe
  { long long v = 1LL << 40; assert(v == 1099511627776LL); } // probe
  return 0;
}
