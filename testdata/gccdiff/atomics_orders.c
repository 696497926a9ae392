// Atomics with memory orders, atomic_flag, the generic __atomic forms, C11
// operations on narrow and 64-bit types. Two wrong proofs: results of
// 64-bit atomics truncated to int, signed atomic sums clamped (builtins.go).
#include <assert.h>
#include <stdatomic.h>
#include <stdint.h>
#include <pthread.h>
atomic_flag fl = ATOMIC_FLAG_INIT;
_Atomic long long g64;
atomic_int gi;
void *add5(void *p) { atomic_fetch_add_explicit(&g64, 5, memory_order_acq_rel); return 0; }
void *cas_inc(void *p) { int e = atomic_load(&gi); while (!atomic_compare_exchange_weak(&gi, &e, e + 1)) ; return 0; }
int main(void) {
  { _Bool a = atomic_flag_test_and_set(&fl); _Bool b = atomic_flag_test_and_set(&fl); atomic_flag_clear(&fl); _Bool c = atomic_flag_test_and_set(&fl); assert(!a && b && !c); } // probe
  { _Atomic unsigned char c = 250; atomic_fetch_add(&c, 10); assert(c == 4); } // probe
  { _Atomic signed char c = 127; int o = atomic_fetch_add(&c, 1); assert(o == 127 && c == -128); } // probe
  { _Atomic unsigned short s = 0; atomic_fetch_sub(&s, 1); assert(s == 65535); } // probe
  { _Atomic uint64_t u = 0; atomic_fetch_sub(&u, 1); assert(u == UINT64_MAX); } // probe
  { _Atomic int v = 6; atomic_fetch_and(&v, 3); atomic_fetch_or(&v, 8); assert(v == 10); } // probe
  { atomic_int v = 1; int o = atomic_exchange_explicit(&v, 7, memory_order_relaxed); assert(o == 1 && atomic_load_explicit(&v, memory_order_acquire) == 7); } // probe
  { atomic_int v = 1; int e = 1; _Bool ok = atomic_compare_exchange_strong_explicit(&v, &e, 5, memory_order_seq_cst, memory_order_relaxed); assert(ok && v == 5 && e == 1); } // probe
  { int v = 3, n = 4, o; __atomic_exchange(&v, &n, &o, __ATOMIC_SEQ_CST); assert(o == 3 && v == 4); } // probe
  { int v = 3, r; __atomic_load(&v, &r, __ATOMIC_ACQUIRE); assert(r == 3); } // probe
  { int v = 3, n = 9; __atomic_store(&v, &n, __ATOMIC_RELEASE); assert(v == 9); } // probe
  { int v = 3; assert(__atomic_fetch_sub(&v, 5, __ATOMIC_RELAXED) == 3 && v == -2); } // probe
  { unsigned v = 0; assert(__atomic_sub_fetch(&v, 1, __ATOMIC_RELAXED) == 4294967295u); } // probe
  { int v = 12; assert(__atomic_and_fetch(&v, 10, 5) == 8 && __atomic_xor_fetch(&v, 1, 5) == 9 && __atomic_or_fetch(&v, 6, 5) == 15); } // probe
  { long v = 1; assert(__sync_add_and_fetch(&v, 1L << 40) == (1L << 40) + 1); } // probe
  { long v = 1L << 40; long r = __sync_add_and_fetch(&v, 1) + 1; assert(r == (1L << 40) + 2); } // probe
  { _Atomic long long g = 3LL << 33; long long r = atomic_load(&g) / 2 + __atomic_load_n(&g, 5) % 7; assert(r == (3LL << 32) + (3LL << 33) % 7); } // probe
  { unsigned char v = 255; assert(__sync_add_and_fetch(&v, 1) == 0); } // probe
  { int v = 0; assert(__sync_bool_compare_and_swap(&v, 0, 3) && v == 3 && !__sync_bool_compare_and_swap(&v, 0, 4)); } // probe
  { int v = 2; __sync_lock_release(&v); assert(v == 0); } // probe
  { _Bool b = 0; assert(__atomic_test_and_set(&b, 5) == 0 && b); } // probe
  { pthread_t t[3]; for (int i = 0; i < 3; i++) pthread_create(&t[i], 0, add5, 0); for (int i = 0; i < 3; i++) pthread_join(t[i], 0); assert(g64 == 15); } // probe
  { pthread_t t[3]; for (int i = 0; i < 3; i++) pthread_create(&t[i], 0, cas_inc, 0); for (int i = 0; i < 3; i++) pthread_join(t[i], 0); assert(gi == 3); } // probe
  { atomic_thread_fence(memory_order_seq_cst); __sync_synchronize(); int x = 1; assert(x == 1); } // probe
  return 0;
}
