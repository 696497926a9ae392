// chorus: --checks assert --domain octagon | --checks assert --domain interval
// A goto back to a label before a cleanup variable's declaration leaves
// the variable's scope: GCC runs its cleanup (cfg/cleanup.go). The octagon
// keeps flag == round at the label.
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
