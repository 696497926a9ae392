// chorus: --checks assert | --domain octagon --checks assert
// The initial values of a global array of structs. A summary cell (t[*].x)
// stands for bytes 0, 8 and 16 of t, interleaved with t[*].y's: main's
// binary took its bytes to run up to the next cell's offset, saw only
// t[0].x's initializer, and proved each assert marked unproven below (each
// fails in gcc's binary; a failing assert ends its path). The proven ones
// need the fields kept apart: t[*].x never holds a y value.
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
struct pt { int x, y; };
struct pt t[3] = {{1, 2}, {3, 4}, {5, 6}};
struct pt zeros[3] = {{7}};            // zeros[1].x == 0
struct pt skip[3] = {[1] = {7}};       // skip[0].x == 0, skip[1].x == 7
struct { struct { int x, y; } p[2]; int z; } nest = {{{1, 2}, {3, 4}}, 5};
union u { int w[2]; long long q; } pun[2] = {{{1, 2}}, {{3, 4}}};
int get(int i) {
  static struct pt s[2] = {{1, 2}, {3, 4}};
  return s[i].x;
}
int main(void) {
  int i = __VERIFIER_nondet_int();
  if (i < 0 || i > 2) return 0;
  int k = __VERIFIER_nondet_int();
  if (k == 0) {
    assert(t[1].x == 1); // want assert:unproven
  } else if (k == 1) {
    assert(zeros[1].x != 0); // want assert:unproven
  } else if (k == 2) {
    assert(skip[1].x == 0); // want assert:unproven
  } else if (k == 3) {
    assert(nest.p[1].x == 1); // want assert:unproven
  } else if (k == 4) {
    assert(get(1) == 1); // want assert:unproven
  } else if (k == 5) {
    assert(pun[1].w[1] != 4); // want assert:unproven
  }
  assert(t[i].x >= 1 && t[i].x <= 5); // want assert:proven
  assert(t[i].y >= 2 && t[i].y <= 6); // want assert:proven
  assert(zeros[i].y == 0); // want assert:proven
  assert(skip[i].x >= 0 && skip[i].x <= 7); // want assert:proven
  assert(nest.z == 5); // want assert:proven
  if (i < 2) {
    assert(nest.p[i].x >= 1 && nest.p[i].x <= 3); // want assert:proven
    assert(get(i) <= 3); // want assert:proven
  }
  return 0;
}
