// Division and remainder truncate toward zero; the remainder has the
// sign of the dividend. Unsigned and signed, several widths.
int printf(const char *, ...);

int main(void) {
  int xs[4] = {7, -7, 7, -7};
  int ys[4] = {2, 2, -2, -2};
  for (int i = 0; i < 4; i++)
    printf("%d/%d=%d %d%%%d=%d\n", xs[i], ys[i], xs[i] / ys[i], xs[i], ys[i], xs[i] % ys[i]);
  printf("%d %d\n", -1 / 3, -1 % 3);
  printf("%u %u\n", 4294967295u / 10u, 4294967295u % 10u);
  long a = -1000000000000L;
  printf("%ld %ld\n", a / 7, a % 7);
  unsigned u = -7;
  printf("%u %u\n", u / 2, u % 2);
  int q = -9, r = 4;
  printf("%d\n", (q / r) * r + q % r);
  signed char sc = -100;
  printf("%d %d\n", sc / 3, sc % 3);
  int digitsum = 0, v = 98765;
  while (v > 0) {
    digitsum += v % 10;
    v /= 10;
  }
  printf("digitsum %d\n", digitsum);
  return 0;
}
