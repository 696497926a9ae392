// chorus: --checks assert,overflow
// Unsigned arithmetic wraps (no overflow check); signed does not.
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

unsigned int u = 0;

int main(void) {
  unsigned int v = u - 1;
  int s = 2147483647;
  __VERIFIER_assert(v == 4294967295u); // want assert:proven
  s = s - 1;                           // want overflow:proven
  s = s + 2;                           // want overflow:unproven
  return 0;
}
