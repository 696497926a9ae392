// chorus: --checks bounds
// pthread_setspecific/getspecific (cfg/libc.go threadSpecific): the
// value a thread stores comes back from getspecific, so writing through
// it may change x; the address-taken global g, which neither call
// touches, keeps its value (an unknown external would havoc it).
extern int pthread_setspecific(unsigned, const void *);
extern void *pthread_getspecific(unsigned);
int g;
int *pg = &g;
int a[4];
int main(void) {
  int x = 1;
  g = 1;
  pthread_setspecific(0, &x);
  int *p = pthread_getspecific(0);
  a[g] = 0; // want bounds:proven
  a[x] = 0; // want bounds:proven
  *p = 7;
  a[x] = 0; // want bounds:unproven
  return 0;
}
