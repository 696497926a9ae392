// chorus: --checks assert -std=c99
// With -std=c99 glibc's assert is the ISO C form
// ((e) ? (void) (0) : __assert_fail (#e, ...)).
#include <assert.h>

int main(void) {
  int x = 4;
  assert(x == 4); // want assert:proven
  assert(x > 4); // want assert:unproven
  return 0;
}
