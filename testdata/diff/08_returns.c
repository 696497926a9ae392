// Functions with several return statements, early returns in loops,
// void functions returning early, results used in expressions, main's
// return value as the exit status.
int printf(const char *, ...);

int g;

int sign(int x) {
  if (x > 0)
    return 1;
  if (x < 0)
    return -1;
  return 0;
}

int first_multiple(int n, int k) {
  for (int i = 1; i <= n; i++)
    if (i % k == 0)
      return i;
  return -1;
}

void bump(int x) {
  if (x < 0)
    return;
  g += x;
}

int max3(int a, int b, int c) {
  if (a >= b && a >= c)
    return a;
  else if (b >= c)
    return b;
  return c;
}

int main(void) {
  printf("%d %d %d\n", sign(-5), sign(0), sign(9));
  printf("%d %d\n", first_multiple(10, 4), first_multiple(3, 7));
  bump(3);
  bump(-2);
  bump(4);
  printf("g %d\n", g);
  printf("%d %d %d\n", max3(1, 2, 3), max3(3, 2, 1), max3(2, 3, 1));
  printf("%d\n", sign(max3(-1, -2, -3)) + first_multiple(9, 3) * 2);
  return g; // the exit status is compared too
}
