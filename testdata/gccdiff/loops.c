// Loops and widening: counters after loops, nested loops, strides,
// unsigned wrap to 0, exits by break/goto, do-while, pointer walks.
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
int gbound = 10;
int arr[8] = {1, 2, 3, 4, 5, 6, 7, 8};
int sumto(int n) { int s = 0; for (int i = 0; i <= n; i++) s += i; return s; }
int main(void) {
  { int i = 0; while (i < 10) i++; assert(i == 10); } // probe
  { int i = 0; for (; i < 10; i += 3); assert(i == 12); } // probe
  { int i = 0; for (; i < 10; i += 3); assert(i != 10); } // probe
  { int i = 0, j = 0; for (i = 0; i < 5; i++) for (int k = 0; k < 4; k++) j++; assert(j == 20 && i == 5); } // probe
  { unsigned char c = 250; int n = 0; while (c != 0) { c++; n++; } assert(n == 6); } // probe
  { unsigned u = 0xfffffff0u; int n = 0; do { u += 4; n++; } while (u != 0); assert(n == 4); } // probe
  { unsigned u = 0xfffffff0u; do { u += 4; } while (u > 10); assert(u == 0); } // probe
  { int i; for (i = 0; i < 100; i++) if (i * i > 50) break; assert(i == 8); } // probe
  { int i = 0; again: i += 2; if (i < 7) goto again; assert(i == 8); } // probe
  { int i = 10; do { i--; } while (i > 3); assert(i == 3); } // probe
  { int i = 10; do { i -= 4; } while (i > 0); assert(i == -2); } // probe
  { int s = 0; for (int *p = arr; p < arr + 8; p++) s += *p; assert(s == 36); } // probe
  { int s = 0; for (int *p = arr; p != arr + 8; p += 2) s += *p; assert(s == 16); } // probe
  { int n = 0; for (int i = 0; i < gbound; i++) { n++; if (i == 3) gbound = 5; } assert(n == 5); gbound = 10; } // probe
  { assert(sumto(4) == 10); } // probe
  { int i = 0, j = 100; while (i < j) { i++; j--; } assert(i == 50 && j == 50); } // probe
  { int i = 0, j = 101; while (i < j) { i++; j--; } assert(i == 51); } // probe
  { int x = 1; for (int i = 0; i < 10; i++) x *= 2; assert(x == 1024); } // probe
  { int x = 0; for (int i = 0; i < 31; i++) x = 2 * x + 1; assert(x == 0x7fffffff); } // probe
  { signed char c = 0; for (int i = 0; i < 200; i++) c = (signed char)(c + 1); assert(c == -56); } // probe
  { unsigned short s = 0; for (int i = 0; i < 70000; i++) s++; assert(s == 4464); } // probe
  { int i = 0; for (;;) { if (++i == 17) break; } assert(i == 17); } // probe
  { int k = 0; for (int i = 0; i < 10; i++) { if (i % 2) continue; k++; } assert(k == 5); } // probe
  { int i, found = -1; for (i = 0; i < 8; i++) if (arr[i] == 5) { found = i; break; } assert(found == 4 && i == 4); } // probe
  { int i = 20; while (i --> 0); assert(i == -1); } // probe
  { unsigned i = 5; while (i-- > 0); assert(i == 0xffffffffu); } // probe
  { int a[5]; for (int i = 0; i < 5; i++) a[i] = i * i; assert(a[4] == 16 && a[0] == 0); } // probe
  { int a[5]; for (int i = 0; i < 5; i++) a[i] = i * i; int j = 3; assert(a[j] == 9); } // probe
  { int a[5] = {0}; for (int i = 4; i >= 0; i--) a[i] = i; int s = 0; for (int i = 0; i < 5; i++) s += a[i]; assert(s == 10); } // probe
  { long long x = 1; int n = 0; while (x > 0) { x <<= 1; n++; if (n > 100) break; } assert(n == 63); } // probe
  { uint64_t x = 1; int n = 0; while (x) { x <<= 1; n++; } assert(n == 64); } // probe
  { int i = 0, t = 0; for (i = 0; i < 3; i++) { int j; for (j = 0; j < i; j++) t++; } assert(t == 3); } // probe
  { int x = 7; while (x != 1) x = (x % 2) ? 3 * x + 1 : x / 2; assert(x == 1); } // probe
  { int n = 0; for (int i = 0; i < 5; i++) for (int j = i; j < 5; j++) n++; assert(n == 15); } // probe
  { int i = 0; switch (3) { case 3: while (i < 4) { i++; case 9: i++; } } assert(i == 4); } // probe
  return 0;
}
