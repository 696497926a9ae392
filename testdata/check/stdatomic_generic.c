// chorus: --checks assert
// <stdatomic.h>'s generic macros expand to GCC's __auto_type declarations
// and the generic __atomic_load/store/exchange/compare_exchange builtins,
// which pass values through pointers (cfg/builtins.go). Before, the
// __auto_type declarations were dropped ("unresolved identifier") and the
// builtins were unknown externals. v == 0 fails in gcc's binary when the
// worker runs before main's load; the other unproven assert holds (after a
// failed exchange expected is c's value, at least 1: intervals cannot say
// so).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
atomic_int c;
_Atomic long d;
void *worker(void *arg) {
  atomic_fetch_add(&c, 1);
  atomic_store(&d, 2);
  return 0;
}
int main(void) {
  pthread_t t;
  long mine = 7;
  atomic_store(&mine, 3);
  assert(atomic_load(&mine) == 3); // want assert:proven
  pthread_create(&t, 0, worker, 0);
  int v = atomic_load(&c);
  long e = atomic_exchange(&d, 1);
  assert(v >= 0 && v <= 6); // want assert:proven
  assert(e >= 0 && e <= 2); // want assert:proven
  int expected = 0;
  _Bool swapped = atomic_compare_exchange_strong(&c, &expected, 5);
  assert(swapped || expected >= 1); // want assert:unproven
  assert(v == 0); // want assert:unproven
  return 0;
}
