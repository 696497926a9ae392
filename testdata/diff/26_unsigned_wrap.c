// Unsigned arithmetic wraps modulo 2^n: add, subtract, multiply, negate,
// for int, char, short (promoted to int, then converted back) and long.
int printf(const char *, ...);

int main(void) {
  unsigned a = 4294967295u;
  a = a + 1;
  printf("%u\n", a);
  unsigned b = 0;
  b = b - 1;
  printf("%u %x\n", b, b);
  unsigned c = 65536u * 65536u;
  printf("%u\n", c);
  unsigned d = 3000000000u * 3u;
  printf("%u\n", d);
  unsigned e = -5u;
  printf("%u\n", e);
  unsigned char uc = 250;
  uc = uc + 10;
  printf("%d\n", uc);
  unsigned short us = 65535;
  us = us + 2;
  printf("%d\n", us);
  unsigned long ul = 18446744073709551615ul;
  ul = ul + 2;
  printf("%lu\n", ul);
  unsigned long m = 0x8000000000000000ul;
  m = m * 2;
  printf("%lu\n", m);
  unsigned h = 2166136261u;
  const char *s = "chorus";
  while (*s) {
    h ^= (unsigned char)*s++;
    h *= 16777619u;
  }
  printf("fnv %u\n", h);
  unsigned x = 7;
  printf("%u %u\n", x - 8, (x - 8) / 2);
  return 0;
}
