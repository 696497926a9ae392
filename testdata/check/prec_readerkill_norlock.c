// chorus: --checks assert --domain octagon
// Reader kills (interference/readerkill.go), unsafe variant of
// prec_readerkill_rwlock.c: the writers do not wait for the readers
// (the write lock ignores r), so a writer may set x between main's read
// of x and its check. The reader kill at main's read removes only the
// flows of writes made before it; those made after still reach the check.
typedef unsigned long pthread_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void __VERIFIER_assert(int);

int w = 0, r = 0, x, y;

void __VERIFIER_atomic_take_write(void) {
  __VERIFIER_assume(w == 0);
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
  __VERIFIER_assert(y == x); // want assert:unproven
  r = r - 1;
  return 0;
}
