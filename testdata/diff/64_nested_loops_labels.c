// Nested loops left with goto from the innermost, continue of the outer
// loop through a label at its end, and a loop built only from goto.
int printf(const char *, ...);

int main(void) {
  int hits = 0;
  for (int i = 0; i < 5; i++) {
    for (int j = 0; j < 5; j++) {
      if (j > i)
        goto next_i;
      if ((i + j) % 3 == 0)
        continue;
      hits += i * 10 + j;
    }
  next_i:;
  }
  printf("hits %d\n", hits);
  int n = 0, acc = 0;
top:
  if (n >= 6)
    goto bottom;
  acc += n % 2 ? n : -n;
  n++;
  goto top;
bottom:
  printf("acc %d\n", acc);
  int i = 0;
  while (1) {
    do {
      i++;
      if (i == 7)
        goto out;
    } while (i % 3);
    printf("i %d\n", i);
  }
out:
  printf("out at %d\n", i);
  return 0;
}
