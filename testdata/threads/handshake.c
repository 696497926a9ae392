// A flag hand-shake: the writer publishes data, then raises the flag; main
// waits for the flag and then reads the data. Correct under sequential
// consistency, whatever the schedule.
// schedule writer-first: main@wait t1 main -> ok
// schedule main-spins-first: main:40 t1 main -> ok
// random: ok
typedef unsigned long pthread_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
extern void __VERIFIER_assert(int);

int data = 0;
int flag = 0;

void *writer(void *arg) {
  data = 42;
  flag = 1; // @publish
  return 0;
}

int main(void) {
  pthread_t w;
  pthread_create(&w, 0, writer, 0);
  while (flag == 0) { // @wait
  }
  int d = data; // @check
  __VERIFIER_assert(d == 42); // @assert
  return 0;
}
