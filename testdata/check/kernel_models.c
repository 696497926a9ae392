// chorus: --checks bounds
// Linux kernel API functions with a model (cfg/kernel.go): udelay writes
// no memory the program reads and calls no callback, so the address-taken
// global idx keeps its value across it. An external without a model
// (mystery) may write every address-taken global: idx may be anything
// after it.
extern void udelay(unsigned long usecs);
extern void mystery(void);
int buf[4];
int idx = 1;
int *pidx = &idx;

int main(void) {
  udelay(10);
  buf[idx] = 1; // want bounds:proven
  mystery();
  buf[idx] = 2; // want bounds:unproven
  return 0;
}
