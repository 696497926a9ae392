// chorus: --checks assert
// Appendix A, broken: the consumers take no lock, so two consumers can both
// pass the test at counter = 1 and both decrement: counter = -1.
typedef unsigned long pthread_t;
typedef union { char size[24]; long align; } pthread_mutex_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
extern int pthread_mutex_lock(pthread_mutex_t *);
extern int pthread_mutex_unlock(pthread_mutex_t *);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);

int counter = 0;
pthread_mutex_t plock, clock;

void *producer(void *arg) {
  pthread_mutex_lock(&plock);
  if (__VERIFIER_nondet_int()) {
    counter = counter + 1;
  } else if (counter > 0) {
    while (counter > 0) {
    }
    counter = 0;
  }
  pthread_mutex_unlock(&plock);
  return 0;
}

void *consumer(void *arg) {
  while (__VERIFIER_nondet_int()) {
    // no lock
    if (counter > 0) {
      counter = counter - 1;
      __VERIFIER_assert(counter >= 0); // want assert:unproven
    }

  }
  return 0;
}

int main(void) {
  pthread_t t;
  while (__VERIFIER_nondet_int()) {
    if (__VERIFIER_nondet_int())
      pthread_create(&t, 0, producer, 0);
    else
      pthread_create(&t, 0, consumer, 0);
  }
  return 0;
}
