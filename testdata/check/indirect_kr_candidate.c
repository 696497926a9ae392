// chorus: --checks bounds
// A function defined without a prototype (an empty identifier list,
// reset()) stays a candidate of every indirect call with an integer
// result (cfg/dispatch.go only drops (void) prototypes): the access after
// op(2) is not proven.
int buf[4];
int idx = 0;

int reset() {
  idx = 9;
  return 0;
}

int get(int i) { return i + 1; }

int (*hook)() = reset;
int (*op)(int) = get;

int main(void) {
  int r = op(2);
  buf[idx] = r; // want bounds:unproven
  return 0;
}
