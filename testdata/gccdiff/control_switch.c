// Control flow: switch shapes, do/while with continue, goto into loops,
// comma in for, short-circuit and conditional side effects, sequencing.
#include <assert.h>
int g;
int setg(int v) { g = v; return v; }
int f2(int v) { switch (v) { case 0: return 10; case 1 ... 3: return 20; case 4: case 5: return 30; default: return 40; case 9: return 50; } }
int main(void) {
  { int r = 0; for (int v = 0; v < 6; v++) switch (v) { case 0: case 1: r += 1; break; default: r += 10; case 4: r += 100; } assert(r == 432); } // probe
  { assert(f2(2) == 20 && f2(9) == 50 && f2(7) == 40 && f2(5) == 30); } // probe
  { int v = -1, r = 0; switch (v) { case -5 ... -1: r = 1; break; } assert(r == 1); } // probe
  { unsigned v = 3000000000u, r = 0; switch (v) { case 3000000000u: r = 1; break; default: r = 2; } assert(r == 1); } // probe
  { long long v = 1LL << 40, r = 0; switch (v) { case 0: r = 1; break; case 1LL << 40: r = 2; } assert(r == 2); } // probe
  { char c = 'b'; int r = 0; switch (c) { case 'a' ... 'c': r = c - 'a'; } assert(r == 1); } // probe
  { int v = 5, r = 0; switch (v) { r = 99; case 5: r += 1; } assert(r == 1); } // probe
  { int v = 2, r = 0; switch (v) { case 1: { case 2: r = 7; } } assert(r == 7); } // probe
  { int v = 3, r = 0; switch (v) { } assert(r == 0); } // probe
  { int v = 1, r = 0; switch (v) { case 1: if (r == 0) { r = 2; break; } r = 3; } assert(r == 2); } // probe
  { int n = 0, i = 0; do { i++; if (i % 2) continue; n++; } while (i < 10); assert(n == 5 && i == 10); } // probe
  { int i = 0; do { if (i == 3) break; i++; } while (1); assert(i == 3); } // probe
  { int i = 10; do i--; while (i > 5); assert(i == 5); } // probe
  { int i, j; for (i = 0, j = 10; i < j; i += 2, j -= 1) ; assert(i == 8 && j == 6); } // probe
  { int k = 0, i = 5; goto inside; for (i = 0; i < 3; i++) { k += 10; inside: k++; } assert(k == 1 && i == 6); } // probe
  { int k = 0, i = 0; goto mid; while (i < 3) { k += 2; mid: i++; } assert(k == 4 && i == 3); } // probe
  { int a = 0, b = 0; (a = 1) || (b = 1); assert(a == 1 && b == 0); } // probe
  { int a = 0, b = 0; (a = 0) && (b = 1); assert(b == 0); } // probe
  { int a = 0; int r = (a++ || a++); assert(r == 1 && a == 2); } // probe
  { int a = 1; int r = (a-- && a--); assert(r == 0 && a == -1); } // probe
  { int a = 2, b = 3; int r = a > b ? a++ : b++; assert(r == 3 && a == 2 && b == 4); } // probe
  { int x = 5; int r = x ? x > 3 ? 1 : 2 : 3; assert(r == 1); } // probe
  { g = 0; int r = setg(1) ? setg(2) : setg(3); assert(r == 2 && g == 2); } // probe
  { int a[3] = {0}; int i = 0; a[i++] = 5; a[i++] = 6; assert(a[0] == 5 && a[1] == 6 && i == 2); } // probe
  { int x = 0; int y = (x = 3, x + 1); assert(x == 3 && y == 4); } // probe
  { int n = 0; for (int i = 0; i < 10; i++) { if (i == 2) continue; if (i == 6) break; n += i; } assert(n == 13); } // probe
  { int n = 0, i = 0; while (i++ < 5) n += i; assert(n == 15 && i == 6); } // probe
  { int n = 0, i = 5; while (i-- > 0) n++; assert(n == 5 && i == -1); } // probe
  { int n = 0; for (unsigned char c = 250; c != 4; c++) n++; assert(n == 10); } // probe
  { int x = 0, y = 0; if (x == 0) if (y == 1) x = 1; else x = 2; assert(x == 2); } // probe
  { int t = 0; for (int i = 0; i < 3; i++) for (int j = i; j < 3; j++) t += j - i; assert(t == 4); } // probe
  { int r = 0; int i = 0; loop: if (i >= 4) goto done; r += i; i++; goto loop; done: assert(r == 6); } // probe
  { int x = 7; x = x > 5 && x < 10; assert(x == 1); } // probe
  { int x = 7; x = !x + !!x; assert(x == 1); } // probe
  { int c = 0; for (int i = 0; i < 100; i++) if (i % 7 == 0) c++; assert(c == 15); } // probe
  { long s = 0; for (int i = 1; i <= 100; i++) s += i; assert(s == 5050); } // probe
  { int a = 5, b = 3; a ^= b; b ^= a; a ^= b; assert(a == 3 && b == 5); } // probe
  { int i = 0, s = 0; for (;;) { if (++i > 100) break; s += i & 1; } assert(s == 50); } // probe
  return 0;
}
