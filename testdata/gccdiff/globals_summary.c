// Global objects with summary cells: arrays inside structs, 2D arrays,
// static locals, unions of arrays.
#include <assert.h>
struct sa { int a[3]; int b; char c; };
struct sa g1 = {{1, 2, 3}, 4, 5};
struct sb { int n; short s[4]; long l; } g2 = {1, {[2] = 7}, 9};
int g3[3][2] = {{1, 2}, {3}};
union ua { int w[2]; long long q; } g4 = {{1, 2}};
char g5[2][4] = {"ab", "cde"};
long long g6[4] = {1, 1LL << 40};
unsigned char g7[5] = {255, 1};
int main(void) {
  { int i = 2; assert(g1.a[i] == 3 && g1.b == 4 && g1.c == 5); } // probe
  { int i = 1; assert(g1.a[i] == 2); } // probe
  { int i = 3; assert(g2.s[i] == 0); } // probe
  { int i = 2; assert(g2.s[i] == 7 && g2.l == 9); } // probe
  { int i = 1, j = 1; assert(g3[i][j] == 0); } // probe
  { int i = 1, j = 0; assert(g3[i][j] == 3); } // probe
  { int i = 0, j = 1; assert(g3[i][j] == 2); } // probe
  { assert(g4.q == 0x200000001LL); } // probe
  { int i = 1; assert(g4.w[i] == 2); } // probe
  { int i = 1, j = 2; assert(g5[i][j] == 'e' && g5[0][2] == 0); } // probe
  { int i = 1, j = 3; assert(g5[i][j] == 0); } // probe
  { int i = 1; assert(g6[i] == 1LL << 40); } // probe
  { int i = 3; assert(g6[i] == 0); } // probe
  { int i = 0; assert(g7[i] == 255); } // probe
  { int i = 4; assert(g7[i] == 0); } // probe
  { static struct sa s = {{7}}; int i = 1; assert(s.a[i] == 0 && s.a[0] == 7); } // probe
  { static int t[4] = {1, 2}; int i = 3; t[0]++; assert(t[i] == 0 && t[0] == 2); } // probe
  return 0;
}
