// chorus: --checks assert --domain octagon
// One producer thread (spawned once by main) pushes at most N items under
// a lock; a consumer pops under the same lock. The producer's i-th push
// sees at most i items: only its own writes raise top, the consumer's
// only lower it. Proving it needs top related with the producer's loop
// counter (dfg/partition_loops.go: loop counters join the globals their loop
// steps) and "top moved only down since" for the one producer thread
// (analysis/monotone.go: per-template directions of single-instance
// templates).
typedef unsigned long pthread_t;
typedef union { char size[24]; long align; } pthread_mutex_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
extern int pthread_join(pthread_t, void **);
extern int pthread_mutex_lock(pthread_mutex_t *);
extern int pthread_mutex_unlock(pthread_mutex_t *);
extern void __VERIFIER_assert(int);

#define N 5
int top = 0;
unsigned arr[N];
pthread_mutex_t m;

void *producer(void *arg) {
  int i;
  for (i = 0; i < N; i++) {
    pthread_mutex_lock(&m);
    __VERIFIER_assert(top != N); // want assert:proven
    arr[top] = i;
    top++;
    pthread_mutex_unlock(&m);
  }
  return 0;
}

void *consumer(void *arg) {
  int i;
  for (i = 0; i < N; i++) {
    pthread_mutex_lock(&m);
    if (top > 0)
      top--;
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
