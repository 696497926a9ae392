// &&, || and ?: with short-circuit evaluation and side effects; their
// values as integers.
int printf(const char *, ...);

int calls;

int t(int v) {
  calls++;
  return v;
}

int main(void) {
  int r;
  r = t(0) && t(1);
  printf("r %d calls %d\n", r, calls);
  r = t(2) && t(3);
  printf("r %d calls %d\n", r, calls);
  r = t(1) || t(5);
  printf("r %d calls %d\n", r, calls);
  r = t(0) || t(0);
  printf("r %d calls %d\n", r, calls);
  int a = 4, b = 0;
  int v = a > 3 ? b == 0 ? 10 : 20 : 30;
  printf("v %d\n", v);
  int w = (a < 3 || b++ == 0) ? b : -b;
  printf("w %d b %d\n", w, b);
  int x = !a + !!a + (a && b) + (a || b) * 2;
  printf("x %d\n", x);
  int i = 0;
  while (i < 10 && (i % 4 != 3 || i < 5))
    i++;
  printf("i %d\n", i);
  int m = a > b ? a : b;
  printf("m %d\n", m);
  int k = 0;
  int q = (k++, k++, k > 1) ? k : 0;
  printf("q %d\n", q);
  return 0;
}
