// chorus: --checks assert --domain octagon
// Counter bounds (interference/counter.go) with plain mutexes, the
// pattern of Goblint's 13/29: x++ and x-- are not atomic, but every
// write of x holds g, so no write comes between their read and write.
// Workers hold m over both g-sections: a reader holding g may see one
// worker between them (x == 1), a reader holding m and g sees none.
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


int x = 0;
pthread_mutex_t m, g;

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  pthread_mutex_lock(&g);
  x++;
  pthread_mutex_unlock(&g);
  pthread_mutex_lock(&g);
  x--;
  pthread_mutex_unlock(&g);
  pthread_mutex_unlock(&m);
  return 0;
}

void *leaky(void *arg) {
  pthread_mutex_lock(&g);
  x++; // holds g only: once, x is 1 for good
  pthread_mutex_unlock(&g);
  return 0;
}

int main(void) {
  pthread_t t;
  while (__VERIFIER_nondet_int())
    pthread_create(&t, 0, worker, 0);
  pthread_create(&t, 0, leaky, 0);
  pthread_mutex_lock(&g);
  __VERIFIER_assert(x >= 0 && x <= 2); // want assert:proven
  __VERIFIER_assert(x <= 1);           // want assert:unproven
  pthread_mutex_unlock(&g);
  pthread_mutex_lock(&m);
  pthread_mutex_lock(&g);
  __VERIFIER_assert(x >= 0 && x <= 1); // want assert:proven
  __VERIFIER_assert(x == 0);           // want assert:unproven
  pthread_mutex_unlock(&g);
  pthread_mutex_unlock(&m);
  return 0;
}
