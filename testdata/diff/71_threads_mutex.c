// A mutex-protected counter incremented by three threads; main prints it
// after joining them: 3 * 50 whatever the interleaving.
#include <pthread.h>
int printf(const char *, ...);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int counter = 0;

void *inc(void *arg) {
  for (int i = 0; i < 50; i++) {
    pthread_mutex_lock(&m);
    counter = counter + 1;
    pthread_mutex_unlock(&m);
  }
  return 0;
}

int main(void) {
  pthread_t a, b, c;
  pthread_create(&a, 0, inc, 0);
  pthread_create(&b, 0, inc, 0);
  pthread_create(&c, 0, inc, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  pthread_join(c, 0);
  printf("counter %d\n", counter);
  return 0;
}
