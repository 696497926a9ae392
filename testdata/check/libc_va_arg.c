// chorus: --checks bounds
// va_start/va_end write only the va_list (cfg/libc.go), and an int
// va_arg is any int. va_arg (*(T *)__builtin_va_arg_impl(ap)) stays an
// unknown external: the pointer the caller passed (&g) may be read from
// the argument list and written through, so g may change after sum2.
typedef __builtin_va_list va_list;
int g;
int *pg = &g;
int a[4];
int sum(int n, ...) {
  va_list ap;
  __builtin_va_start(ap, n);
  int x = __builtin_va_arg(ap, int);
  __builtin_va_end(ap);
  return x;
}
void sum2(int n, ...) {
  va_list ap;
  __builtin_va_start(ap, n);
  int *p = __builtin_va_arg(ap, int *);
  *p = 9;
  __builtin_va_end(ap);
}
void ignore(int n, ...) {
  va_list ap;
  __builtin_va_start(ap, n);
  __builtin_va_end(ap);
}
int main(void) {
  g = 1;
  ignore(1, 2);
  a[g] = 0; // want bounds:proven
  int x = sum(1, 2);
  a[x] = 0; // want bounds:unproven
  sum2(1, &g);
  a[g] = 0; // want bounds:unproven
  return 0;
}
