// chorus: --checks assert --domain octagon
// A relation between two lock-protected globals (used + avail == 8) checked
// by two templates, each reading the globals into many temporaries: the
// cells relating them hold more than 12 variables, which small programs
// allow (dfg/partition.go, SmallProgramCellVars). used == 0 can fail.
typedef unsigned long pthread_t;
typedef union { char size[40]; long align; } pthread_mutex_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
extern int pthread_mutex_lock(pthread_mutex_t *);
extern int pthread_mutex_unlock(pthread_mutex_t *);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);

int used = 0;
int avail = 8;
pthread_mutex_t m;

void *producer(void *arg) {
  while (__VERIFIER_nondet_int()) {
    pthread_mutex_lock(&m);
    __VERIFIER_assert(used >= 0);          // want assert:proven
    __VERIFIER_assert(avail >= 0);         // want assert:proven
    __VERIFIER_assert(used + avail == 8);  // want assert:proven
    if (avail > 0) {
      avail = avail - 1;
      used = used + 1;
    }
    __VERIFIER_assert(used + avail == 8);  // want assert:proven
    pthread_mutex_unlock(&m);
  }
  return 0;
}

void *consumer(void *arg) {
  while (__VERIFIER_nondet_int()) {
    pthread_mutex_lock(&m);
    __VERIFIER_assert(used >= 0);          // want assert:proven
    __VERIFIER_assert(avail >= 0);         // want assert:proven
    __VERIFIER_assert(used + avail == 8);  // want assert:proven
    if (used > 0) {
      used = used - 1;
      avail = avail + 1;
    }
    __VERIFIER_assert(used + avail == 8);  // want assert:proven
    __VERIFIER_assert(used == 0);          // want assert:unproven
    pthread_mutex_unlock(&m);
  }
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, producer, 0);
  pthread_create(&t, 0, producer, 0);
  pthread_create(&t, 0, consumer, 0);
  pthread_mutex_lock(&m);
  __VERIFIER_assert(used + avail == 8);    // want assert:proven
  pthread_mutex_unlock(&m);
  return 0;
}
