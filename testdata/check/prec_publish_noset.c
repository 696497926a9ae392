// chorus: --checks assert
// Like prec_publish_init.c, but the setter may set state without writing
// seed (premise P2 of dfg/publish.go fails), so a thread that saw
// state != 0 can still read seed's initial 0. The mutation
// analysis.WithoutPublishSetterCheck (P2 not checked) proves the assert
// and the oracle catches it here.
typedef unsigned long pthread_t;
typedef int pthread_mutex_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
extern int pthread_mutex_lock(pthread_mutex_t *);
extern int pthread_mutex_unlock(pthread_mutex_t *);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);

int state = 0;
int seed;
pthread_mutex_t m;

void *thr(void *arg) {
  pthread_mutex_lock(&m);
  switch (state) {
  case 0:
    if (__VERIFIER_nondet_int())
      seed = 1;
    state = 1;
    pthread_mutex_unlock(&m);
    break;
  case 1:
    pthread_mutex_unlock(&m);
    __VERIFIER_assert(seed != 0); // want assert:unproven
    break;
  }
  return 0;
}

int main(void) {
  pthread_t t;
  while (1)
    pthread_create(&t, 0, thr, 0);
  return 0;
}
