// Large aggregates: copies by loop (past the unrolling limit), summary
// cells of long arrays, partial initializers, bit-fields inside copies.
#include <assert.h>
#include <string.h>
struct big { int a[20]; char s[24]; };
struct flags { unsigned x : 3; int y : 5; unsigned z : 1; };
union ub { struct flags f; unsigned raw; };
struct big gb = {{[19] = 7}, "abcdefghijklmnopqrstuvw"};
int table[100] = {[50] = 3, [99] = 4};
int grid[10][10];
int main(void) {
  { struct big x, y; memset(&x, 0, sizeof x); x.a[19] = 5; y = x; x.a[19] = 6; assert(y.a[19] == 5); } // probe
  { struct big y = gb; assert(y.a[19] == 7 && y.a[18] == 0 && y.s[22] == 'w' && y.s[23] == 0); } // probe
  { assert(table[50] == 3 && table[51] == 0 && table[99] == 4); } // probe
  { int t[100]; for (int i = 0; i < 100; i++) t[i] = i; assert(t[73] == 73 && table[73] == 0); } // probe
  { int s = 0; for (int i = 0; i < 100; i++) s += table[i] > 0; assert(s == 2); } // probe
  { for (int i = 0; i < 10; i++) for (int j = 0; j < 10; j++) grid[i][j] = i * 10 + j; assert(grid[7][3] == 73); } // probe
  { struct flags f = {5, -3, 1}, g; g = f; assert(g.x == 5 && g.y == -3 && g.z == 1); } // probe
  { union ub u; u.raw = 0; u.f.z = 1; assert(u.raw == 256); } // probe
  { union ub u; u.raw = 0xff; assert(u.f.x == 7 && u.f.y == -1); } // probe
  { char buf[40]; memset(buf, 'q', sizeof buf); buf[39] = 0; assert(strlen(buf) == 39); } // probe
  { int a[30]; for (int i = 0; i < 30; i++) a[i] = 30 - i; int m = a[0]; for (int i = 1; i < 30; i++) if (a[i] < m) m = a[i]; assert(m == 1); } // probe
  return 0;
}
