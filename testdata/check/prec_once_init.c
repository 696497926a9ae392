// chorus: --checks assert --domain octagon
// Init once under a flag (interference/once.go), in the shape of SV-COMP
// pthread-ext/25_stack: the flag is tested by a switch, whose several
// assumes on one load keep state == 0 from being an observable condition
// (analysis/fuse.go fuses a load into one level of assumes only). Every thread
// takes m2 and, if state is still 0, initializes data to 0 and sets state
// to 1; state never returns to 0. Later the thread publishes its own value
// (data = 5) and reads data back. The init's write of 0 ran while state
// was 0, so before this thread saw state == 1 and hence before its own
// write: it is never the value read (any number of threads). Other
// threads' writes of 5 still reach the read.
typedef unsigned long pthread_t;
typedef union { char size[24]; long align; } pthread_mutex_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
extern int pthread_mutex_lock(pthread_mutex_t *);
extern int pthread_mutex_unlock(pthread_mutex_t *);
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
  __VERIFIER_assert(data != 0); // want assert:proven
  return 0;
}

int main(void) {
  pthread_t t;
  while (1)
    pthread_create(&t, 0, thr, 0);
  return 0;
}
