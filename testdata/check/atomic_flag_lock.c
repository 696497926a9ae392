// chorus: --checks assert
// <stdatomic.h>'s atomic_flag is GCC's __atomic_test_and_set and
// __atomic_clear on its byte (cfg/builtins.go); they were unknown
// externals. A spin on atomic_flag_test_and_set is then a test-and-set
// lock (cfg/taslock.go) and protects x; the unprotected read can see 1.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
atomic_flag f = ATOMIC_FLAG_INIT;
int x;
void *worker(void *arg) {
  while (atomic_flag_test_and_set(&f))
    ;
  x = 1;
  x = 0;
  assert(x == 0); // want assert:proven
  atomic_flag_clear(&f);
  return 0;
}
int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  assert(x == 0); // want assert:unproven
  while (atomic_flag_test_and_set(&f))
    ;
  assert(x == 0); // want assert:proven
  atomic_flag_clear(&f);
  return 0;
}
