// chorus: --checks assert
// assert() from <assert.h> (glibc's GNU C form) and "if (!(e)) abort();"
// are assertion checks like __VERIFIER_assert: proven, or unproven with the
// invariant, never "unreachable" or "fails whenever reached".
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

int counter;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  counter = counter + 1;
  assert(counter >= 1); // want assert:proven
  if (counter > 1000)
    counter = 0;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t;
  int n = 0;
  while (n < 3) {
    pthread_create(&t, 0, worker, 0);
    n++;
  }
  assert(n == 3); // want assert:proven
  if (!(n <= 3)) abort(); // want assert:proven
  if (n != 3) { // want assert:proven
    fprintf(stderr, "n is %d\n", n);
    abort();
  }
  pthread_mutex_lock(&m);
  assert(counter >= 0); // want assert:proven
  assert(counter == 0); // want assert:unproven
  pthread_mutex_unlock(&m);
  return 0;
}
