// chorus: --checks assert
// The path-sensitive must-lockset (interference/lockset.go) follows
// trylock results only in thread-local flags. Here the flag held is a
// global: a worker whose trylock failed may read the 1 another worker
// stored, enter the block without m and overwrite g there, so g == 1 can
// fail. The local flag mine is a flag: the unlock is the holder's.
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
int held = 0;
pthread_mutex_t m;

void *worker(void *arg) {
  int mine;
  if (pthread_mutex_trylock(&m) == 0) {
    held = 1;
    mine = 1;
  } else {
    held = 0;
    mine = 0;
  }
  if (held) {
    g = 1;
    __VERIFIER_assert(g == 1); // want assert:unproven
    g = 0;
  }
  if (mine)
    pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_create(&t, 0, worker, 0);
  return 0;
}
