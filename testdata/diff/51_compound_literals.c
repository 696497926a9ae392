// Compound literals: struct and array literals as values, their addresses,
// and as function arguments.
int printf(const char *, ...);

struct pt {
  int x, y;
};

int dot(struct pt a, struct pt b) { return a.x * b.x + a.y * b.y; }
int sum(const int *a, int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += a[i];
  return s;
}

int main(void) {
  printf("%d\n", dot((struct pt){1, 2}, (struct pt){3, 4}));
  printf("%d\n", sum((int[]){5, 6, 7}, 3));
  struct pt *p = &(struct pt){.y = 9};
  p->x += 2;
  printf("%d %d\n", p->x, p->y);
  int *q = (int[4]){1, 2};
  printf("%d %d %d %d\n", q[0], q[1], q[2], q[3]);
  return 0;
}
