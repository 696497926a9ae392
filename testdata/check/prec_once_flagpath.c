// chorus: --checks assert --domain interval
// Flag-infeasible sequential edges (dfg/flagpath.go), the shape of SV-COMP
// pthread-ext/25_stack's push: r is 1 only on the path that wrote top, so
// top's initial 0 reaches the first assertion on no feasible path. In the
// second block r2 is 1 on both paths: the 0 does reach it. In the third,
// r3 is set before top3's write, so the path from that write does not know
// it (the mutation WithoutFlagPathsUnknownCheck, which drops such paths,
// is caught by the oracle here).
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);

int main(void) {
  int top = 0, r, top2 = 0, r2, top3, r3;
  if (__VERIFIER_nondet_int()) {
    top = 5;
    r = 1;
  } else {
    r = 0;
  }
  if (r)
    __VERIFIER_assert(top != 0); // want assert:proven
  if (__VERIFIER_nondet_int()) {
    top2 = 5;
    r2 = 1;
  } else {
    r2 = 1;
  }
  if (r2)
    __VERIFIER_assert(top2 != 0); // want assert:unproven
  if (__VERIFIER_nondet_int())
    r3 = 1;
  else
    r3 = 0;
  top3 = 0;
  if (r3)
    __VERIFIER_assert(top3 != 0); // want assert:unproven
  return 0;
}
