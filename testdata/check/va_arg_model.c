// chorus: --checks assert,bounds
// va_arg(ap, T) is *(T *)__builtin_va_arg_impl(ap): the address of a slot
// holding one of the variadic arguments some caller passed (cfg/libc.go
// vaArg, the <va_arg> object). The value read is any value (only 2 is
// ever passed, and still v == 2 is not claimed), a pointer read points to
// whatever any caller passed past the named parameters, through a va_list
// handed on too, and a variadic function unknown code may call gets
// anything unknown code holds (here &g).
#include <assert.h>
#include <pthread.h>
#include <stdarg.h>
int a[4];
int g, h;
int *pg = &g;
int first(int n, ...) {
  va_list ap;
  va_start(ap, n);
  int v = va_arg(ap, int);
  va_end(ap);
  return v;
}
void vstore(va_list ap) {
  int *p = va_arg(ap, int *);
  *p = 3;
}
void store(int n, ...) {
  va_list ap;
  va_start(ap, n);
  vstore(ap);
  va_end(ap);
}
void set1(int n, ...) {
  va_list ap;
  va_start(ap, n);
  int *p = va_arg(ap, int *);
  *p = 1;
  va_end(ap);
}
extern void register_cb(void (*cb)(int, ...));
void *worker(void *arg) {
  store(1, &h);
  return 0;
}
int main(void) {
  int v = first(1, 2);
  a[v] = 0;       // want bounds:unproven
  assert(v == 2); // want assert:unproven
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  assert(h == 0); // want assert:unproven
  register_cb(set1);
  g = 0;
  assert(g == 0); // want assert:unproven
  int w = 0;
  assert(w == 0); // want assert:proven
  return 0;
}
