// chorus: --checks assert
// A union of a char array (one summary cell) and an int starting at the
// same offset: the array's initial value covers the whole union (the
// summary's extent once ended at the int's cell, which gave it no value
// at all and made everything after an unknown call unreachable).
extern void __VERIFIER_assert(int);
extern void ext(void *);
union { char c[8]; int a; } s = { .c = "abcdefg" };
union { char c[4]; int a; } z;
int g;
int main(void) {
  int i = 5;
  __VERIFIER_assert(s.c[i] != 102); // want assert:unproven
  ext(&z);
  __VERIFIER_assert(g == 0); // want assert:proven
  return 0;
}
