// Control flow mix: loops inside switch inside loops, early return from
// nested loops, goto out of a switch, conditions with calls.
int printf(const char *, ...);

int is_even(int x) { return x % 2 == 0; }

int search(int target) {
  for (int i = 0; i < 5; i++) {
    int j = 0;
    while (j < 5) {
      if (i * 5 + j == target)
        return i * 100 + j;
      j++;
    }
  }
  return -1;
}

int main(void) {
  int log = 0;
  for (int i = 0; i < 6; i++) {
    switch (i % 3) {
    case 0:
      for (int k = 0; k < 3; k++) {
        if (k == 2)
          break;
        log = log * 10 + 1;
      }
      break;
    case 1:
      if (is_even(i))
        continue;
      log = log * 10 + 2;
      break;
    default:
      if (i > 4)
        goto end;
      log = log * 10 + 3;
    }
    log = log % 1000000;
  }
end:
  printf("log %d\n", log);
  printf("%d %d %d\n", search(0), search(13), search(99));
  int n = 0;
  while (!is_even(n) || n < 7)
    n++;
  printf("n %d\n", n);
  return 0;
}
