#include <pthread.h>
#include "jobs.h"
int slots[NSLOTS];
static int count; /* static: not worker.c's count */
static void record(int v) {
  if (count < NSLOTS)
    slots[count] = v; /* count is main.c's own, 0 or 1 */
  count++;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0); /* defined in worker.c */
  submit(record, 1);
  pthread_join(t, 0);
  return 0;
}
