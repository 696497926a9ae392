// The lost-update program with a mutex around the read and the write:
// the schedule that lost an update now blocks thread 2 at the lock, and
// no schedule fails (checked with random schedules too).
// schedule try-lost: main@join t1@write t2 t1 -> ok
// schedule sequential: main@join t2 t1 -> ok
// random: ok
typedef unsigned long pthread_t;
typedef union { char size[40]; long align; } pthread_mutex_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
extern int pthread_join(pthread_t, void **);
extern int pthread_mutex_lock(pthread_mutex_t *);
extern int pthread_mutex_unlock(pthread_mutex_t *);
extern void __VERIFIER_assert(int);

int counter = 0;
pthread_mutex_t m;

void *inc(void *arg) {
  pthread_mutex_lock(&m);
  int tmp = counter;
  counter = tmp + 1; // @write
  pthread_mutex_unlock(&m);
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
