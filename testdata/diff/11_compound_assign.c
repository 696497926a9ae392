// Compound assignment on int, unsigned, char, long, array elements and
// through pointers.
int printf(const char *, ...);

int main(void) {
  int a = 100;
  a += 5;
  a -= 20;
  a *= 3;
  a /= 7;
  a %= 10;
  printf("a %d\n", a);
  int b = 0x0F;
  b <<= 4;
  b |= 3;
  b &= 0xF1;
  b ^= 0xFF;
  b >>= 2;
  printf("b %d\n", b);
  unsigned u = 5;
  u -= 10;
  printf("u %u\n", u);
  u *= 3;
  printf("u %u\n", u);
  unsigned char c = 200;
  c += 100;
  printf("c %d\n", c);
  signed char sc = 100;
  sc -= 50;
  sc *= 2;
  printf("sc %d\n", sc);
  long l = 1;
  l <<= 40;
  l += 7;
  printf("l %ld\n", l);
  int arr[3] = {1, 2, 3};
  int *p = &arr[1];
  *p += 10;
  arr[2] *= arr[1];
  p[-1] -= 4;
  printf("%d %d %d\n", arr[0], arr[1], arr[2]);
  short s = 1000;
  s *= 30;
  printf("s %d\n", s);
  return 0;
}
