// Control flow: switch, goto, short-circuit, comma, conditional, loops.
#include <assert.h>
int side;
int bump(void) { return ++side; }
int main(void) {
  { int v = 1, r = 0; switch (v) { case 1: r += 1; case 2: r += 2; break; case 3: r += 4; } assert(r == 3); } // probe
  { int v = 7, r = 0; switch (v) { default: r = 1; case 2: r += 2; break; case 3: r = 4; } assert(r == 3); } // probe
  { int v = 3, r = 0; switch (v) { case 1 ... 5: r = 1; break; default: r = 2; } assert(r == 1); } // probe
  { char c = -3; int r = 0; switch (c) { case -3: r = 1; break; case 3: r = 2; } assert(r == 1); } // probe
  { int a = 0, b = 0; if (a && (b = 1)) a = 5; assert(b == 0); } // probe
  { int a = 1, b = 0; if (a || (b = 1)) a = 5; assert(b == 0 && a == 5); } // probe
  { int a = 1, b; b = (a++, a + 10); assert(b == 12); } // probe
  { int a = 0, b = 0; int r = a ? (b = 1) : (b = 2); assert(r == 2 && b == 2); } // probe
  { int i = 0; again: i++; if (i < 3) goto again; assert(i == 3); } // probe
  { int i = 0; for (;;) { i++; if (i == 7) goto out; } out: assert(i == 7); } // probe
  { int i = 0, s = 0; while (1) { i++; if (i == 2) continue; if (i > 4) break; s += i; } assert(s == 8); } // probe
  { int f = 0; for (int i = 0; i < 5; i++) for (int j = 0; j < 5; j++) { if (j == 2) break; f++; } assert(f == 10); } // probe
  { int i = 0; do { i++; } while (i < 0); assert(i == 1); } // probe
  { int i = 0, j = 10; while (i < j) { i++; j--; } assert(i == 5 && j == 5); } // probe
  { int s = 0; for (int i = -5; i < 5; i++) s += i % 3; assert(s == -2); } // probe
  { int i = 0, n = 0; while ((i += 2) < 10) n++; assert(n == 4); } // probe
  { side = 0; int r = bump() + bump() * 2; assert(side == 2 && (r == 5 || r == 4)); } // probe
  { int a = ({ int t = 3; t * 2; }); assert(a == 6); } // probe
  { int x = 1; { int x = 2; x++; } assert(x == 1); } // probe
  return 0;
}
