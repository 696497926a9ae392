// chorus: --checks assert --domain octagon
// Difference holes (domains/diffholes.go): a, b, c hold a permutation of
// 1, 2, 3 and any number of threads rotate them under the lock, so
// a != b, b != c and c != a hold whenever the lock is free; octagons alone
// only know a - b in [-1, 2]. Each copy x := y gives x the holes y has
// (temp = a; a = b; b = c; c = temp maps a != b, b != c, c != a onto
// themselves), the first iterate excludes a == b by its range and the
// join with the next one (a - b = -1 and 2) creates the hole (a sign
// split). The unsafe asserts check that the holes exclude equality only.
typedef unsigned long pthread_t;
typedef int pthread_mutex_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
extern int pthread_mutex_lock(pthread_mutex_t *);
extern int pthread_mutex_unlock(pthread_mutex_t *);
extern void __VERIFIER_assert(int);

int a = 1;
int b = 2;
int c = 3;
int temp;
pthread_mutex_t m;

void *rotate(void *arg) {
  pthread_mutex_lock(&m);
  temp = a;
  a = b;
  b = c;
  c = temp;
  pthread_mutex_unlock(&m);
  return 0;
}

void *check(void *arg) {
  pthread_mutex_lock(&m);
  __VERIFIER_assert(a != b); // want assert:proven
  __VERIFIER_assert(b != c); // want assert:proven
  __VERIFIER_assert(c != a); // want assert:proven
  __VERIFIER_assert(a != 1); // want assert:unproven
  __VERIFIER_assert(b != 3); // want assert:unproven
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, check, 0);
  while (1)
    pthread_create(&t, 0, rotate, 0);
  return 0;
}
