// chorus: --checks assert
// A flag hand-shake: two threads (one instance each) take turns through the
// shared variable turn. The observable conditions turn == 0 / turn == 1 keep
// each thread's critical section apart from the other's, so cs is exactly 1
// inside either.
typedef unsigned long pthread_t;
typedef union { char size[24]; long align; } pthread_mutex_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
extern int pthread_join(pthread_t, void **);
extern int pthread_mutex_lock(pthread_mutex_t *);
extern int pthread_mutex_trylock(pthread_mutex_t *);
extern int pthread_mutex_unlock(pthread_mutex_t *);
extern int __VERIFIER_nondet_int(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
extern void __VERIFIER_assume(int);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
extern void __VERIFIER_assert(int);

int turn = 0;
int cs = 0;

void *ping(void *arg) {
  while (__VERIFIER_nondet_int()) {
    while (turn != 0) {
    }
    cs = cs + 1;
    __VERIFIER_assert(cs == 1); // want assert:proven
    cs = cs - 1;
    turn = 1;
  }
  return 0;
}

void *pong(void *arg) {
  while (__VERIFIER_nondet_int()) {
    while (turn != 1) {
    }
    cs = cs + 1;
    __VERIFIER_assert(cs == 1); // want assert:proven
    cs = cs - 1;
    turn = 0;
  }
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, ping, 0);
  pthread_create(&b, 0, pong, 0);
  return 0;
}
