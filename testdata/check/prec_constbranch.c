// chorus: --checks bounds
// A condition used as a value, as CIL lowers it (cfg/constbranch.go): the
// flag's constant assignments lead directly into the two arms of the
// assume, and an arm the constant refutes is no path. ok is also written
// with an input, so it is no flag register of dfg/flagpath.go: only the
// frontend's pruning proves the first access. In the second block ok is
// nonzero also where i >= 10: the access stays unproven.
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
int table[10];

int main(void) {
  int i, ok;
  ok = __VERIFIER_nondet_int();
  i = __VERIFIER_nondet_int();
  if (0 <= i) {
    if (i < 10)
      ok = 1;
    else
      ok = 0;
  } else
    ok = 0;
  __VERIFIER_assume(ok);
  table[i] = 1; // want bounds:proven
  i = __VERIFIER_nondet_int();
  if (0 <= i) {
    if (i < 10)
      ok = 1;
    else
      ok = 2;
  } else
    ok = 0;
  __VERIFIER_assume(ok);
  table[i] = 2; // want bounds:unproven
  return 0;
}
