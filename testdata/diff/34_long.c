// 64-bit arithmetic: long and unsigned long, %ld/%lu/%lx, large products,
// mixing int and long, long long.
int printf(const char *, ...);

int main(void) {
  long a = 3000000000L;
  long b = a * 3;
  printf("%ld\n", b);
  long c = -a * 1000;
  printf("%ld\n", c);
  unsigned long u = 1;
  for (int i = 0; i < 20; i++)
    u *= 9;
  printf("%lu\n", u);
  printf("%lx\n", u);
  int i = 2000000000;
  long widened = (long)i + i;
  printf("%ld\n", widened);
  long long ll = 9000000000000000000LL;
  printf("%lld\n", ll / 7);
  unsigned long long ull = 18000000000000000000ULL;
  printf("%llu\n", ull + 400000000000000000ULL);
  long fact = 1;
  for (int k = 2; k <= 20; k++)
    fact *= k;
  printf("20! = %ld\n", fact);
  long neg = -9223372036854775807L - 1;
  printf("%ld %lu\n", neg, (unsigned long)neg);
  return 0;
}
