// chorus: --checks assert --domain octagon
// Like prec_once_init.c, but the reader has no write of its own between
// seeing state == 1 and reading: the initializer's data = 0 may be the
// last write before the read (the initializer writes 5 only later), so
// the assertion can fail. Premise P3 of interference/once.go needs the
// reader's own write after the observation; the mutation
// WithoutOnceOwnWrite (analysis/mutation_test_hooks.go) drops it, and the
// oracle catches the wrong proof here.
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
  if (state == 0) {
    data = 0;
    state = 1;
  }
  pthread_mutex_unlock(&m2);
  pthread_mutex_lock(&m);
  data = 5;
  pthread_mutex_unlock(&m);
  return 0;
}

void *reader(void *arg) {
  int s;
  pthread_mutex_lock(&m2);
  s = state;
  pthread_mutex_unlock(&m2);
  if (s == 1) {
    pthread_mutex_lock(&m);
    __VERIFIER_assert(data != 0); // want assert:unproven
    pthread_mutex_unlock(&m);
  }
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, init, 0);
  pthread_create(&t2, 0, reader, 0);
  return 0;
}
