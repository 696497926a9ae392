// chorus: --checks assert --domain octagon | --checks assert --domain interval
// A VLA's size is evaluated when its declaration is reached (C11
// 6.7.6.2p5), side effects included, also in a pointer to a VLA, a
// typedef and sizeof's type name (cfg/lower.go arraySizeEffects): h's
// increments and next()'s call were dropped, and the last assert, which
// gcc's binary fails, was unreachable.
#include <assert.h>
int h, k;
static int next(void) { return ++k; }
int main(void) {
  int n = 2;
  int b[h++ + n];
  int (*p)[next()] = 0;
  int c[n];
  typedef int row[h++];
  row r;
  b[0] = 0;
  c[0] = 0;
  r[0] = 0;
  unsigned long size = sizeof(int[h++ + 1]);
  assert(h == 3); // want assert:proven
  assert(k == 1); // want assert:proven
  if (h == 3 && k == 1) // as gcc's binary shows: the assert below fails
    assert(h == 0 && k == 0); // want assert:unproven
  return b[0] + c[0] + r[0] + (p != 0) + (int)size;
}
