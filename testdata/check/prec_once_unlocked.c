// chorus: --checks assert --domain interval
// Like prec_once_init_interval.c, but the thief sets state to 1 without
// holding m2 and reads it without m2: init may see state == 0 under m2,
// then the thief sets state, sees it, writes 5, and init's data = 0 lands
// before the thief's read. The lock argument of
// interference/once.go (lockKnown) needs every write of state under the
// lock A holds; the mutation WithoutOnceLockProtection drops that
// premise and the oracle catches the wrong proof here.
typedef unsigned long pthread_t;
typedef union { char size[24]; long align; } pthread_mutex_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
extern int pthread_mutex_lock(pthread_mutex_t *);
extern int pthread_mutex_unlock(pthread_mutex_t *);
extern void __VERIFIER_assert(int);

int state = 0;
int data = 7;
pthread_mutex_t m2, m;

void *init(void *arg) {
  pthread_mutex_lock(&m2);
  switch (state) {
  case 0:
    data = 0;
    state = 1;
  case 1:
    pthread_mutex_unlock(&m2);
  }
  return 0;
}

void *thief(void *arg) {
  int s;
  state = 1;
  s = state;
  if (s == 1) {
    pthread_mutex_lock(&m);
    data = 5;
    pthread_mutex_unlock(&m);
    __VERIFIER_assert(data != 0); // want assert:unproven
  }
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, init, 0);
  pthread_create(&t2, 0, thief, 0);
  return 0;
}
