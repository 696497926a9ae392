// Initialisers and layouts: strings in char arrays (exact length, no NUL),
// pointers into arrays, self-reference, alignment attributes, flexible
// arrays, bit-fields/unions/enums/_Bool in arrays, struct returns.
#include <assert.h>
#include <stddef.h>
#include <string.h>
#include <stdint.h>
#include <stdbool.h>
struct fx { int n; int d[]; };
struct ex { char s[3]; int k; };
struct ex gex[2] = {{"abc", 1}, {"de", 2}};
int garr[5] = {10, 20, 30, 40, 50};
int *gpa = &garr[2];
int *gpb = garr + 3;
const char *gps = "hello" + 1;
char gcat[] = "ab" "cd";
struct fx2 { int n; int d[3]; };
struct fx2 gfx = {3, {7, 8, 9}};
_Alignas(16) char galn[3];
char gattr[3] __attribute__((aligned(64)));
struct self { int v; struct self *me; } gself = {5, &gself};
int *gtab[2][2] = {{&garr[0], &garr[1]}, {&garr[4]}};
struct { int a; int *p; } gsp[2] = {{1, &garr[1]}, {2, garr + 4}};
char gmat[2][4] = {"abc", "xy"};
static int sint = 3;
static int *spint = &sint;
struct bf { unsigned a : 3; signed b : 5; unsigned c : 1; };
union ub { struct { unsigned lo : 4, hi : 4; } n; uint8_t byte; };
struct bf gbf[3];
bool gb[4];
union ub gub[2] = {{.byte = 0xa5}, {.n = {3, 12}}};
enum small { S0, S1, S2 } gen[3] = {S2, S1};
int depth;
int rec(int n) { depth++; if (n == 0) return 0; return 1 + rec(n - 1); }
int g;
void bump(void) { g += 3; }
void (*const acts[2])(void) = {bump, bump};
struct st { int v; } gst[2];
struct st getst(int i) { return gst[i]; }
int main(void) {
  { int i = 0; assert(gex[i].s[2] == 'c' && gex[i].k == 1); } // probe
  { int i = 1; assert(gex[i].s[2] == 0 && gex[i].s[1] == 'e'); } // probe
  { assert(*gpa == 30 && gpb[1] == 50 && gpb - gpa == 1); } // probe
  { assert(gps[0] == 'e' && strlen(gps) == 4); } // probe
  { assert(sizeof gcat == 5 && gcat[2] == 'c'); } // probe
  { int i = 2; assert(gfx.d[i] == 9); } // probe
  { assert(((uintptr_t)galn & 15) == 0 && ((uintptr_t)gattr & 63) == 0); } // probe
  { assert(gself.me->me->v == 5); } // probe
  { int i = 1, j = 0; assert(*gtab[i][j] == 50 && gtab[1][1] == 0); } // probe
  { int i = 1; assert(*gsp[i].p == 50 && gsp[i].a == 2); } // probe
  { int i = 0; assert(*gsp[i].p == 20); } // probe
  { int i = 1, j = 1; assert(gmat[i][j] == 'y' && gmat[i][2] == 0); } // probe
  { int i = 0, j = 3; assert(gmat[i][j] == 0); } // probe
  { assert(*spint == 3); } // probe
  { assert(sizeof("abc") == 4 && sizeof(gex[0].s) == 3); } // probe
  { assert(offsetof(struct fx, d) == 4 && sizeof(struct fx) == 4); } // probe
  { assert(offsetof(struct fx2, d[2]) == 12); } // probe
  { struct ex e = {"xyz", 3}; int i = 2; assert(e.s[i] == 'z'); } // probe
  { char s[3] = "abc"; int i = 2; assert(s[i] == 'c'); } // probe
  { char s[8] = "ab"; int i = 5; assert(s[i] == 0); } // probe
  { const char *t[] = {"one", "two", "three"}; int i = 2; assert(t[i][4] == 'e' && sizeof t / sizeof t[0] == 3); } // probe
  { static const char *const names[] = {"a", "bb", "ccc"}; int i = 2; assert(strlen(names[i]) == 3); } // probe
  { int a[] = {1, 2, 3, [7] = 8}; assert(sizeof a == 8 * sizeof(int) && a[7] == 8 && a[5] == 0); } // probe
  { struct ex e[] = {[1].k = 5}; assert(sizeof e == 2 * sizeof(struct ex) && e[1].k == 5 && e[0].k == 0); } // probe
  { int i = 1; gbf[i].a = 9; assert(gbf[i].a == 1); } // probe
  { int i = 2; gbf[i].b = 15; gbf[i].b += 1; assert(gbf[i].b == -16); } // probe
  { int i = 0; gbf[i].c = 1; gbf[i].c++; assert(gbf[i].c == 0); } // probe
  { int i = 1; gb[i] = 5; assert(gb[i] == 1); } // probe
  { int i = 2; gb[i] = 0.5; assert(gb[i] == 1); } // probe
  { int i = 3; gb[i] = 256; assert(gb[i] == 1); } // probe
  { int i = 0; assert(gub[i].n.lo == 5 && gub[i].n.hi == 10); } // probe
  { int i = 1; assert(gub[i].byte == 0xc3); } // probe
  { int i = 0; gub[i].n.hi = 1; assert(gub[i].byte == 0x15); } // probe
  { int i = 2; assert(gen[i] == S0 && gen[0] == S2); } // probe
  { depth = 0; int r = rec(5); assert(r == 5 && depth == 6); } // probe
  { g = 0; for (int i = 0; i < 2; i++) acts[i](); assert(g == 6); } // probe
  { gst[1].v = 4; struct st (*f)(int) = getst; assert(f(1).v == 4 && f(0).v == 0); } // probe
  { uint8_t b[4] = {1, 2, 3, 4}; uint32_t w; memcpy(&w, b, 4); assert(w == 0x04030201u); } // probe
  { struct bf x[2]; memset(x, 0xff, sizeof x); int i = 1; assert(x[i].b == -1 && x[i].a == 7); } // probe
  { struct bf x[2] = {[1] = {.b = -1}}; int i = 1; assert(x[i].b == -1 && x[i].a == 0 && x[0].c == 0); } // probe
  return 0;
}
