// chorus: --checks bounds
// An unknown external may write every address-taken global (it may hold
// their addresses): after ext() the old value of g is gone, so a[g] is
// unproven, while a value assigned after the call or checked after it is
// known again. A havoc's result does not depend on the old value, which
// the analysis need not track there (dfg/havoc.go); the thread
// reading h while main calls ext() sees any value too.
#include <pthread.h>
extern void ext(void);
int g, h;
int *pg = &g, *ph = &h;
int a[4];
void *reader(void *arg) {
  a[h] = 1; // want bounds:unproven
  int k = h;
  if (k >= 0 && k < 4)
    a[k] = 2; // want bounds:proven
  return 0;
}
int main(void) {
  pthread_t t;
  g = 1;
  h = 0;
  a[g] = 0; // want bounds:proven
  pthread_create(&t, 0, reader, 0);
  ext();
  a[g] = 0; // want bounds:unproven
  g = 2;
  a[g] = 0; // want bounds:proven
  ext();
  if (g > 0 && g < 3)
    a[g + 1] = 0; // want bounds:proven
  a[g & 3] = 0; // want bounds:proven
  return 0;
}
