// Pointers and arrays: pointer to array, array decay, pointer
// subtraction across rows, walking a 2D array with one pointer,
// pointer comparison inside one array, char pointers over ints.
int printf(const char *, ...);

int main(void) {
  int m[3][4];
  int *flat = &m[0][0];
  for (int i = 0; i < 12; i++)
    flat[i] = i;
  int (*row)[4] = m;
  row++;
  printf("%d %d\n", (*row)[0], row[1][3]);
  printf("%ld\n", (long)(&m[2][1] - &m[0][3]));
  int *p = m[1];
  int *q = &m[1][3];
  int n = 0;
  while (p <= q) {
    n += *p;
    p++;
  }
  printf("n %d\n", n);
  unsigned int word = 0x04030201;
  unsigned char *bytes = (unsigned char *)&word;
  printf("%d %d %d %d\n", bytes[0], bytes[1], bytes[2], bytes[3]);
  int arr[5] = {9, 8, 7, 6, 5};
  int *mid = arr + 2;
  printf("%d %d %d\n", mid[-2], *(mid + 2), (int)(mid - arr));
  int *lo = arr, *hi = arr + 4;
  while (lo < hi) {
    int t = *lo;
    *lo++ = *hi;
    *hi-- = t;
  }
  printf("%d %d %d %d %d\n", arr[0], arr[1], arr[2], arr[3], arr[4]);
  return 0;
}
