// do/while: body runs at least once; continue jumps to the condition.
int printf(const char *, ...);

int digits(unsigned x) {
  int n = 0;
  do {
    n++;
    x /= 10;
  } while (x != 0);
  return n;
}

int main(void) {
  printf("%d %d %d %d\n", digits(0), digits(9), digits(10), digits(4294967295u));
  int i = 0, odd = 0;
  do {
    i++;
    if (i % 2 == 0)
      continue;
    odd += i;
  } while (i < 9);
  printf("odd sum %d i %d\n", odd, i);
  int once = 0;
  do
    once++;
  while (0);
  printf("once %d\n", once);
  return 0;
}
