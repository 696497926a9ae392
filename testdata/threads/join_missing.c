// Main reads the worker's result without joining it: the read can happen
// before the write.
// schedule main-first: main -> fails @assert
// schedule worker-first: main@read t1 main -> ok
typedef unsigned long pthread_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
extern void __VERIFIER_assert(int);

int result = 0;

void *worker(void *arg) {
  result = 7;
  return 0;
}

int main(void) {
  pthread_t w;
  pthread_create(&w, 0, worker, 0);
  int r = result; // @read
  __VERIFIER_assert(r == 7); // @assert
  return 0;
}
