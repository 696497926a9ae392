// chorus: --checks assert --domain octagon
// Mixed cells without a lock: another instance may write g between this
// thread's read and its use, so g - l is not the 1 this thread wrote; the
// relation of l with g must be forgotten on interference (dfg/mixed.go).
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

int g = 0;

void *worker(void *arg) {
  int l = g;
  if (l < 100) {
    g = l + 1;
    int d = g - l;
    __VERIFIER_assert(d == 1); // want assert:unproven
  }
  return 0;
}

int main(void) {
  pthread_t t;
  while (__VERIFIER_nondet_int())
    pthread_create(&t, 0, worker, 0);
  return 0;
}
