// GNU statement expressions: the value is the last expression statement;
// they can declare locals and contain control flow.
int printf(const char *, ...);

#define MAX(a, b) ({ int _a = (a), _b = (b); _a > _b ? _a : _b; })

int main(void) {
  int x = 3, y = 8;
  int m = MAX(x++, y--);
  printf("m %d x %d y %d\n", m, x, y);
  int s = ({
    int acc = 0;
    for (int i = 0; i < 5; i++)
      acc += i;
    acc;
  });
  printf("s %d\n", s);
  int t = ({ int v = s; if (v > 5) v = 5; v * 2; }) + 1;
  printf("t %d\n", t);
  return 0;
}
