// chorus: --checks assert,bounds
// Checks in code that no execution reaches are unreachable.
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

int a[4];
int mode = 1;

void *worker(void *arg) {
  int x = __VERIFIER_nondet_int();
  if (x > 5 && x < 3)
    __VERIFIER_assert(0); // want assert:unreachable
  if (mode == 2)
    a[x] = 1; // want bounds:unreachable
  return 0;
}

int main(void) {
  pthread_t t;
  while (__VERIFIER_nondet_int())
    pthread_create(&t, 0, worker, 0);
  return 0;
}
