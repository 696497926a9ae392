// Casts: narrowing, widening, sign changes, between char/short/int/long,
// unsigned to signed (gcc wraps modulo 2^n), and the usual arithmetic
// conversions.
int printf(const char *, ...);

int main(void) {
  int big = 300;
  unsigned char uc = (unsigned char)big;
  signed char sc = (signed char)big;
  printf("uc %d sc %d\n", uc, sc);
  int neg = -1;
  unsigned un = (unsigned)neg;
  printf("un %u\n", un);
  unsigned long ul = (unsigned long)neg;
  printf("ul %lu\n", ul);
  unsigned long ul2 = (unsigned)neg;
  printf("ul2 %lu\n", ul2);
  long l = 0x123456789L;
  int trunc = (int)l;
  short sh = (short)l;
  printf("trunc %d sh %d\n", trunc, sh);
  unsigned u = 4000000000u;
  int back = (int)u;
  printf("back %d\n", back);
  short s = -2;
  unsigned short us = (unsigned short)s;
  printf("us %d\n", us);
  int cmp = -1 < 1u;
  printf("cmp %d\n", cmp);
  long lcmp = -1L < 1u;
  printf("lcmp %ld\n", lcmp);
  char c = (char)200;
  printf("c %d\n", c);
  int x = (unsigned char)-1 + 1;
  printf("x %d\n", x);
  unsigned long m = (unsigned long)(unsigned char)-3 * 2;
  printf("m %lu\n", m);
  printf("mix %d\n", (int)((unsigned char)250 + (signed char)-6));
  printf("div %u\n", (unsigned)-8 / 2);
  printf("sdiv %d\n", -8 / 2);
  return 0;
}
