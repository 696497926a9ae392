// chorus: --checks assert
// pthread_cleanup_push/pop expand to glibc's cancel machinery
// (__sigsetjmp_cancel, __pthread_register_cancel, ...). No thread here
// calls pthread_exit or pthread_cancel, so no thread unwinds through its
// handlers: __sigsetjmp_cancel returns 0 and the handler runs only at
// pthread_cleanup_pop(1) (cfg/libc.go cancelMachinery). The handler's
// effect stays visible; nothing else is havocked.
#include <assert.h>
#include <pthread.h>
int g, done;
int *pg = &g;
void handler(void *arg) {
  int *p = arg;
  *p = *p + 1;
}
void *worker(void *arg) {
  int mine = 0;
  pthread_cleanup_push(handler, &mine);
  assert(mine == 0); // want assert:proven
  pthread_cleanup_pop(1);
  assert(mine == 1); // want assert:proven
  pthread_cleanup_push(handler, &g);
  pthread_cleanup_pop(0);
  pthread_cleanup_push(handler, &done);
  pthread_cleanup_pop(1);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  assert(g == 0);    // want assert:proven
  assert(done == 0); // want assert:unproven
  return 0;
}
