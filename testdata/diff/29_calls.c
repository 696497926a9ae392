// Calls: nested calls, calls as arguments, several parameters, functions
// modifying globals and out-parameters, several returns, a call chain.
int printf(const char *, ...);

int depth;

int sq(int x) { return x * x; }
int add3(int a, int b, int c) { return a + b + c; }

int divmod(int a, int b, int *rem) {
  if (b == 0) {
    *rem = 0;
    return -1;
  }
  *rem = a % b;
  return a / b;
}

int level3(int x) {
  depth = 3;
  return x + 3;
}
int level2(int x) {
  depth = 2;
  return level3(x * 2) + 2;
}
int level1(int x) {
  int r = level2(x + 1);
  depth = 1;
  return r;
}

int abs_diff(int a, int b) {
  if (a > b)
    return a - b;
  return b - a;
}

int main(void) {
  printf("%d\n", add3(sq(2), sq(sq(2)), add3(1, 1, 1)));
  int rem;
  int q = divmod(17, 5, &rem);
  printf("q %d rem %d\n", q, rem);
  q = divmod(1, 0, &rem);
  printf("q %d rem %d\n", q, rem);
  int chain = level1(4);
  printf("chain %d depth %d\n", chain, depth);
  printf("%d %d\n", abs_diff(3, 10), abs_diff(10, 3));
  int v = 2;
  v = sq(v) + sq(v + 1);
  printf("v %d\n", v);
  return v + 300; // exit status 313 % 256 = 57
}
