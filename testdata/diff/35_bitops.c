// Bit operations: &, |, ^, ~ on signed and unsigned values, popcount,
// bit tests, clearing the lowest set bit, parity.
int printf(const char *, ...);

int popcount(unsigned x) {
  int n = 0;
  while (x) {
    x &= x - 1;
    n++;
  }
  return n;
}

int main(void) {
  unsigned vals[5] = {0, 1, 0xFF, 0x80000001u, 0xFFFFFFFFu};
  for (int i = 0; i < 5; i++)
    printf("%d ", popcount(vals[i]));
  printf("\n");
  int a = 0x5A, b = 0x3C;
  printf("%x %x %x %x\n", a & b, a | b, a ^ b, ~a & 0xFF);
  int neg = -6;
  printf("%d %d %d\n", neg & 7, neg | 1, ~neg);
  unsigned flags = 0;
  flags |= 1u << 3;
  flags |= 1u << 7;
  flags &= ~(1u << 3);
  printf("flags %x bit7 %d bit3 %d\n", flags, (flags >> 7) & 1, (flags & (1u << 3)) != 0);
  unsigned x = 0xB4;
  unsigned low = x & -x;
  printf("low %u\n", low);
  unsigned p = x;
  p ^= p >> 16;
  p ^= p >> 8;
  p ^= p >> 4;
  p ^= p >> 2;
  p ^= p >> 1;
  printf("parity %u\n", p & 1);
  return 0;
}
