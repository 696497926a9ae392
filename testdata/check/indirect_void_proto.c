// chorus: --checks bounds
// Indirect calls go to the address-taken functions of a compatible type
// (cfg/call.go). A function prototyped (void) takes no arguments: a call
// through a pointer that passes one cannot reach it (C11 6.7.6.3p15,
// 6.3.2.3p8; cfg/dispatch.go), so reset's write of idx does not reach
// the first access. The second call goes through a pointer of reset's
// own type: reset may run there, and idx may be 9 afterwards.
int buf[4];
int idx = 0;

int reset(void) {
  idx = 9;
  return 0;
}

int get(int i) { return i + 1; }

int (*hook)(void) = reset;
int (*op)(int) = get;

int main(void) {
  int r = op(2);
  buf[idx] = r; // want bounds:proven
  hook();
  buf[idx] = 0; // want bounds:unproven
  return 0;
}
