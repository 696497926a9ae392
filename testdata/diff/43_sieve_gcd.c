// Iterative algorithms: sieve of Eratosthenes, gcd by remainders,
// integer square root by bisection, powers by squaring.
int printf(const char *, ...);

int gcd(int a, int b) {
  while (b != 0) {
    int t = a % b;
    a = b;
    b = t;
  }
  return a;
}

int isqrt(int n) {
  int lo = 0, hi = n + 1;
  while (hi - lo > 1) {
    int mid = lo + (hi - lo) / 2;
    if (mid <= n / mid)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

unsigned long power(unsigned long b, int e) {
  unsigned long r = 1;
  while (e > 0) {
    if (e & 1)
      r *= b;
    b *= b;
    e >>= 1;
  }
  return r;
}

int main(void) {
  char composite[60] = {0};
  for (int i = 2; i < 60; i++)
    if (!composite[i]) {
      printf("%d ", i);
      for (int j = i * i; j < 60; j += i)
        composite[j] = 1;
    }
  printf("\n%d %d %d\n", gcd(84, 36), gcd(17, 5), gcd(0, 9));
  printf("%d %d %d\n", isqrt(99), isqrt(100), isqrt(2147395600));
  printf("%lu %lu\n", power(3, 13), power(2, 64));
  return 0;
}
