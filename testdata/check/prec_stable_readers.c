// chorus: --checks assert --domain octagon
// Stable globals of mixed cells (dfg/stable.go; SV-COMP
// pthread-atomic/read_write_lock-1): two readers each copy x to y under a
// read lock, two writers set x under the write lock. The other reader's
// y = l lands in a reader's section as an interference edge of the cell
// {x, y, l, ...}; readers never write x and no writer's edge reaches the
// section, so the reader's t == x survives it.
typedef unsigned long pthread_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void __VERIFIER_assert(int);

int w = 0, r = 0, x, y;

void __VERIFIER_atomic_take_write(void) {
  __VERIFIER_assume(w == 0 && r == 0);
  w = 1;
}

void __VERIFIER_atomic_take_read(void) {
  __VERIFIER_assume(w == 0);
  r = r + 1;
}

void __VERIFIER_atomic_release_read(void) {
  r = r - 1;
}

void *writer(void *arg) {
  __VERIFIER_atomic_take_write();
  x = 3;
  w = 0;
  return 0;
}

void *reader(void *arg) {
  int l;
  __VERIFIER_atomic_take_read();
  l = x;
  y = l;
  __VERIFIER_assert(y == x); // want assert:proven
  __VERIFIER_atomic_release_read();
  return 0;
}

int main(void) {
  pthread_t t1, t2, t3, t4;
  pthread_create(&t1, 0, writer, 0);
  pthread_create(&t2, 0, reader, 0);
  pthread_create(&t3, 0, writer, 0);
  pthread_create(&t4, 0, reader, 0);
  return 0;
}
