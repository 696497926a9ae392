// chorus: --checks assert
// Two threads allocate through one wrapper call site and share the
// result: the site's object stands for both threads' objects (a summary:
// weak updates only). The second thread writes 2 into the first one's
// object through pub, so the first one's result no longer holds 1: the
// assertion fails (after both joins, always).
#include <assert.h>
#include <pthread.h>
typedef unsigned long size_t;
void *calloc(size_t, size_t);
struct s {
  int a;
  int b;
};
static void *xcalloc(size_t n, size_t k) {
  void *p = calloc(n, k);
  return p;
}
struct s *pub;
void *t(void *arg) {
  struct s *p = xcalloc(1, sizeof(struct s));
  p->a = 1;
  struct s *old = pub;
  pub = p;
  if (old)
    old->a = 2;
  return p;
}
int main(void) {
  pthread_t t1, t2;
  void *r1;
  pthread_create(&t1, 0, t, 0);
  pthread_join(t1, &r1);
  pthread_create(&t2, 0, t, 0);
  pthread_join(t2, 0);
  assert(((struct s *)r1)->a == 1); // want assert:unproven
  return 0;
}
