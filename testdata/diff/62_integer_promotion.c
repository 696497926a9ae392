// Integer promotions and usual arithmetic conversions: char and short
// arithmetic is done in int, comparisons of signed and unsigned, unsigned
// short products promoted to int (kept small to avoid overflow).
int printf(const char *, ...);

int main(void) {
  unsigned char a = 200, b = 100;
  int s = a + b;
  unsigned char t = a + b;
  printf("%d %d\n", s, t);
  signed char c = -100, d = -100;
  int e = c + d;
  printf("%d\n", e);
  unsigned short us = 300;
  printf("%d\n", us * us);
  unsigned int u = 1;
  int i = -1;
  printf("%d %d\n", i < (int)u, (unsigned)i > u);
  long l = -1;
  printf("%d\n", l < u);
  unsigned char shifted = (unsigned char)(a << 1);
  printf("%d %d\n", a << 1, shifted);
  char diff = 'a' - 'A';
  printf("%d\n", diff);
  printf("%d\n", (short)-1 == (unsigned short)65535);
  printf("%u\n", (unsigned char)-1 + 0u);
  return 0;
}
