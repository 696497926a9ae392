// chorus: --checks assert
// GCC's constructor runs before main, its destructor after main returns;
// gcc's binary fails every assert marked unproven here (main's first one
// at the first run; with it removed, the destructor's). chorus ignored
// both attributes and proved main's assert; it now spawns each such
// function at the program's start (cfg/startup.go), which covers running
// before and after main.
#include <assert.h>
int g, h;
__attribute__((constructor)) static void init(void) { g = 1; }
static void fin(void) __attribute__((__destructor__));
static void fin(void) {
  assert(h == 0); // want assert:unproven
  assert(h <= 2); // want assert:proven
}
int main(void) {
  assert(g == 0); // want assert:unproven
  assert(g <= 1); // want assert:proven
  h = 2;
  return 0;
}
