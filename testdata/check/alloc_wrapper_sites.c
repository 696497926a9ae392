// chorus: --checks assert
// Allocator wrappers (cfg/call.go allocWrapper): every call of xcalloc
// is its own allocation site. The thread writes only b of the object x
// points to and the other object's a (7): p->a keeps 0 or 1 (proven),
// q->a may be 7 (the run after gcc fails when the thread has run first:
// unproven). calloc never
// returns NULL (cfg: allocation succeeds), so abort is unreachable in
// both copies.
#include <assert.h>
#include <pthread.h>
typedef unsigned long size_t;
void *calloc(size_t, size_t);
void abort(void);
struct s {
  int a;
  int b;
};
static void *xcalloc(size_t n, size_t k) {
  void *p = calloc(n, k);
  if (p == 0) // want assert:proven assert:proven
    abort();
  return p;
}
struct s *x;
struct s *y;
void *t(void *arg) {
  x->b = 5;
  y->a = 7;
  return 0;
}
int main(void) {
  struct s *p = xcalloc(1, sizeof(struct s));
  struct s *q = xcalloc(1, sizeof(struct s));
  p->a = 1;
  x = p;
  y = q;
  pthread_t th;
  pthread_create(&th, 0, t, 0);
  assert(p->a <= 1); // want assert:proven
  assert(q->a <= 1); // want assert:unproven
  pthread_join(th, 0);
  return 0;
}
