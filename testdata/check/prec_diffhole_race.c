// chorus: --checks assert --domain octagon
// Difference holes across threads: one thread stores two values it has
// checked to differ (a != b then holds, a recorded hole), another makes a
// equal to b. The reader's join of both writes must drop a != b (the
// mutation analysis.WithoutDiffHoleKill, where a := b keeps the hole
// a != b, is caught here by the oracle).
typedef unsigned long pthread_t;
typedef int pthread_mutex_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
extern int pthread_mutex_lock(pthread_mutex_t *);
extern int pthread_mutex_unlock(pthread_mutex_t *);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);

int a = 1;
int b = 2;
pthread_mutex_t m;

void *store(void *arg) {
  int x = __VERIFIER_nondet_int();
  int y = __VERIFIER_nondet_int();
  if (x != y) {
    pthread_mutex_lock(&m);
    a = x;
    b = y;
    pthread_mutex_unlock(&m);
  }
  return 0;
}

void *equal(void *arg) {
  pthread_mutex_lock(&m);
  a = b;
  pthread_mutex_unlock(&m);
  return 0;
}

void *check(void *arg) {
  pthread_mutex_lock(&m);
  __VERIFIER_assert(a != b); // want assert:unproven
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, store, 0);
  pthread_create(&t, 0, equal, 0);
  pthread_create(&t, 0, check, 0);
  return 0;
}
