// chorus: --checks bounds
// The pruning of cfg/constbranch.go evaluates the test exactly: after
// ok = 256, (unsigned char)ok is 0, so that path takes the else branch
// (reached: the access there always fails) and not the then branch (the
// access there is proven). The mutation Options.UnsoundConstBranches
// evaluates casts without wrapping, cuts the wrong arm and calls the
// failing access unreachable (explore/constbranch_test.go: the explorer's
// failures change).
extern int __VERIFIER_nondet_int(void);
int table[10];

int main(void) {
  int i, ok;
  ok = __VERIFIER_nondet_int();
  i = __VERIFIER_nondet_int();
  if (0 <= i && i < 10)
    ok = 1;
  else
    ok = 256;
  if ((unsigned char)ok)
    table[i] = 1; // want bounds:proven
  else
    table[10] = 2; // want bounds:unproven
  return 0;
}
