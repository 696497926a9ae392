// A heap-allocated array of row pointers (int **), filled, transposed into
// a second one, and freed row by row.
int printf(const char *, ...);
void *malloc(unsigned long);
void free(void *);

int **alloc(int rows, int cols) {
  int **m = malloc(rows * sizeof(int *));
  for (int i = 0; i < rows; i++)
    m[i] = malloc(cols * sizeof(int));
  return m;
}

int main(void) {
  int rows = 3, cols = 4;
  int **a = alloc(rows, cols);
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++)
      a[i][j] = i * cols + j;
  int **t = alloc(cols, rows);
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++)
      t[j][i] = a[i][j];
  for (int j = 0; j < cols; j++) {
    for (int i = 0; i < rows; i++)
      printf("%3d", t[j][i]);
    printf("\n");
  }
  for (int i = 0; i < rows; i++)
    free(a[i]);
  for (int j = 0; j < cols; j++)
    free(t[j]);
  free(a);
  free(t);
  return 0;
}
