// calloc returns zeroed memory; counting sort with a calloc'd histogram.
int printf(const char *, ...);
void *calloc(unsigned long, unsigned long);
void free(void *);

int main(void) {
  int data[10] = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3};
  int *hist = calloc(10, sizeof(int));
  for (int i = 0; i < 10; i++)
    hist[data[i]]++;
  for (int v = 0; v < 10; v++)
    for (int k = 0; k < hist[v]; k++)
      printf("%d ", v);
  printf("\n");
  long *z = calloc(4, sizeof(long));
  printf("%ld %ld\n", z[0], z[3]);
  free(z);
  free(hist);
  return 0;
}
