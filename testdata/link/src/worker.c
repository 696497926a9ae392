#include "jobs.h"
int next_slot; /* tentative definition */
static int count = 100; /* worker.c's own count */
void submit(void (*fn)(int), int v) { fn(v); }
void *worker(void *arg) {
  if (next_slot < NSLOTS) {
    slots[next_slot] = count;
    next_slot++;
  }
  slots[count] = 0; /* out of bounds: count is 100 here */
  return arg;
}
