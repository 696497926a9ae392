// Insertion sort with a comparison callback; two orders through function
// pointers passed as arguments.
int printf(const char *, ...);

int ascending(int a, int b) { return a - b; }
int descending(int a, int b) { return b - a; }
int by_last_digit(int a, int b) { return a % 10 - b % 10; }

void isort(int *a, int n, int (*cmp)(int, int)) {
  for (int i = 1; i < n; i++) {
    int v = a[i], j = i - 1;
    while (j >= 0 && cmp(a[j], v) > 0) {
      a[j + 1] = a[j];
      j--;
    }
    a[j + 1] = v;
  }
}

void show(int *a, int n) {
  for (int i = 0; i < n; i++)
    printf("%d ", a[i]);
  printf("\n");
}

int main(void) {
  int a[7] = {42, 17, 93, 8, 61, 17, 35};
  isort(a, 7, ascending);
  show(a, 7);
  isort(a, 7, descending);
  show(a, 7);
  isort(a, 7, by_last_digit);
  show(a, 7);
  return 0;
}
