// A broken spin lock: testing the flag and setting it are two steps, so
// both threads can pass the test before either sets it.
// schedule both-enter: main@join t1@set t2@write t1 t2 -> fails @assert
// schedule one-by-one: main@join t1 t2 -> ok
typedef unsigned long pthread_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
extern int pthread_join(pthread_t, void **);
extern void __VERIFIER_assert(int);

int lock = 0;
int counter = 0;

void *inc(void *arg) {
  while (lock != 0) {
  }
  lock = 1; // @set
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
