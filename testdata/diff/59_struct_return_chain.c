// Functions returning structs used directly (member of a call result),
// chains of calls passing structs, arrays inside returned structs.
int printf(const char *, ...);

struct vec {
  int v[3];
  int n;
};

struct vec make(int a, int b, int c) {
  struct vec r = {{a, b, c}, 3};
  return r;
}

struct vec scale(struct vec x, int k) {
  for (int i = 0; i < x.n; i++)
    x.v[i] *= k;
  return x;
}

int total(struct vec x) {
  int s = 0;
  for (int i = 0; i < x.n; i++)
    s += x.v[i];
  return s;
}

int main(void) {
  printf("%d\n", total(scale(make(1, 2, 3), 10)));
  printf("%d\n", make(4, 5, 6).v[1]);
  struct vec a = make(7, 8, 9);
  struct vec b = scale(a, 2);
  printf("%d %d\n", a.v[2], b.v[2]);
  printf("%d\n", scale(b, -1).v[0]);
  return 0;
}
