// chorus: --checks overflow,divzero,shift,bounds | --domain octagon --checks overflow,divzero,shift,bounds
// 128-bit integers are any value (cfg/wideint.go): their arithmetic's
// overflow and divisor checks stay unproven, but a shift count is checked
// against 128 bits, and a constant divisor needs no check. xxhash's
// 64x64->128 multiply (memcached's hash.c) is the shape below.
#include <stdint.h>
extern int __VERIFIER_nondet_int(void);
typedef unsigned __int128 u128;
typedef __int128 s128;
int table[4];
uint64_t mul_hi(uint64_t a, uint64_t b) {
  u128 p = (u128)a * b;
  return (uint64_t)(p >> 64);
}
int main(void) {
  uint64_t h = mul_hi(0xFFFFFFFFFFFFFFFFULL, 3);
  s128 s = (s128)__VERIFIER_nondet_int() << 40;
  s = s * 1000; // want overflow:unproven
  s128 q = s / 7;
  int d = __VERIFIER_nondet_int();
  s128 r = s / d; // want divzero:unproven overflow:unproven
  unsigned k = (unsigned)(h & 3);
  table[k] = (int)(q + r); // want bounds:proven overflow:unproven
  int n = __VERIFIER_nondet_int();
  if (n >= 0 && n < 100)
    h = (uint64_t)((u128)h << n >> 64); // want shift:proven
  if (n >= 0 && n < 200)
    h = (uint64_t)((u128)h << n); // want shift:unproven
  u128 big = (u128)1 << 64;
  table[(int)(big >> 64)] = 1; // want bounds:unproven
  return 0;
}
