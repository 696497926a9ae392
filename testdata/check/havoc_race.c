// chorus: --checks bounds
// Unknown calls havoc one-variable cells (g, h: address-taken globals
// that ext may write) around racing increments of a counter n. A havoc
// writes its cell's whole type range, so the analysis does not track the
// old value of such a cell there (dfg/havoc.go); this must not hide the
// havocked cells' writers or the counter's racing writers from the
// interference game. Unboundedly many workers: two may both pass the test
// n < 10 before either increments, so n can exceed 9 at a[n] (unproven);
// the single-instance init thread's increments of m only race with main's
// reads of m after its spawn, which test m before indexing (proven).
#include <pthread.h>
extern void ext(int *p);
extern int nondet(void);
int g, h;
short n, m;
int a[10], b[10];
void *worker(void *arg) {
  ext(&g);
  if (n < 10) {
    ext(&h);
    a[n] = 1; // want bounds:unproven
    g = n;
    n = n + 1;
  }
  b[g] = 0; // want bounds:unproven
  int k = g;
  if (k >= 0 && k < 10)
    b[k] = 1; // want bounds:proven
  return 0;
}
void *init(void *arg) {
  while (nondet()) {
    ext(&h);
    if (m < 10) {
      ext(&g);
      b[m] = 2; // want bounds:proven
      m = m + 1;
    }
  }
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, init, 0);
  while (nondet())
    pthread_create(&t, 0, worker, 0);
  int k = m;
  if (k < 10)
    a[k] = 3; // want bounds:proven
  return 0;
}
