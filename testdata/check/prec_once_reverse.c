// chorus: --checks assert --domain interval
// The reverse epoch rule of interference/once.go (onceReverse): x = 5 is
// written only after the writer set the one-way flag f (which never
// returns to 0), so a reader that sees f == 0 runs before every such write
// and reads x's initial 0, however many writers run. The reader tests f by
// a switch (several assumes on one load: f == 0 is no observable condition
// for the game) and holds m, which every write of f holds, from its test
// to its read (once.go's lock argument gives f == 0 at the read).
typedef unsigned long pthread_t;
typedef union { char size[24]; long align; } pthread_mutex_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
extern int pthread_mutex_lock(pthread_mutex_t *);
extern int pthread_mutex_unlock(pthread_mutex_t *);
extern void __VERIFIER_assert(int);

int f = 0;
int x = 0;
pthread_mutex_t m;

void *w(void *arg) {
  pthread_mutex_lock(&m);
  f = 1;
  pthread_mutex_unlock(&m);
  x = 5;
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, w, 0);
  pthread_create(&t2, 0, w, 0);
  pthread_mutex_lock(&m);
  switch (f) {
  case 0:
    __VERIFIER_assert(x == 0); // want assert:proven
    break;
  case 1:
    break;
  }
  pthread_mutex_unlock(&m);
  return 0;
}
