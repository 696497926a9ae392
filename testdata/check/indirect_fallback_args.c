// chorus: --checks assert
// The unknown-callee path of an indirect call is taken into the
// points-to analysis only once the call's pointer may hold something
// other than its candidates (cfg/pointsto.go pointsToLiveFallbacks).
// my_alloc and my_free only ever hold malloc/free or release, so their
// unknown paths are cut, and neither their results nor their arguments
// are unknown code's: c->probe keeps its candidates and no unknown call
// havocs g (proven; before, unproven: like pigz's capsule->probe). The
// capsule, allocated through a void * allocator, is one blob cell, so
// c->probe may also hold the string __FILE__: a data object, no callee.
// get_op() is an unknown external: op may be unknown code, which gets
// &s, so s.hook may hold unknown code too; s.hook(&y) then may write y
// (its only candidate, keep_hook, does not).
// The second path is taken only after the first one is (two rounds).
#include <assert.h>
#include <pthread.h>
// (no <stdlib.h>: its __attr_dealloc_free attributes name __builtin_free,
// which cfg's walk of every declaration counts as address-taken)
typedef unsigned long size_t;
void *malloc(size_t);
void free(void *);
struct cap {
  void (*probe)(void *);
  void *payload;
  const char *file;
};
struct ops {
  void (*hook)(int *);
};
int g;
int *pg = &g;
int count;
void release(void *p) { count++; }
void (*my_free)(void *) = free;
void *(*my_alloc)(size_t) = malloc;
void *xalloc(size_t n) { return my_alloc(n); }
void work(void *p) { count++; }
void keep_hook(int *p) {}
void *ignition(void *arg) {
  struct cap *c = arg;
  c->probe(c->payload);
  my_free(c);
  return 0;
}
extern void (*get_op(void))(struct ops *);
int main(void) {
  if (count > 5)
    my_free = release;
  struct cap *c = xalloc(sizeof *c);
  c->probe = work;
  c->payload = 0;
  c->file = __FILE__;
  pthread_t t;
  pthread_create(&t, 0, ignition, c);
  pthread_join(t, 0);
  assert(g == 0); // want assert:proven
  struct ops s;
  s.hook = keep_hook;
  void (*op)(struct ops *) = get_op();
  op(&s);
  int y = 1;
  s.hook(&y);
  assert(y == 1); // want assert:unproven
  return 0;
}
