// Slice fixture (analysis/slice_test.go): an uninitialized local has any
// value (the ⊥ source of the data flow graph); the initialized one is not
// in the slice.
extern void __VERIFIER_assert(int);

int main(void) {
  int u;
  int k = 3; // slice: out
  __VERIFIER_assert(u + k < 10); // slice: check any
  return 0;
}
