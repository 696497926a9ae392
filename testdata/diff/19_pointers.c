// Pointers: address-of, dereference, pointer arithmetic and comparison,
// pointer differences, pointers to pointers, swapping through pointers.
int printf(const char *, ...);

void swap(int *a, int *b) {
  int t = *a;
  *a = *b;
  *b = t;
}

int main(void) {
  int x = 1, y = 2;
  swap(&x, &y);
  printf("x %d y %d\n", x, y);
  int arr[6] = {10, 20, 30, 40, 50, 60};
  int *p = arr, *end = arr + 6;
  int s = 0;
  while (p < end)
    s += *p++;
  printf("s %d\n", s);
  int *q = &arr[4];
  printf("diff %ld\n", (long)(q - arr));
  printf("q[-2] %d *(q+1) %d\n", q[-2], *(q + 1));
  int **pp = &q;
  **pp = 55;
  *pp = arr;
  printf("arr[4] %d *q %d\n", arr[4], *q);
  int *r = 0;
  printf("null %d\n", r == 0);
  r = &x;
  printf("nonnull %d eq %d\n", r != 0, r == &x);
  char buf[4] = {'a', 'b', 'c', 'd'};
  char *c = buf + 3;
  while (c >= buf + 1) {
    printf("%c", *c);
    c--;
  }
  printf("\n");
  long *lp = (long *)0;
  printf("lp null %d\n", !lp);
  return 0;
}
