// chorus: --checks assert | --domain octagon --checks assert
// GCC's atomic read-modify-write builtins, each op read from its place in
// the name (cfg/builtins.go atomicRMW): __sync_fetch_and_or and
// __sync_xor_and_fetch were taken for "and" (the word in "fetch_and_"),
// and main's binary proved the failing asserts marked unproven here.
// Every assert marked proven holds in gcc's binary.
#include <assert.h>
#include <pthread.h>
int x = 1, y = 1, z = 1, w = 1, n = 12, m = 12;
unsigned char flags;

void *setter(void *arg) {
  __atomic_fetch_or(&flags, 4, __ATOMIC_SEQ_CST);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, setter, 0);
  int old = __sync_fetch_and_or(&x, 2);
  assert(old == 1 && x == 3); // want assert:proven
  assert(__sync_xor_and_fetch(&y, 3) == 2); // want assert:proven
  assert(__sync_or_and_fetch(&z, 4) == 5); // want assert:proven
  assert(__sync_fetch_and_xor(&w, 1) == 1 && w == 0); // want assert:proven
  assert(__sync_fetch_and_nand(&n, 10) == 12 && n == ~8); // want assert:proven
  assert(__atomic_nand_fetch(&m, 4, __ATOMIC_SEQ_CST) == ~4); // want assert:proven
  assert(__sync_and_and_fetch(&m, 3) == 3); // want assert:proven
  __sync_fetch_and_or(&flags, 1);
  assert(flags == 1); // want assert:unproven
  pthread_join(t, 0);
  assert(flags == 5); // want assert:proven
  assert(x == 0); // want assert:unproven
  return 0;
}
