// _Bool: every non-zero value converts to 1; arithmetic on bools; bools in
// conditions and as array indexes.
int printf(const char *, ...);

int main(void) {
  _Bool a = 5, b = 0, c = -1;
  printf("%d %d %d\n", a, b, c);
  _Bool d = 256;
  printf("%d\n", d);
  int n = a + c + d;
  printf("%d\n", n);
  const char *names[2] = {"no", "yes"};
  for (int i = 0; i < 4; i++) {
    _Bool even = (i % 2 == 0);
    printf("%d:%s ", i, names[even]);
  }
  printf("\n");
  _Bool t = 1;
  t = !t;
  t += 3;
  printf("%d\n", t);
  long big = 1L << 40;
  _Bool fromlong = big;
  printf("%d\n", fromlong);
  return 0;
}
