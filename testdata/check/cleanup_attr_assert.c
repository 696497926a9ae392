// chorus: --checks assert --domain octagon | --checks assert --domain interval
// A cleanup function's assert is a check of each scope exit that calls it
// (cfg/cleanup.go): a's exit passes it, b's fails it (gcc -O0's binary
// aborts at b's block end).
#include <assert.h>
static void positive(int *p) {
  assert(*p > 0); // want assert:proven assert:unproven
}
int main(void) {
  {
    __attribute__((cleanup(positive))) int a = 1;
  }
  {
    __attribute__((cleanup(positive))) int b = 1;
    b = 0;
  }
  return 0;
}
