// chorus: --checks assert --domain octagon
// Thread-local globals (__thread, _Thread_local) are one copy per thread,
// each starting at the initializer (cfg/tls.go): another thread's write
// never reaches this thread's copy, and a spawned thread does not inherit
// its parent's value. The shared global g is the unsafe control.
typedef unsigned long pthread_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);

__thread int mine = 0;
_Thread_local int seven = 7;
int g = 0;

void *worker(void *arg) {
  __VERIFIER_assert(mine == 0);  // want assert:proven
  __VERIFIER_assert(seven == 7); // want assert:proven
  __VERIFIER_assert(g == 0);     // want assert:unproven
  mine = 1;
  seven = 8;
  g = 1;
  __VERIFIER_assert(mine == 1);  // want assert:proven
  __VERIFIER_assert(g == 1);     // want assert:unproven
  return 0;
}

int main(void) {
  pthread_t t;
  mine = 5;
  seven = 9;
  while (__VERIFIER_nondet_int()) {
    pthread_create(&t, 0, worker, 0);
    mine = 6;
    g = 2;
  }
  __VERIFIER_assert(mine >= 5 && mine <= 6); // want assert:proven
  __VERIFIER_assert(seven == 9); // want assert:proven
  return 0;
}
