// chorus: --checks bounds,overflow
// Driver-like ring buffer written by unboundedly many threads under a lock.
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

#define N 16
int buf[N];
int head = 0;
pthread_mutex_t m;

void *writer(void *arg) {
  int v = __VERIFIER_nondet_int();
  pthread_mutex_lock(&m);
  buf[head] = v;               // want bounds:proven
  head = (head + 1) % N;       // want overflow:proven
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t;
  while (__VERIFIER_nondet_int())
    pthread_create(&t, 0, writer, 0);
  return 0;
}
