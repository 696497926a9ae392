// chorus: --checks assert --domain octagon | --checks assert --domain interval
// GCC's __attribute__((cleanup(f))) calls f(&v) whenever v leaves its
// scope: block end, break, continue, goto and return, innermost and
// latest-declared first (cfg/cleanup.go). Asserts below hold only because
// a cleanup ran (proven) or fail because one ran (unproven, the last one:
// gcc -O0's binary passes all the others and aborts there).
#include <assert.h>
int seq;     // the cleanups append their variable's digit in base 10
static void note(int *p) {
  seq = seq * 10 + *p;
}
static int fallthrough(void) {
  seq = 0;
  {
    __attribute__((cleanup(note))) int a = 1;
    __attribute__((cleanup(note))) int b = 2, c = 3;
    assert(seq == 0); // want assert:proven
  }
  return seq; // 321: latest-declared first
}
static int leave_by_break(void) {
  seq = 0;
  while (1) {
    __attribute__((cleanup(note))) int d = 4;
    break; // runs d's cleanup
  }
  return seq;
}
static int leave_by_continue(void) {
  seq = 0;
  do {
    __attribute__((cleanup(note))) int d = 3;
    if (seq == 0)
      continue; // runs d's cleanup, then tests the condition
    seq = 99;
  } while (0);
  return seq;
}
static int leave_switch(int x) {
  seq = 0;
  switch (x) {
  case 1: {
    __attribute__((cleanup(note))) int s = 2;
    break; // runs s's cleanup
  }
  default:
    seq = 9;
  }
  return seq;
}
static int early_return(int x) {
  __attribute__((cleanup(note))) int e = 5;
  {
    __attribute__((cleanup(note))) int f = 6;
    if (x)
      return seq; // the value is read before the cleanups run
  }
  return -1;
}
static int leave_by_goto(int x) {
  seq = 0;
  {
    __attribute__((cleanup(note))) int g = 7;
    {
      __attribute__((cleanup(note))) int h = 8;
      if (x)
        goto out; // leaves both scopes: 8 then 7
    }
    seq = seq * 10 + 9;
  }
out:
  return seq;
}
int main(void) {
  int r = fallthrough();
  assert(r == 321); // want assert:proven
  assert(leave_by_break() == 4); // want assert:proven
  assert(leave_by_continue() == 3); // want assert:proven
  assert(leave_switch(1) == 2); // want assert:proven
  assert(leave_switch(0) == 9); // want assert:proven
  seq = 0;
  int v = early_return(1);
  assert(v == 0); // want assert:proven
  assert(seq == 65); // want assert:proven
  assert(leave_by_goto(1) == 87); // want assert:proven
  assert(leave_by_goto(0) == 897); // want assert:proven
  if (r != 321)
    assert(0); // want assert:unreachable
  seq = 0;
  early_return(1);
  int w = seq;
  if (w == 65) // as gcc's binary shows: the assert below fails
    assert(w != 65); // want assert:unproven
  return 0;
}
