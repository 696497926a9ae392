// Static and global tables of structs with function pointers and strings,
// looked up by name with a hand-written string compare.
int printf(const char *, ...);

static int inc(int x) { return x + 1; }
static int dbl(int x) { return x * 2; }
static int neg(int x) { return -x; }

static const struct {
  const char *name;
  int (*fn)(int);
} ops[] = {
    {"inc", inc},
    {"dbl", dbl},
    {"neg", neg},
};

static int same(const char *a, const char *b) {
  while (*a && *a == *b)
    a++, b++;
  return *a == *b;
}

int apply(const char *name, int x) {
  for (unsigned i = 0; i < sizeof ops / sizeof ops[0]; i++)
    if (same(ops[i].name, name))
      return ops[i].fn(x);
  return 0;
}

int main(void) {
  int v = 5;
  const char *prog[] = {"dbl", "inc", "neg", "nop", "dbl"};
  for (int i = 0; i < 5; i++) {
    v = apply(prog[i], v);
    printf("%s -> %d\n", prog[i], v);
  }
  return 0;
}
