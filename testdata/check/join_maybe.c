// chorus: --checks assert
// The join of join_sequential.c on one path only: on the other, worker
// may still write g after main's write.
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
  g = 5;
  return 0;
}

int main(void) {
  pthread_t id;
  pthread_create(&id, 0, worker, 0);
  if (__VERIFIER_nondet_int())
    pthread_join(id, 0);
  g = 20;
  __VERIFIER_assert(g == 20); // want assert:unproven
  return 0;
}
