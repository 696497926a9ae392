// Block scoping: shadowed variables in nested blocks and loops, several
// declarators that use the previous ones, a block-scope static.
int printf(const char *, ...);

int x = 100;

int main(void) {
  int a = 1, b = a + 1, c = a + b;
  printf("%d %d %d\n", a, b, c);
  int x = 5;
  {
    int x = 7;
    x++;
    printf("inner %d\n", x);
    {
      int x = 9;
      printf("innermost %d\n", x);
    }
    printf("inner again %d\n", x);
  }
  printf("outer %d\n", x);
  for (int x = 0; x < 2; x++) {
    static int calls;
    calls++;
    int y = x * 10;
    printf("loop x %d y %d calls %d\n", x, y, calls);
  }
  printf("after loop %d\n", x);
  return 0;
}
