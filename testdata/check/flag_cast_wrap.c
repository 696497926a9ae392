// chorus: --checks assert
// A flag's value seen through a cast wraps to the cast's type: after
// ok = 256, (unsigned char)ok is 0, so the path with x == 0 reaches the
// assertion, which fails there. cfg.EvalFlags (used by dfg/flagpath.go
// and the path-sensitive rules) once let the cast pass 256 through and
// dropped that path: the assertion was reported proven.
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);

int main(void) {
  int ok, x = 0;
  if (__VERIFIER_nondet_int()) {
    ok = 1;
    x = 1;
  } else {
    ok = 256;
  }
  if (!(unsigned char)ok)
    __VERIFIER_assert(x == 1); // want assert:unproven
  return 0;
}
