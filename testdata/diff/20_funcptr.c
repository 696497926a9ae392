// Function pointers: variables, arrays of them, parameters, returning
// them, comparing them, calling through a struct member.
int printf(const char *, ...);

int add(int a, int b) { return a + b; }
int sub(int a, int b) { return a - b; }
int mul(int a, int b) { return a * b; }

typedef int (*binop)(int, int);

int apply(binop f, int a, int b) { return f(a, b); }

binop pick(char c) {
  if (c == '+')
    return add;
  if (c == '-')
    return sub;
  return mul;
}

struct op {
  char sym;
  binop fn;
};

int main(void) {
  binop ops[3] = {add, sub, mul};
  for (int i = 0; i < 3; i++)
    printf("%d ", ops[i](7, 3));
  printf("\n");
  printf("%d %d\n", apply(sub, 10, 4), apply(pick('*'), 6, 7));
  binop f = pick('-');
  printf("is sub %d is add %d\n", f == sub, f == add);
  struct op table[2] = {{'+', add}, {'*', mul}};
  int acc = 1;
  for (int i = 0; i < 2; i++)
    acc = table[i].fn(acc, 5);
  printf("acc %d\n", acc);
  int (*g)(int, int) = &add;
  printf("g %d\n", (*g)(2, 2));
  return 0;
}
