// Threads receive heap-allocated argument structs and write their result
// into them; main joins each and sums. Correct under every schedule.
// schedule in-order: main@joins t1 t2 t3 main -> ok
// random: ok
typedef unsigned long pthread_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
extern int pthread_join(pthread_t, void **);
extern void *malloc(unsigned long);
extern void __VERIFIER_assert(int);

struct job {
  int in;
  int out;
};

void *square(void *p) {
  struct job *j = p;
  j->out = j->in * j->in;
  return 0;
}

int main(void) {
  pthread_t h[3];
  struct job *jobs[3];
  for (int i = 0; i < 3; i++) {
    jobs[i] = malloc(sizeof(struct job));
    jobs[i]->in = i + 1;
    jobs[i]->out = 0;
    pthread_create(&h[i], 0, square, jobs[i]);
  }
  int sum = 0;
  for (int i = 0; i < 3; i++) { // @joins
    pthread_join(h[i], 0);
    sum += jobs[i]->out;
  }
  __VERIFIER_assert(sum == 14); // @assert
  return 0;
}
