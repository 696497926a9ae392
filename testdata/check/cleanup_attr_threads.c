// chorus: --checks assert --domain octagon | --checks assert --domain interval
// Cleanup attributes in a thread function (cfg/cleanup.go): unlockp
// releases the mutex when l leaves its block, so the worker's writes of
// shared are protected; mark_done runs when the worker returns.
#include <assert.h>
#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int shared, done;
static void unlockp(pthread_mutex_t **p) { pthread_mutex_unlock(*p); }
static void mark_done(int *p) { done = *p; }
void *worker(void *arg) {
  __attribute__((cleanup(mark_done))) int d = 1;
  {
    __attribute__((cleanup(unlockp))) pthread_mutex_t *l = &m;
    pthread_mutex_lock(l);
    shared = 1;
    shared = 0;
  }
  assert(done == 0); // want assert:proven
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_mutex_lock(&m);
  assert(shared == 0); // want assert:proven
  pthread_mutex_unlock(&m);
  pthread_join(t, 0);
  if (done == 1) // as gcc's binary shows: the assert below fails
    assert(done == 0); // want assert:unproven
  return 0;
}
