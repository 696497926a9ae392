// chorus: --checks assert
// Published initial values (dfg/publish.go): seed starts at 0, and the
// only thread that sets state (0 -> 1) has written seed = 1 just before,
// so a thread that has seen state != 0 cannot read seed's initial 0: the
// sequential edge from program start into it is stale. Proven in both
// domains (the thread reads the setter's 1). The unsafe asserts: a
// thread that has not looked at state, and one whose copy of state was
// overwritten before its test.
typedef unsigned long pthread_t;
typedef int pthread_mutex_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
extern int pthread_mutex_lock(pthread_mutex_t *);
extern int pthread_mutex_unlock(pthread_mutex_t *);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);

int state = 0;
int seed;
pthread_mutex_t m;

void *thr(void *arg) {
  pthread_mutex_lock(&m);
  switch (state) {
  case 0:
    seed = 1;
    state = 1;
    pthread_mutex_unlock(&m);
    break;
  case 1:
    pthread_mutex_unlock(&m);
    __VERIFIER_assert(seed != 0); // want assert:proven
    break;
  }
  return 0;
}

// Tests a copy of state, without the lock.
void *copy(void *arg) {
  int s = state;
  if (s != 0)
    __VERIFIER_assert(seed == 1); // want assert:proven
  return 0;
}

void *blind(void *arg) {
  __VERIFIER_assert(seed != 0); // want assert:unproven
  return 0;
}

void *stale_copy(void *arg) {
  int s = state;
  s = __VERIFIER_nondet_int();
  if (s != 0)
    __VERIFIER_assert(seed != 0); // want assert:unproven
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, blind, 0);
  pthread_create(&t, 0, copy, 0);
  pthread_create(&t, 0, stale_copy, 0);
  while (1)
    pthread_create(&t, 0, thr, 0);
  return 0;
}
