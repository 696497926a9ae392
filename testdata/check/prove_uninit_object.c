// chorus: --checks assert
// A read of an uninitialized element of a local array: C leaves it
// indeterminate, the interpreter zeroes fresh local objects. Only reads
// of a cell its thread certainly wrote before are trusted, so the search
// stops at this one and proves nothing.
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
int g;

void *worker(void *arg) {
  g = 1;
  return 0;
}

int main(void) {
  pthread_t t;
  int a[2];
  a[0] = 1;
  pthread_create(&t, 0, worker, 0);
  __VERIFIER_assert(a[1] == 0); // want assert:unproven
  return 0;
}
