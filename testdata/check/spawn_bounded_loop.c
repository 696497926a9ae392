// chorus: --checks assert
// Threads spawned in a bounded loop each get a pointer to their own slot;
// the slots only ever hold 0 or 1.
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

int slots[3];

void *worker(void *arg) {
  int *p = arg;
  *p = 1;
  return 0;
}

int main(void) {
  pthread_t t[3];
  int i;
  for (i = 0; i < 3; i++)
    pthread_create(&t[i], 0, worker, &slots[i]);
  for (i = 0; i < 3; i++)
    pthread_join(t[i], 0);
  __VERIFIER_assert(slots[0] <= 1); // want assert:proven
  return 0;
}
