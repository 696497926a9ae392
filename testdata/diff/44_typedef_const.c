// typedefs of scalars, structs, pointers and arrays; const and volatile
// qualifiers (no effect on single-threaded results).
int printf(const char *, ...);

typedef unsigned char byte;
typedef struct {
  byte r, g, b;
} rgb;
typedef rgb palette[3];
typedef const char *cstr;
typedef int (*unop)(int);

int neg(int x) { return -x; }

int main(void) {
  palette p = {{255, 0, 0}, {0, 128, 0}, {1, 2, 3}};
  int total = 0;
  for (int i = 0; i < 3; i++)
    total += p[i].r + p[i].g + p[i].b;
  printf("total %d\n", total);
  const int limit = 4;
  volatile int v = 0;
  for (int i = 0; i < limit; i++)
    v += i;
  printf("v %d\n", v);
  cstr s = "typed";
  printf("%s\n", s);
  unop f = neg;
  printf("%d\n", f(limit));
  byte b = (byte)(p[0].r + 1);
  printf("b %d\n", b);
  const rgb *cp = &p[1];
  printf("g %d\n", cp->g);
  return 0;
}
