// chorus: --checks assert --domain octagon
// Reader kills (interference/readerkill.go): a reader/writer lock built
// from atomic sections (SV-COMP pthread-ext/18_read_write_lock). Any
// number of writers set x while they hold the write lock (w == 1, taken
// only when r == 0); main takes the read lock (r == 1) and reads x twice.
// The writers' x reaches main's first read (t := x), but main's move over
// it carries no flow of the mixed cell {x, y, t, ...} on: what main holds
// after it is the read's own post, with y == x after y = t.
typedef unsigned long pthread_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void __VERIFIER_assert(int);

int w = 0, r = 0, x, y;

void __VERIFIER_atomic_take_write(void) {
  __VERIFIER_assume(w == 0);
  __VERIFIER_assume(r == 0);
  w = 1;
}

void __VERIFIER_atomic_take_read(void) {
  __VERIFIER_assume(w == 0);
  r = r + 1;
}

void *writer(void *arg) {
  __VERIFIER_atomic_take_write();
  x = __VERIFIER_nondet_int();
  w = 0;
  return 0;
}

int main(void) {
  pthread_t t;
  while (__VERIFIER_nondet_int())
    pthread_create(&t, 0, writer, 0);
  __VERIFIER_atomic_take_read();
  y = x;
  __VERIFIER_assert(y == x); // want assert:proven
  r = r - 1;
  return 0;
}
