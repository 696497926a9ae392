// Static locals keep their value between calls and are initialized once;
// static globals; two functions with same-named statics.
int printf(const char *, ...);

static int calls;

int counter(void) {
  static int n = 10;
  calls++;
  return n++;
}

int other(void) {
  static int n;
  n += 5;
  return n;
}

int *cell(void) {
  static int c = 100;
  return &c;
}

int main(void) {
  for (int i = 0; i < 3; i++)
    printf("%d ", counter());
  int o1 = other();
  int o2 = other();
  printf("\n%d %d\n", o1, o2);
  *cell() += 1;
  *cell() += 1;
  printf("cell %d calls %d\n", *cell(), calls);
  return 0;
}
