// chorus: --checks assert --domain octagon | --checks assert --domain interval
// A cleanup function's assert is a check of the scope exit that calls it
// (cfg/cleanup.go): a's exit passes it, b's fails it (gcc -O0's binary
// aborts at b's block end).
#include <assert.h>
int seen;
static void positive(int *p) {
  assert(*p > 0); // want assert:proven
  seen = 1;
}
static void positive_again(int *p) {
  assert(*p > 0 || !seen); // want assert:unproven
}
int main(void) {
  {
    __attribute__((cleanup(positive))) int a = 1;
  }
  {
    __attribute__((cleanup(positive_again))) int b = 1;
    b = 0;
  }
  return 0;
}
