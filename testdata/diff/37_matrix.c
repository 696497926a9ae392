// Matrix multiplication with two-dimensional arrays passed to functions,
// transposition in place, identity check.
int printf(const char *, ...);

#define N 3

void mul(int a[N][N], int b[N][N], int out[N][N]) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      int s = 0;
      for (int k = 0; k < N; k++)
        s += a[i][k] * b[k][j];
      out[i][j] = s;
    }
}

void transpose(int m[N][N]) {
  for (int i = 0; i < N; i++)
    for (int j = i + 1; j < N; j++) {
      int t = m[i][j];
      m[i][j] = m[j][i];
      m[j][i] = t;
    }
}

void show(int m[N][N]) {
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < N; j++)
      printf("%4d", m[i][j]);
    printf("\n");
  }
}

int main(void) {
  int a[N][N] = {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}};
  int id[N][N] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  int c[N][N];
  mul(a, id, c);
  show(c);
  mul(a, a, c);
  show(c);
  transpose(a);
  show(a);
  return 0;
}
