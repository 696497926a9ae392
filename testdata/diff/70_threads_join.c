// Threads with deterministic output: each worker fills its own slot of a
// global array (index passed as the argument); main joins all, then
// prints. The result does not depend on the schedule.
#include <pthread.h>
int printf(const char *, ...);

long partial[4];

void *worker(void *arg) {
  long i = (long)arg;
  long s = 0;
  for (long k = i * 10; k < i * 10 + 10; k++)
    s += k;
  partial[i] = s;
  return 0;
}

int main(void) {
  pthread_t t[4];
  for (long i = 0; i < 4; i++)
    pthread_create(&t[i], 0, worker, (void *)i);
  for (int i = 0; i < 4; i++)
    pthread_join(t[i], 0);
  long total = 0;
  for (int i = 0; i < 4; i++) {
    printf("partial[%d] = %ld\n", i, partial[i]);
    total += partial[i];
  }
  printf("total %ld\n", total);
  return 0;
}
