// 64-bit bit manipulation: masks, shifts by variables up to 63, rotations,
// counting bits of unsigned long, mixing int and unsigned long.
int printf(const char *, ...);

int bits(unsigned long x) {
  int n = 0;
  for (; x; x >>= 1)
    n += (int)(x & 1);
  return n;
}

int main(void) {
  unsigned long v = 0xF0F0F0F0F0F0F0F0ul;
  printf("%d %lx %lx\n", bits(v), v >> 60, v << 60);
  for (int s = 0; s < 64; s += 21)
    printf("%lx ", 1ul << s);
  printf("\n");
  unsigned long r = (v << 4) | (v >> 60);
  printf("%lx\n", r);
  long neg = -256;
  printf("%ld %lx\n", neg >> 4, (unsigned long)neg >> 56);
  int i = -1;
  unsigned long w = i;
  printf("%lu\n", w);
  unsigned long mask = ~0ul << 8;
  printf("%lx\n", mask & 0x12345ul);
  return 0;
}
