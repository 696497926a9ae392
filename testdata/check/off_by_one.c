// chorus: --checks bounds
// Bounds: the first loop is in bounds, the second writes a[10].
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

int a[10];

int main(void) {
  int i;
  for (i = 0; i < 10; i++)
    a[i] = i; // want bounds:proven
  for (i = 0; i <= 10; i++)
    a[i] = 0; // want bounds:unproven
  return 0;
}
