// break and continue in while, do, for and nested loops.
int printf(const char *, ...);

int main(void) {
  int i, s = 0;
  for (i = 0; i < 20; i++) {
    if (i % 3 == 0)
      continue;
    if (i > 13)
      break;
    s += i;
  }
  printf("s %d i %d\n", s, i);
  int j = 0, t = 0;
  while (1) {
    j++;
    if (j & 1)
      continue;
    t += j;
    if (j >= 10)
      break;
  }
  printf("t %d j %d\n", t, j);
  int outer = 0, inner = 0;
  for (int a = 0; a < 4; a++) {
    for (int b = 0; b < 4; b++) {
      if (b > a)
        break;
      if (b == 1)
        continue;
      inner++;
    }
    outer++;
  }
  printf("outer %d inner %d\n", outer, inner);
  int k = 0;
  do {
    k++;
    if (k == 2)
      continue;
    if (k == 5)
      break;
    printf("k %d\n", k);
  } while (k < 100);
  return 0;
}
