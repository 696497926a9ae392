// Multi-dimensional arrays and the summary cells' initial values
// (cfg/initcells.go): partial and designated initialisers, arrays of
// arrays in structs, char arrays from strings, unions, enums, _Bool,
// bit-fields and padding in arrays of structs, static locals.
#include <assert.h>
#include <stdbool.h>
#include <string.h>
#include <stdint.h>
int g2[3][4] = {{1, 2, 3, 4}, {5, 6}, {9}};
int g2f[2][3] = {1, 2, 3, 4, 5};
int g2d[3][4] = {[1][2] = 5, [2] = {7, [3] = 8}};
struct mat { int n; int m[2][3]; };
struct mat gm = {2, {{1, 2, 3}, {4, 5, 6}}};
struct mat gms[2] = {{1, {{1}}}, {2, {{0, 0, 0}, {0, 0, 42}}}};
struct nm { char name[8]; int v; };
struct nm gnm[3] = {{"ab", 1}, {"xyz", 2}, {"", 3}};
int va = 11, vb = 22, vc = 33;
int *gp[3] = {&va, &vb, &vc};
int *gp2[2][2] = {{&va, 0}, {&vc, &vb}};
union uk { int i; char c[4]; };
struct wu { int tag; union uk u; };
struct wu gwu[3] = {{1, {.i = 0x01020304}}, {2, {.c = {9, 8}}}, {3}};
union uk gua[3] = {{5}, {.c = {1, 1, 1, 1}}};
enum col { R, G = 5, B };
enum col gcol[4] = {B, G, R};
bool gb[5] = {1, 0, 1};
struct bf { unsigned a : 3; signed b : 5; unsigned c : 1; };
struct bf gbf[3] = {{7, -3, 1}, {2, 15, 0}, {0, -16, 1}};
struct pad { char c; int i; short s; long long l; };
struct pad gpad[2] = {{'a', 100, -2, 1LL << 40}, {'b', -7, 3, -1}};
double gd[2][2] = {{1.5, 2.5}, {-3.0}};
const char *gstr[2][2] = {{"ab", "cd"}, {"ef"}};
unsigned char gu8[2][3] = {{255, 128}, {1, 2, 3}};
int sget(int i, int j) { static int s[2][2] = {{1, 2}, {3, 4}}; s[i][j]++; return s[i][j]; }
int main(void) {
  { assert(g2[1][1] == 6 && g2[1][2] == 0 && g2[2][0] == 9 && g2[2][3] == 0 && g2[0][3] == 4); } // probe
  { int i = 1, j = 2; assert(g2[i][j] == 0); } // probe
  { int i = 2, j = 0; assert(g2[i][j] == 9); } // probe
  { int i = 1, j = 1; assert(g2[i][j] == 6); } // probe
  { int i = 0, j = 3; assert(g2[i][j] == 4); } // probe
  { int i = 1, j = 1; assert(g2f[i][j] == 5 && g2f[i][j+1] == 0); } // probe
  { int i = 1; assert(g2f[i][0] == 4); } // probe
  { int i = 1, j = 2; assert(g2d[i][j] == 5); } // probe
  { int i = 2, j = 3; assert(g2d[i][j] == 8 && g2d[i][0] == 7); } // probe
  { int i = 2, j = 1; assert(g2d[i][j] == 0); } // probe
  { int i = 1, j = 2; assert(gm.m[i][j] == 6); } // probe
  { int i = 1; assert(gm.m[i][0] == 4); } // probe
  { int i = 1, j = 1, k = 2; assert(gms[i].m[j][k] == 42); } // probe
  { int i = 0, j = 0, k = 0; assert(gms[i].m[j][k] == 1); } // probe
  { int i = 1; assert(gms[i].n == 2); } // probe
  { int i = 1; assert(gnm[i].name[2] == 'z' && gnm[i].v == 2); } // probe
  { int i = 1, j = 1; assert(gnm[i].name[j] == 'y'); } // probe
  { int i = 2; assert(gnm[i].v == 3 && gnm[i].name[0] == 0); } // probe
  { int i = 0; assert(strlen(gnm[i].name) == 2); } // probe
  { int i = 2; assert(*gp[i] == 33); } // probe
  { int i = 1; assert(*gp[i] == 22); } // probe
  { int i = 1, j = 1; assert(*gp2[i][j] == 22); } // probe
  { int i = 0, j = 1; assert(gp2[i][j] == 0); } // probe
  { int i = 1; assert(gwu[i].u.c[0] == 9 && gwu[i].u.c[2] == 0); } // probe
  { int i = 0; assert(gwu[i].u.c[0] == 4 && gwu[i].tag == 1); } // probe
  { int i = 2; assert(gwu[i].u.i == 0 && gwu[i].tag == 3); } // probe
  { int i = 1; assert(gua[i].i == 0x01010101); } // probe
  { int i = 0; assert(gua[i].i == 5); } // probe
  { int i = 2; assert(gua[i].c[3] == 0); } // probe
  { int i = 0; assert(gcol[i] == 6); } // probe
  { int i = 1; assert(gcol[i] == G); } // probe
  { int i = 3; assert(gcol[i] == R); } // probe
  { int i = 2; assert(gb[i] == 1); } // probe
  { int i = 1; assert(!gb[i]); } // probe
  { int i = 0; assert(gbf[i].a == 7 && gbf[i].b == -3); } // probe
  { int i = 1; assert(gbf[i].b == 15 && gbf[i].c == 0); } // probe
  { int i = 2; assert(gbf[i].b == -16 && gbf[i].c == 1 && gbf[i].a == 0); } // probe
  { int i = 1; assert(gpad[i].i == -7 && gpad[i].l == -1 && gpad[i].s == 3); } // probe
  { int i = 0; assert(gpad[i].l == 1LL << 40 && gpad[i].c == 'a'); } // probe
  { int i = 1; assert(gd[i][0] == -3.0 && gd[i][1] == 0.0); } // probe
  { int i = 0, j = 1; assert(gstr[i][j][1] == 'd'); } // probe
  { int i = 1, j = 1; assert(gstr[i][j] == 0); } // probe
  { int i = 0, j = 0; assert(gu8[i][j] == 255 && gu8[i][2] == 0); } // probe
  { int i = 1, j = 2; assert(gu8[i][j] == 3); } // probe
  { assert(sget(1, 0) == 4); } // probe
  { int (*p)[4] = g2; p++; assert((*p)[1] == 6); } // probe
  { int *q = &g2[0][0]; assert(q[5] == 6 && q[8] == 9); } // probe
  { int i = 5; int *q = &g2[0][0]; assert(q[i] == 6); } // probe
  { int a[2][3] = {{1, 2, 3}, {4}}; int i = 1, j = 1; assert(a[i][j] == 0 && a[i][0] == 4); } // probe
  { int a[2][3] = {[1][2] = 7}; int i = 1, j = 2; assert(a[i][j] == 7); } // probe
  { static int s2[2][2] = {{1, 2}, {3}}; int i = 1, j = 1; assert(s2[i][j] == 0); } // probe
  { static int s2[2][2] = {{1, 2}, {3}}; int i = 1, j = 0; assert(s2[i][j] == 3); } // probe
  { struct mat m = {1, {{0}, {0, 9}}}; int i = 1, j = 1; assert(m.m[i][j] == 9); } // probe
  return 0;
}
