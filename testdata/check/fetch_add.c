// chorus: --checks assert
// GCC atomic builtins are single atomic steps. tickets only grows from 0;
// main's initial 0 is never seen after a thread's own increment.
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

int tickets = 0;

void *taker(void *arg) {
  int old = __sync_fetch_and_add(&tickets, 1);
  __VERIFIER_assert(old >= 0);     // want assert:proven
  __VERIFIER_assert(tickets >= 1); // want assert:proven
  __VERIFIER_assert(old < 5);      // want assert:unproven
  return 0;
}

int main(void) {
  pthread_t t;
  while (__VERIFIER_nondet_int())
    pthread_create(&t, 0, taker, 0);
  return 0;
}
