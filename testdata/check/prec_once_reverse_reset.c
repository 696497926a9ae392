// chorus: --checks assert --domain interval
// prec_once_reverse.c, but the writer resets f to 0 after writing x: a
// reader seeing f == 0 may come after x = 5, and the assertion can fail
// (one writer, so that the writer's own view of f at x = 5 is exactly 1).
// P1 of interference/once.go fails, so the reverse rule drops no edge; the
// mutation WithoutOnceReverseP1 (analysis/mutation_test_hooks.go) drops
// the premise and the oracle catches the wrong proof here.
typedef unsigned long pthread_t;
typedef union { char size[24]; long align; } pthread_mutex_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
extern int pthread_mutex_lock(pthread_mutex_t *);
extern int pthread_mutex_unlock(pthread_mutex_t *);
extern void __VERIFIER_assert(int);

int f = 0;
int x = 0;
pthread_mutex_t m;

void *w(void *arg) {
  pthread_mutex_lock(&m);
  f = 1;
  pthread_mutex_unlock(&m);
  x = 5;
  pthread_mutex_lock(&m);
  f = 0;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t1;
  pthread_create(&t1, 0, w, 0);
  pthread_mutex_lock(&m);
  switch (f) {
  case 0:
    __VERIFIER_assert(x == 0); // want assert:unproven
    break;
  case 1:
    break;
  }
  pthread_mutex_unlock(&m);
  return 0;
}
