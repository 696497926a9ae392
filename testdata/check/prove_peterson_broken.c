// chorus: --checks assert
// Peterson with the turn assignments swapped (each thread gives the turn
// to itself): both can enter the critical section, the assertions can
// fail, and the exploration, which sees them fail, proves nothing.
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

int flag0, flag1, turn, x;

void *thr0(void *arg) {
  flag0 = 1;
  turn = 0;
  while (flag1 == 1 && turn == 1) {
  }
  x = 0;
  __VERIFIER_assert(x == 0); // want assert:unproven
  flag0 = 0;
  return 0;
}

void *thr1(void *arg) {
  flag1 = 1;
  turn = 1;
  while (flag0 == 1 && turn == 0) {
  }
  x = 1;
  __VERIFIER_assert(x == 1); // want assert:unproven
  flag1 = 0;
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, thr0, 0);
  pthread_create(&b, 0, thr1, 0);
  return 0;
}
