// chorus: --checks assert --domain octagon
// Like prec_once_init.c, but a thread may reset state to 0 after its
// write: another thread can then run the init again (data = 0) after this
// thread's own write and before its read. The flag is not one-way
// (premise P1 of interference/once.go fails): the read stays unproven.
typedef unsigned long pthread_t;
typedef union { char size[24]; long align; } pthread_mutex_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
extern int pthread_mutex_lock(pthread_mutex_t *);
extern int pthread_mutex_unlock(pthread_mutex_t *);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);

int state = 0;
int data = 7;
pthread_mutex_t m2, m;

void *thr(void *arg) {
  pthread_mutex_lock(&m2);
  switch (state) {
  case 0:
    data = 0;
    state = 1;
  case 1:
    pthread_mutex_unlock(&m2);
  }
  pthread_mutex_lock(&m);
  data = 5;
  pthread_mutex_unlock(&m);
  if (__VERIFIER_nondet_int()) {
    pthread_mutex_lock(&m2);
    state = 0;
    pthread_mutex_unlock(&m2);
  }
  __VERIFIER_assert(data != 0); // want assert:unproven
  return 0;
}

int main(void) {
  pthread_t t;
  while (1)
    pthread_create(&t, 0, thr, 0);
  return 0;
}
