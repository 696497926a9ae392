// Expressions with side effects (all sequenced): assignments as values,
// chained assignments, calls modifying globals, ++ inside arguments.
int printf(const char *, ...);

int counter;

int next(void) { return ++counter; }

int twice(int x) { return 2 * x; }

int main(void) {
  int a, b, c;
  a = b = c = 7;
  printf("%d %d %d\n", a, b, c);
  int x = (a = 3) + 1;
  printf("x %d a %d\n", x, a);
  int y = twice(a++);
  printf("y %d a %d\n", y, a);
  int z = twice(++a);
  printf("z %d a %d\n", z, a);
  int s = next();
  s += next();
  s *= next();
  printf("s %d counter %d\n", s, counter);
  int arr[4] = {0, 0, 0, 0};
  int i = 0;
  arr[i++] = 5;
  arr[i++] = 6;
  arr[++i] = 8;
  printf("%d %d %d %d i=%d\n", arr[0], arr[1], arr[2], arr[3], i);
  int *p = arr;
  *p++ = 10;
  *++p = 12;
  printf("%d %d %d p-arr=%ld\n", arr[0], arr[1], arr[2], (long)(p - arr));
  if ((c = next()) > 3)
    printf("c %d\n", c);
  return 0;
}
