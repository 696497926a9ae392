// Arrays: one- and two-dimensional, indexing with expressions, bubble
// sort, arrays passed to functions (as pointers), sums.
int printf(const char *, ...);

void sort(int *a, int n) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j + 1 < n - i; j++)
      if (a[j] > a[j + 1]) {
        int t = a[j];
        a[j] = a[j + 1];
        a[j + 1] = t;
      }
}

int sum(int a[], int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += a[i];
  return s;
}

int main(void) {
  int a[8] = {5, -3, 9, 0, 2, 2, -7, 4};
  sort(a, 8);
  for (int i = 0; i < 8; i++)
    printf("%d ", a[i]);
  printf("\nsum %d\n", sum(a, 8));
  int m[3][4];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 4; j++)
      m[i][j] = i * 4 + j;
  int diag = 0;
  for (int i = 0; i < 3; i++)
    diag += m[i][i];
  printf("diag %d last %d\n", diag, m[2][3]);
  printf("row sum %d\n", sum(m[1], 4));
  int fib[12];
  fib[0] = 0;
  fib[1] = 1;
  for (int i = 2; i < 12; i++)
    fib[i] = fib[i - 1] + fib[i - 2];
  printf("fib %d\n", fib[11]);
  char name[6] = {'c', 'h', 'o', 'r', 'u', 's'};
  for (int i = 5; i >= 0; i--)
    printf("%c", name[i]);
  printf("\n");
  return 0;
}
