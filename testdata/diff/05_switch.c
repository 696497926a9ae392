// switch: fallthrough, default in the middle, nested switch, switch
// without matching case, break inside a loop inside a case.
int printf(const char *, ...);

int f(int x) {
  int r = 0;
  switch (x) {
  case 0:
    r += 1;
  case 1:
    r += 10;
    break;
  default:
    r += 100;
  case 5:
    r += 1000;
    break;
  case 7: {
    int i;
    for (i = 0; i < 10; i++)
      if (i == 3)
        break;
    r = i;
  } break;
  }
  return r;
}

const char *name(int a, int b) {
  switch (a) {
  case 1:
    switch (b) {
    case 1:
      return "one-one";
    default:
      return "one-other";
    }
  case 2:
    return "two";
  }
  return "none";
}

int main(void) {
  for (int x = -1; x <= 8; x++)
    printf("f(%d)=%d\n", x, f(x));
  printf("%s %s %s %s\n", name(1, 1), name(1, 2), name(2, 0), name(3, 0));
  int hits = 0;
  switch (hits) {
  case 1:
    hits = 99;
  }
  printf("hits %d\n", hits);
  char c = 'b';
  switch (c) {
  case 'a':
  case 'b':
  case 'c':
    printf("abc\n");
    break;
  default:
    printf("other\n");
  }
  return 0;
}
