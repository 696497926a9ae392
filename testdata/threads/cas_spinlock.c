// A spin lock built from __sync_bool_compare_and_swap protects the counter:
// the read-modify-write cannot interleave, whatever the schedule.
// schedule try-lost: main@join t1@write t2:30 t1 -> ok
// random: ok
typedef unsigned long pthread_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
extern int pthread_join(pthread_t, void **);
extern void __VERIFIER_assert(int);

int lock = 0;
int counter = 0;

void *inc(void *arg) {
  while (!__sync_bool_compare_and_swap(&lock, 0, 1)) {
  }
  int tmp = counter;
  counter = tmp + 1; // @write
  lock = 0;
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, inc, 0);
  pthread_create(&b, 0, inc, 0);
  pthread_join(a, 0); // @join
  pthread_join(b, 0);
  __VERIFIER_assert(counter == 2); // @assert
  return 0;
}
