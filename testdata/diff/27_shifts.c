// Shifts: left and right on signed and unsigned values of several widths
// (right shift of a negative int is arithmetic in gcc), shift counts from
// variables.
int printf(const char *, ...);

int main(void) {
  int a = 1;
  for (int i = 0; i < 31; i += 5)
    printf("%d ", a << i);
  printf("\n");
  int n = -64;
  printf("%d %d %d\n", n >> 1, n >> 3, n >> 10);
  unsigned u = 0x80000000u;
  printf("%u %u %x\n", u >> 1, u >> 31, u >> 4);
  unsigned long ul = 1ul << 63;
  printf("%lu %lx\n", ul, ul >> 60);
  long l = -1L;
  printf("%ld\n", l >> 40);
  unsigned char c = 0xF0;
  printf("%d %d\n", c >> 4, c << 4);
  int k = 3;
  printf("%d %u\n", 100 >> k, 7u << k);
  unsigned mask = ~0u >> (32 - 5);
  printf("mask %x\n", mask);
  unsigned x = 0xDEADBEEF;
  unsigned rot = (x << 8) | (x >> 24);
  printf("rot %x\n", rot);
  return 0;
}
