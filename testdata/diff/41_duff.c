// Duff's device: a switch jumping into the middle of a do/while loop.
int printf(const char *, ...);

void copy(int *to, const int *from, int count) {
  int n = (count + 7) / 8;
  switch (count % 8) {
  case 0:
    do {
      *to++ = *from++;
    case 7:
      *to++ = *from++;
    case 6:
      *to++ = *from++;
    case 5:
      *to++ = *from++;
    case 4:
      *to++ = *from++;
    case 3:
      *to++ = *from++;
    case 2:
      *to++ = *from++;
    case 1:
      *to++ = *from++;
    } while (--n > 0);
  }
}

int main(void) {
  int src[20], dst[20];
  for (int i = 0; i < 20; i++) {
    src[i] = i * 3;
    dst[i] = -1;
  }
  copy(dst, src, 13);
  for (int i = 0; i < 15; i++)
    printf("%d ", dst[i]);
  printf("\n");
  copy(dst, src + 5, 3);
  printf("%d %d %d %d\n", dst[0], dst[1], dst[2], dst[3]);
  return 0;
}
