// Slice fixture (analysis/slice_test.go): one thread; the bad value of m
// comes from the input k through m = k + 1; j is 3 everywhere and explains
// nothing.
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);

int main(void) {
  int k = __VERIFIER_nondet_int(); // slice: in source
  int j = 3; // slice: out
  if (k > 1000)
    return 0;
  int m = k + 1; // slice: in
  __VERIFIER_assert(m > 0 && j > 0); // slice: check
  return 0;
}
