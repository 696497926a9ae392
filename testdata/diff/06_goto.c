// goto and labels: backward loops, forward skips, jumping out of nested
// loops, a label on an empty statement.
int printf(const char *, ...);

int main(void) {
  int i = 0, sum = 0;
again:
  sum += i;
  i++;
  if (i < 5)
    goto again;
  printf("sum %d\n", sum);

  goto skip;
  printf("skipped\n");
skip:
  printf("after skip\n");

  int found = -1;
  for (int a = 0; a < 10; a++)
    for (int b = 0; b < 10; b++)
      if (a * b == 42) {
        found = a * 10 + b;
        goto out;
      }
out:
  printf("found %d\n", found);

  int n = 3;
loop:
  if (n == 0)
    goto done;
  printf("n %d\n", n);
  n--;
  goto loop;
done:;
  return 0;
}
