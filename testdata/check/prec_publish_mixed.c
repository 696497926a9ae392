// chorus: --checks assert --domain octagon
// Published initial values (dfg/publish.go) in a mixed cell: l and seed
// share an octagon cell (l > seed relates them). The reader thread has
// seen state != 0, so seed's initial 0 is stale; but on the path that
// skips the first if, the thread has not written l either, and l holds
// any value there. The dropped edge from program start also stood for
// that path (the thread's locals unconstrained), so it is put back where
// other sequential sources of the cell reach the location (restore): the
// assert must stay unproven. (The reader takes no lock: the lock's relay
// would be the reader's first definition of the cell.)
typedef unsigned long pthread_t;
typedef int pthread_mutex_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
extern int pthread_mutex_lock(pthread_mutex_t *);
extern int pthread_mutex_unlock(pthread_mutex_t *);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);

int state = 0;
int seed;
pthread_mutex_t m;

void *setter(void *arg) {
  pthread_mutex_lock(&m);
  seed = 1;
  state = 1;
  pthread_mutex_unlock(&m);
  return 0;
}

void *reader(void *arg) {
  int l;
  if (state != 0) {
    if (__VERIFIER_nondet_int()) {
      l = 7;
      if (l > seed)
        l = 7;
    }
    __VERIFIER_assert(l == 7); // want assert:unproven
  }
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, setter, 0);
  pthread_create(&t, 0, reader, 0);
  return 0;
}
