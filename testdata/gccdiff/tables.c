// Global tables of structs (function pointers and pointers inside).
#include <assert.h>
int f1(void) { return 1; }
int f2(void) { return 2; }
int va = 5, vb = 6;
struct op { const char *name; int (*fn)(void); int *p; };
struct op tbl[3] = {{"a", f1, &va}, {"b", f2, &vb}};
struct op one = {"z", f2, &vb};
const char *strs[3] = {"x", "yy"};
int main(void) {
  { assert(tbl[1].fn() == 2); } // probe
  { int i = 1; assert(tbl[i].fn() == 2); } // probe
  { assert(*tbl[1].p == 6); } // probe
  { assert(tbl[2].fn == 0 && tbl[2].p == 0); } // probe
  { assert(tbl[1].name[0] == 'b'); } // probe
  { assert(strs[1][1] == 'y' && strs[2] == 0); } // probe
  { assert(one.fn() == 2 && *one.p == 6); } // probe
  return 0;
}
