// GCC's __sync and __atomic builtins and <stdatomic.h>. The op of
// __sync_fetch_and_or/xor and __sync_or/xor_and_fetch was found by
// searching the name for "and", which "fetch_and_" contains: all four
// were ANDs.
#include <assert.h>
#include <stdatomic.h>
int main(void) {
  { int x = 1; int o = __sync_fetch_and_or(&x, 2); assert(o == 1 && x == 3); } // probe
  { int y = 1; assert(__sync_xor_and_fetch(&y, 3) == 2); } // probe
  { int z = 1; assert(__sync_or_and_fetch(&z, 4) == 5); } // probe
  { int w = 1; assert(__sync_fetch_and_xor(&w, 1) == 1 && w == 0); } // probe
  { int n = 12; assert(__sync_fetch_and_nand(&n, 10) == 12 && n == ~8); } // probe
  { int m = 12; assert(__atomic_nand_fetch(&m, 4, __ATOMIC_SEQ_CST) == ~4); } // probe
  { int l = 5; int o = __sync_lock_test_and_set(&l, 1); assert(o == 5 && l == 1); } // probe
  { int v = 3; int o = __sync_val_compare_and_swap(&v, 4, 9); assert(o == 3 && v == 3); } // probe
  { int v = 3, e = 4; _Bool ok = __atomic_compare_exchange_n(&v, &e, 9, 0, 5, 5); assert(!ok && e == 3); } // probe
  { _Atomic int v = 3; int o = atomic_fetch_add(&v, 2); assert(o == 3 && v == 5); } // probe
  { atomic_uint v = 5; atomic_fetch_xor(&v, 1u); assert(v == 4); } // probe
  { atomic_int v = 5; int e = 4; _Bool ok = atomic_compare_exchange_strong(&v, &e, 8); assert(!ok && v == 5); } // probe
  { _Atomic int v = 5; v |= 2; v ^= 1; v <<= 1; assert(v == 12); } // probe
  return 0;
}
