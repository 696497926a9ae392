// chorus: --checks assert
// A thread that calls pthread_exit inside a pthread_cleanup_push region
// runs the handler while it unwinds: __sigsetjmp_cancel returns a second
// time, nonzero. With a pthread_exit in the program the cancel machinery
// stays unknown externals (cfg/libc.go cancelMachinery), so the handler's
// write is seen. Modelling __sigsetjmp_cancel as returning 0 here would
// prove g == 0 (gcc: g is 1).
#include <assert.h>
#include <pthread.h>
int g;
void handler(void *arg) {
  g = 1;
}
void *worker(void *arg) {
  pthread_cleanup_push(handler, 0);
  pthread_exit(0);
  pthread_cleanup_pop(0);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  assert(g == 0); // want assert:unproven
  return 0;
}
