// Spawn in a loop: each worker gets its index as argument, adds it under a
// lock and records that it ran; main joins all of them through an array of
// handles and checks the total. Correct under every schedule; the
// unjoined read variant is in join_missing.c.
// schedule in-order: main@joins t1 t2 t3 main -> ok
// schedule reverse: main@joins t3 t2 t1 main -> ok
// random: ok
typedef unsigned long pthread_t;
typedef union { char size[40]; long align; } pthread_mutex_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
extern int pthread_join(pthread_t, void **);
extern int pthread_mutex_lock(pthread_mutex_t *);
extern int pthread_mutex_unlock(pthread_mutex_t *);
extern void __VERIFIER_assert(int);

#define N 3
int total = 0;
int ran[N];
pthread_mutex_t m;

void *worker(void *arg) {
  long i = (long)arg;
  pthread_mutex_lock(&m);
  total = total + (int)i + 1;
  pthread_mutex_unlock(&m);
  ran[i] = 1;
  return 0;
}

int main(void) {
  pthread_t h[N];
  for (long i = 0; i < N; i++)
    pthread_create(&h[i], 0, worker, (void *)i);
  for (int i = 0; i < N; i++) // @joins
    pthread_join(h[i], 0);
  __VERIFIER_assert(total == 6 && ran[0] + ran[1] + ran[2] == 3); // @assert
  return 0;
}
