// The hand-shake with the writes in the wrong order: main can see the flag
// before the data.
// schedule flag-before-data: main@wait t1@data main -> fails @assert
// schedule writer-first: main@wait t1 main -> ok
typedef unsigned long pthread_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
extern void __VERIFIER_assert(int);

int data = 0;
int flag = 0;

void *writer(void *arg) {
  flag = 1;
  data = 42; // @data
  return 0;
}

int main(void) {
  pthread_t w;
  pthread_create(&w, 0, writer, 0);
  while (flag == 0) { // @wait
  }
  int d = data;
  __VERIFIER_assert(d == 42); // @assert
  return 0;
}
