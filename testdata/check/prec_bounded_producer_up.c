// chorus: --checks assert --domain octagon
// Like prec_bounded_producer.c, but the consumer may also push: another
// thread raises top, so the producer's i-th push may see N items.
typedef unsigned long pthread_t;
typedef union { char size[24]; long align; } pthread_mutex_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
extern int pthread_join(pthread_t, void **);
extern int pthread_mutex_lock(pthread_mutex_t *);
extern int pthread_mutex_unlock(pthread_mutex_t *);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);

#define N 5
int top = 0;
pthread_mutex_t m;

void *producer(void *arg) {
  int i;
  for (i = 0; i < N; i++) {
    pthread_mutex_lock(&m);
    __VERIFIER_assert(top != N); // want assert:unproven
    top++;
    pthread_mutex_unlock(&m);
  }
  return 0;
}

void *consumer(void *arg) {
  int i;
  for (i = 0; i < N; i++) {
    pthread_mutex_lock(&m);
    if (__VERIFIER_nondet_int()) {
      if (top > 0)
        top--;
    } else if (top < N) {
      top++;
    }
    pthread_mutex_unlock(&m);
  }
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, producer, 0);
  pthread_create(&t2, 0, consumer, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}
