// The conditional operator: nested, with side effects in the chosen arm
// only, as an argument, mixing types (usual arithmetic conversions), with
// pointers.
int printf(const char *, ...);

int hits;

int hit(int v) {
  hits++;
  return v;
}

int main(void) {
  for (int i = 0; i < 4; i++)
    printf("%s ", i == 0 ? "zero" : i == 1 ? "one" : i == 2 ? "two" : "many");
  printf("\n");
  int a = 5;
  int r = a > 3 ? hit(1) : hit(2);
  printf("r %d hits %d\n", r, hits);
  r = a < 3 ? hit(1) : hit(2);
  printf("r %d hits %d\n", r, hits);
  unsigned u = 1;
  long m = a > 10 ? -1 : u;
  printf("m %ld\n", m);
  int x = 1, y = 2;
  int *p = a > 0 ? &x : &y;
  *p = 10;
  printf("x %d y %d\n", x, y);
  int z = (a > 0 ? x : y) + (a < 0 ? x : y);
  printf("z %d\n", z);
  int c = 0;
  c += a ? 1 : 2;
  c += !a ? 1 : 2;
  printf("c %d\n", c);
  return 0;
}
