// chorus: --checks assert
// Lock-protected cells: g is written only while A and B are held. Inside
// main's critical section of A and B, the intermediate g = 5 of the other
// thread (visible to a thread holding B only) cannot be seen. Holding only
// B, it can.
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
pthread_mutex_t A, B;

void *t_fun(void *arg) {
  pthread_mutex_lock(&A);
  pthread_mutex_lock(&B);
  g = 5;
  pthread_mutex_unlock(&B);
  pthread_mutex_lock(&B);
  g = 0;
  pthread_mutex_unlock(&B);
  pthread_mutex_unlock(&A);
  return 0;
}

int main(void) {
  pthread_t id;
  pthread_create(&id, 0, t_fun, 0);
  pthread_mutex_lock(&B);
  __VERIFIER_assert(g == 0); // want assert:unproven
  pthread_mutex_unlock(&B);
  pthread_mutex_lock(&A);
  pthread_mutex_lock(&B);
  __VERIFIER_assert(g == 0); // want assert:proven
  pthread_mutex_unlock(&B);
  __VERIFIER_assert(g == 0); // want assert:proven
  pthread_mutex_unlock(&A);
  return 0;
}
