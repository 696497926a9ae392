// chorus: --checks assert
// A function that keeps the pointer it allocates (kalloc stores it in a
// global) is no allocator wrapper (cfg/call.go allocWrapper); either way
// its body is lowered at each call, so the thread's write through last
// reaches p's object: the assertion fails (after the join, always).
#include <assert.h>
#include <pthread.h>
typedef unsigned long size_t;
void *calloc(size_t, size_t);
struct s {
  int a;
  int b;
};
static void *last;
static void *kalloc(size_t n) {
  void *p = calloc(1, n);
  last = p;
  return p;
}
void *t(void *arg) {
  struct s *q = last;
  q->a = 7;
  return 0;
}
int main(void) {
  struct s *p = kalloc(sizeof(struct s));
  pthread_t th;
  pthread_create(&th, 0, t, 0);
  pthread_join(th, 0);
  assert(p->a == 0); // want assert:unproven
  return 0;
}
