// chorus: --checks assert
// Arguments past a defined variadic function's named parameters are read
// back only through va_arg (an unknown external): the pointers passed
// there must reach the objects written through va_arg's result. A
// local (x) was lost: `x == 0` was proven, and fails (gcc: x is 5). The
// same in a thread, and through a va_list handed to another function.
#include <assert.h>
#include <pthread.h>
#include <stdarg.h>
int g;
void set5(int n, ...) {
  va_list ap;
  va_start(ap, n);
  int *p = va_arg(ap, int *);
  *p = 5;
  va_end(ap);
}
void vset7(va_list ap) {
  int *p = va_arg(ap, int *);
  *p = 7;
}
void set7(int n, ...) {
  va_list ap;
  va_start(ap, n);
  vset7(ap);
  va_end(ap);
}
void *worker(void *arg) {
  int y = 0;
  set5(1, &y);
  assert(y == 0); // want assert:unproven
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  int x = 0;
  set5(1, &x);
  assert(x == 0); // want assert:unproven
  int z = 0;
  set7(1, &z);
  assert(z == 0); // want assert:unproven
  int w = 0;
  set5(1, &g);
  assert(w == 0); // want assert:proven
  return 0;
}
