// chorus: --checks assert
// A constructor runs in main's thread: its write to a thread-local
// variable is main's instance (gcc's binary fails the first assert). The
// constructor's template runs "in the caller's thread" (cfg/startup.go,
// tls.go), so the variable stays one shared register.
#include <assert.h>
__thread int t;
__attribute__((constructor)) static void init(void) { t = 1; }
int main(void) {
  assert(t == 0); // want assert:unproven
  assert(t <= 1); // want assert:proven
  return 0;
}
