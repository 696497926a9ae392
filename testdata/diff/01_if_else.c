// if/else chains, nesting, dangling else, conditions with side effects.
int printf(const char *, ...);

int classify(int x) {
  if (x < 0)
    return -1;
  else if (x == 0)
    return 0;
  else if (x < 10)
    return 1;
  else
    return 2;
}

int main(void) {
  int i;
  for (i = -3; i < 14; i += 4)
    printf("classify(%d) = %d\n", i, classify(i));
  int a = 5, b = 7;
  if (a > b)
    if (a > 10)
      printf("a big\n");
    else
      printf("dangling else binds inner\n");
  else
    printf("outer else a=%d b=%d\n", a, b);
  int n = 0;
  if (n++ == 0 && ++n == 2)
    printf("both sides ran, n=%d\n", n);
  if (!(a - 5))
    printf("a is five\n");
  if (a)
    ;
  else
    printf("unreachable\n");
  return 0;
}
