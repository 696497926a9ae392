// chorus: --checks assert
// Inline assembly, modelled from its GCC constraints (cfg/asm.go): outputs
// get any value, a "memory" clobber lets it write what its inputs and the
// address-taken globals reach, a global named in the template gets any
// value, an empty template does nothing. gcc's binary (x86-64) fails every
// assert marked unproven here, each on its own; chorus proved the first
// one while it lowered asm to nothing.
#include <assert.h>
int g, h, named;
int *hp = &h;
int main(void) {
  int x = 0, y = 0;
  int *p = &y;
  __asm__ volatile("movl $1, %0" : "=r"(x));
  assert(x == 0); // want assert:unproven
  __asm__ __volatile__("" : : : "memory");
  assert(g == 0); // want assert:proven
  __asm__ volatile("movl $1, (%0)" : : "r"(p) : "memory");
  assert(y == 0); // want assert:unproven
  __asm__ volatile("movl $1, %0" : "=m"(g));
  assert(g == 0); // want assert:unproven
  __asm__ volatile("movl $1, named(%rip)");
  assert(named == 0); // want assert:unproven
  __asm__ volatile("movl $1, (%0)" : : "r"(hp) : "memory");
  assert(h == 0); // want assert:unproven
  return 0;
}
