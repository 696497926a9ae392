/* GCC's __attribute__((cleanup(f))): every way out of a scope calls the
   cleanups of the variables it leaves, latest-declared first (block end,
   break, continue, goto forward and backward, return after its value,
   switch break, a for clause's declaration, a statement expression after
   its value, several declarators, __cleanup__, a goto out of a statement
   expression). The interpreter must print the same sequence as gcc's
   binary. */
#include <stdio.h>
#include <stdlib.h>

static int trace[64];
static int ntrace;

static void note(int *p) {
  trace[ntrace++] = *p;
}

static void freep(char **p) {
  if (*p)
    trace[ntrace++] = (*p)[0];
  free(*p);
}

static int scopes(int x) {
  __attribute__((cleanup(note))) int a = 1;
  {
    __attribute__((cleanup(note))) int b = 2, c = 3;
    if (x == 1)
      return a + b + c; /* 6, then 3 2 1 */
  }
  {
    int d __attribute__((cleanup(note))) = 4;
    if (x == 2)
      goto out; /* 4 */
    a = 10;
  }
out:
  return a; /* then a's value */
}

static void loops(void) {
  for (__attribute__((cleanup(note))) int i = 20; i < 25; i++) {
    __attribute__((cleanup(note))) int j = 30 + i;
    if (i == 21)
      continue;
    if (i == 23)
      break;
  }
  int k = 0;
  while (k < 3) {
    __attribute__((cleanup(note))) int w = 60 + k;
    k++;
  }
  switch (k) {
  case 3: {
    __attribute__((cleanup(note))) int s = 70;
    break;
  }
  default:
    break;
  }
}

static int back(void) {
  int round = 0;
again:;
  __attribute__((cleanup(note))) int r = 80 + round;
  if (round < 2) {
    round++;
    goto again;
  }
  return r;
}

static int stmt_expr(void) {
  int v = ({
    __attribute__((cleanup(note))) int e = 90;
    e + 1;
  });
  return v;
}

static int forms(int x) {
  int a = 100, b __attribute__((cleanup(note))) = 101; /* b only */
  int c __attribute__((__cleanup__(note))) = a + 2;
  int v = ({
    __attribute__((cleanup(note))) int e = 103;
    if (x)
      goto out; /* leaves e, then c and b at the return */
    e;
  });
  return v;
out:
  return -a;
}

static int heap(void) {
  __attribute__((cleanup(freep))) char *p = malloc(4);
  if (!p)
    return -1;
  p[0] = 'h';
  return 5;
}

int main(void) {
  int r1 = scopes(1), r2 = scopes(2), r3 = scopes(3);
  loops();
  int r4 = back();
  int r5 = stmt_expr();
  int r6 = heap();
  int r7 = forms(0), r8 = forms(1);
  printf("%d %d %d %d %d %d %d %d\n", r1, r2, r3, r4, r5, r6, r7, r8);
  for (int i = 0; i < ntrace; i++)
    printf("%d ", trace[i]);
  printf("\n");
  return 0;
}
