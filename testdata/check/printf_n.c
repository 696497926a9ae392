// chorus: --checks assert
// printf-like output functions are modelled as writing nothing the
// program reads, except with a literal format holding a %n conversion,
// which stores through its argument (gcc: x is 2, y is 3): those calls
// get the unknown-external model. "%%n" prints "%n" and writes nothing.
#include <assert.h>
#include <stdio.h>
int main(void) {
  int x = 0, y = 0, z = 0;
  printf("ab%n\n", &x);
  assert(x == 0); // want assert:unproven
  fprintf(stderr, "abc%hn\n", (short *)&y);
  assert(y == 0); // want assert:unproven
  printf("%%n %d\n", z);
  assert(z == 0); // want assert:proven
  return 0;
}
