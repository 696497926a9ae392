// chorus: --checks assert --domain octagon
// Reader kills (interference/readerkill.go), unsafe variant: the reader
// copies x into a local of x's cell (t = x), then another thread may
// still write x before the reader compares; the kill at the copy ends
// only the flows that arrived before it. Also the mutation fixture of
// WithUnsoundReaderKills: main waits for the flag the writer sets after
// x = 1, then copies y (a position writing a local register) before it
// reads x; killing x's flows there (the copy defines no part of x's
// cell) leaves x's initial 0 alone at the read of x.
typedef unsigned long pthread_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void __VERIFIER_assert(int);

int x = 0, y = 0, flag = 0;

void *writer(void *arg) {
  x = 1;
  flag = 1;
  x = -1;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, writer, 0);
  while (flag == 0) {
  }
  int u = y;
  int m = x;
  __VERIFIER_assert(m == x); // want assert:unproven
  __VERIFIER_assert(u == 0); // want assert:proven
  return 0;
}
