// chorus: --checks assert --domain octagon
// Like mixed_two_templates.c, but the worker writes g and h without the
// lock: main may read g before and h after a write, so a == b can fail.
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

int g = 1;
int h = 1;
pthread_mutex_t m;

void *worker(void *arg) {
  int x = __VERIFIER_nondet_int();
  g = x;
  h = x;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_mutex_lock(&m);
  int a = g;
  int b = h;
  __VERIFIER_assert(a == b); // want assert:unproven
  pthread_mutex_unlock(&m);
  return 0;
}
