// chorus: --checks bounds
// qsort, pthread_once and signal (cfg/libc.go, libcCalls) call the
// functions their arguments hold: the comparator (with pointers into the
// array), the once routine and the signal handler may all run, so what
// they write (seen, once, hits) may change after the calls. They touch
// nothing else: the address-taken global g, which no argument reaches,
// keeps its value (an unknown external would havoc it).
typedef unsigned long size_t;
extern void qsort(void *, size_t, size_t, int (*)(const void *, const void *));
extern int pthread_once(int *, void (*)(void));
typedef void (*handler_t)(int);
extern handler_t signal(int, handler_t);
int g;
int *pg = &g;
int a[4];
int seen, once, hits;
int cmp(const void *x, const void *y) {
  seen = *(const int *)x;
  return 0;
}
void init(void) { once = 5; }
void on_int(int sig) { hits = 6; }
int ctl;
int main(void) {
  int v[3] = {1, 2, 9};
  g = 1;
  qsort(v, 3, sizeof v[0], cmp);
  pthread_once(&ctl, init);
  signal(2, on_int);
  a[g] = 0; // want bounds:proven
  a[seen] = 0; // want bounds:unproven
  a[once] = 0; // want bounds:unproven
  a[hits] = 0; // want bounds:unproven
  return 0;
}
