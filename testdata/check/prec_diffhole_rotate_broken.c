// chorus: --checks assert --domain octagon
// Like prec_diffhole_rotate.c, but the rotation's last copy takes b
// instead of temp (c = b: then b == c), so no pair stays distinct: after
// one rotation (2, 3, 3), after two (3, 3, 3). The disequalities must not
// survive the copies.
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
  c = b;
  pthread_mutex_unlock(&m);
  return 0;
}

// One assert per thread: after a failed assert a thread continues
// assuming it held, which would prove the next one.
void *check_ab(void *arg) {
  pthread_mutex_lock(&m);
  __VERIFIER_assert(a != b); // want assert:unproven
  pthread_mutex_unlock(&m);
  return 0;
}

void *check_bc(void *arg) {
  pthread_mutex_lock(&m);
  __VERIFIER_assert(b != c); // want assert:unproven
  pthread_mutex_unlock(&m);
  return 0;
}

void *check_ca(void *arg) {
  pthread_mutex_lock(&m);
  __VERIFIER_assert(c != a); // want assert:unproven
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, check_ab, 0);
  pthread_create(&t, 0, check_bc, 0);
  pthread_create(&t, 0, check_ca, 0);
  while (1)
    pthread_create(&t, 0, rotate, 0);
  return 0;
}
