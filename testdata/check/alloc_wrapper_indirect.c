// chorus: --checks assert
// An allocator wrapper called through a function pointer: the call
// dispatches over xcalloc and palloc, which returns the same static
// object every time. With af == palloc (chosen at run time), p and q are
// one object and the thread's write through q reaches p->a: the
// assertion fails (after the join, always).
#include <assert.h>
#include <pthread.h>
typedef unsigned long size_t;
void *calloc(size_t, size_t);
struct s {
  int a;
  int b;
};
static void *xcalloc(size_t n) {
  void *p = calloc(1, n);
  return p;
}
static struct s pool;
static void *palloc(size_t n) { return &pool; }
void *(*af)(size_t) = xcalloc;
struct s *y;
void *t(void *arg) {
  y->a = 7;
  return 0;
}
int main(int argc, char **argv) {
  if (argc > 0)
    af = palloc;
  struct s *p = af(sizeof(struct s));
  struct s *q = af(sizeof(struct s));
  y = q;
  pthread_t th;
  pthread_create(&th, 0, t, 0);
  pthread_join(th, 0);
  assert(p->a == 0); // want assert:unproven
  return 0;
}
