// chorus: --checks assert -DNDEBUG
// With -DNDEBUG, assert() vanishes as in C; an explicit abort() test stays.
#include <assert.h>
#include <stdlib.h>

int main(void) {
  int x = 1;
  assert(x == 2);
  if (!(x == 1)) abort(); // want assert:proven
  return 0;
}
