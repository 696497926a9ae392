// while loops: counting, nested, early exit through the condition.
int printf(const char *, ...);

int main(void) {
  int i = 0, sum = 0;
  while (i < 10) {
    sum += i * i;
    i++;
  }
  printf("sum of squares %d\n", sum);
  int n = 27, steps = 0;
  while (n != 1) {
    if (n % 2 == 0)
      n = n / 2;
    else
      n = 3 * n + 1;
    steps++;
  }
  printf("collatz steps %d\n", steps);
  int row = 0;
  while (row < 4) {
    int col = 0;
    while (col <= row) {
      printf("%d", col);
      col++;
    }
    printf("\n");
    row++;
  }
  unsigned k = 5;
  while (k--)
    printf("k=%u ", k);
  printf("\nafter k=%u\n", k);
  return 0;
}
