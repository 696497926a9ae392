// ++ and -- in prefix and postfix forms on locals, globals, array
// elements, struct fields, pointers and unsigned values at the wrap point.
int printf(const char *, ...);

int g = 10;
struct point {
  int x, y;
};

int main(void) {
  int i = 5;
  int a = i++;
  int b = ++i;
  int c = i--;
  int d = --i;
  printf("%d %d %d %d %d\n", a, b, c, d, i);
  g++;
  ++g;
  g--;
  printf("g %d\n", g);
  int arr[3] = {1, 2, 3};
  arr[1]++;
  --arr[2];
  printf("%d %d %d\n", arr[0], arr[1], arr[2]);
  struct point p = {1, 2};
  p.x++;
  --p.y;
  struct point *pp = &p;
  pp->x++;
  ++pp->y;
  printf("p %d %d\n", p.x, p.y);
  int *q = arr;
  q++;
  printf("*q %d\n", *q);
  q--;
  printf("*q %d\n", *q);
  unsigned u = 0;
  u--;
  printf("u %u\n", u);
  u++;
  printf("u %u\n", u);
  unsigned char uc = 255;
  uc++;
  printf("uc %d\n", uc);
  char ch = 'a';
  ch++;
  printf("ch %c\n", ch);
  return 0;
}
