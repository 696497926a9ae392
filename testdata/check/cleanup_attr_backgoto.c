// chorus: --checks assert --domain interval
// A goto back to a label before a cleanup variable's declaration leaves
// the variable's scope: GCC runs its cleanup (cfg/cleanup.go).
// Intervals prove flag == 1 below (flag is 0 or 1 at the label, 1 once
// round is 1); the octagon domain loses it at the label.
#include <assert.h>
int flag;
static void set(int *p) { flag = *p; }
int main(void) {
  int round = 0;
again:;
  __attribute__((cleanup(set))) int k = 1;
  if (round == 0) {
    round = 1;
    goto again; // k leaves its scope: set(&k)
  }
  assert(flag == 1); // want assert:proven
  if (flag == 1) // as gcc's binary shows: the assert below fails
    assert(flag == 0); // want assert:unproven
  return 0;
}
