// Local initializers: scalars from expressions, arrays (partial init
// zero-fills), designated initializers, structs, re-initialization on
// every loop iteration.
int printf(const char *, ...);

struct pair {
  int a, b;
};

int main(void) {
  int x = 3, y = x * 2 + 1;
  printf("%d %d\n", x, y);
  int arr[6] = {1, 2};
  for (int i = 0; i < 6; i++)
    printf("%d ", arr[i]);
  printf("\n");
  int des[5] = {[3] = 30, [1] = 10};
  for (int i = 0; i < 5; i++)
    printf("%d ", des[i]);
  printf("\n");
  struct pair p = {.b = 9};
  printf("%d %d\n", p.a, p.b);
  struct pair ps[3] = {{1, 2}, [2] = {.a = 5}};
  printf("%d %d %d %d %d %d\n", ps[0].a, ps[0].b, ps[1].a, ps[1].b, ps[2].a, ps[2].b);
  for (int i = 0; i < 3; i++) {
    int fresh = 0;
    int buf[2] = {i};
    fresh += i;
    printf("fresh %d buf %d %d\n", fresh, buf[0], buf[1]);
  }
  char s[8] = "hi";
  printf("%s %d\n", s, s[7]);
  int zero[4] = {0};
  printf("%d\n", zero[0] + zero[1] + zero[2] + zero[3]);
  return 0;
}
