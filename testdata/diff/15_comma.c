// The comma operator: value of the last operand, all sides evaluated in
// order, in for headers, in conditions and in arguments (parenthesized).
int printf(const char *, ...);

int main(void) {
  int a = 1, b = 2, c;
  c = (a++, b++, a + b);
  printf("a %d b %d c %d\n", a, b, c);
  int x = (a = 10, a * 2);
  printf("x %d\n", x);
  int i, j;
  for (i = 0, j = 5; i < j; i += 2, j--)
    printf("i %d j %d\n", i, j);
  int n = 0;
  while (n++, n < 3)
    printf("n %d\n", n);
  printf("arg %d\n", (a--, a));
  return 0;
}
