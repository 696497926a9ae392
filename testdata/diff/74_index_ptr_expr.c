/* Indexing pointer expressions: (a + k)[i] with a an array (pigz's
   PULL4L(head + 12)), (p - k)[i], (cond ? a : b)[i], ((T *)a)[i] and
   (x = a)[i]. */
#include <stdio.h>

#define PULL2L(p) ((p)[0] + ((unsigned)((p)[1]) << 8))
#define PULL4L(p) (PULL2L(p) + ((unsigned long)(PULL2L((p) + 2)) << 16))

unsigned char head[64];
int vals[8] = {1, 2, 3, 4, 5, 6, 7, 8};

int main(void) {
  for (int i = 0; i < 64; i++)
    head[i] = (unsigned char)(i * 7 + 3);
  unsigned long a = PULL4L(head + 12);
  unsigned long b = PULL4L(head + 38);
  printf("%lu %lu\n", a, b);
  int *p = vals + 6;
  printf("%d %d\n", (p - 3)[1], (vals + 2)[3]);
  int other[3] = {9, 8, 7};
  int c = a > b;
  printf("%d\n", (c ? vals : other)[2]);
  printf("%d\n", ((unsigned char *)vals)[4]);
  int *q;
  printf("%d\n", (q = vals + 1)[1]);
  (head + 10)[2] = 99;
  printf("%d\n", head[12]);
  return 0;
}
