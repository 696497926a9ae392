// chorus: --checks bounds
// __VERIFIER_nondet_uchar is in [0, 255]: in bounds for 256 entries; a
// plain char may be negative.
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

int table[256];
int small[128];

int main(void) {
  unsigned char c = __VERIFIER_nondet_uchar();
  signed char s = (signed char)__VERIFIER_nondet_int();
  table[c] = 1; // want bounds:proven
  small[s] = 1; // want bounds:unproven
  return 0;
}
