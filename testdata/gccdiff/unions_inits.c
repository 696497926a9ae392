// Unions, struct copies, arrays of structs, nested aggregates, compound
// literals, designated initialisers, zero-initialised statics. The global
// arrays of structs with initializers (gpts, gt, gz, gnest, sget) caught a
// wrong proof: a summary cell's initial value came from the bytes up to the
// next cell, i.e. t[*].x saw t[0].x only (fixed by cfg/initcells.go).
#include <assert.h>
#include <string.h>
#include <stdint.h>
struct pt { int x, y; };
struct rect { struct pt a, b; char tag[3]; };
struct arr { int n; int v[4]; };
union fi { float f; uint32_t u; };
union di { double d; uint64_t u; int32_t h[2]; };
union sc { short s; signed char c[2]; };
union wide { uint64_t q; uint16_t w[4]; uint8_t b[8]; };
struct nest { struct { int a; union { int i; char c; } u; } in[2]; int z; };
static struct rect zr;
static int zarr[7];
static char zs[5];
static struct nest zn;
struct rect gr = {.b.y = 4, .a = {1, 2}, .tag = {'x'}};
int gv[6] = {[4] = 1, 2, [1] = 3};
struct pt gpts[3] = {[2].y = 9, [0] = {7}};
struct pt gt[3] = {{1, 2}, {3, 4}, {5, 6}};
struct pt gz[3] = {{7}};
struct { struct pt p[2]; int z; } gnest = {{{1, 2}, {3, 4}}, 5};
union wide gw[2] = {{.q = 0x0102030405060708ULL}, {.q = 0}};
int sget(int i) { static struct pt s[2] = {{1, 2}, {3, 4}}; return s[i].x; }
struct pt mk(int x, int y) { struct pt p = {x, y}; return p; }
struct arr bump(struct arr a) { a.v[3]++; return a; }
int main(void) {
  { assert(gpts[2].y == 9 && gpts[2].x == 0 && gpts[0].x == 7 && gpts[0].y == 0 && gpts[1].x == 0); } // probe
  { assert(gt[1].x == 3 && gt[2].y == 6); } // probe
  { int i = 1; assert(gt[i].x == 3 && gt[i].y == 4); } // probe
  { assert(gz[1].x == 0 && gz[0].x == 7 && gz[2].y == 0); } // probe
  { int i = 1; assert(gnest.p[i].x == 3 && gnest.z == 5); } // probe
  { assert(gw[0].w[1] == 0x0506 && gw[1].b[3] == 0 && gw[0].b[0] == 8); } // probe
  { assert(sget(1) == 3 && sget(0) == 1); } // probe
  { union fi u; u.f = 1.0f; assert(u.u == 0x3f800000u); } // probe
  { union fi u; u.u = 0x40000000u; assert(u.f == 2.0f); } // probe
  { union di u; u.d = -2.0; assert(u.u == 0xc000000000000000ULL && u.h[1] < 0); } // probe
  { union sc u; u.s = -2; assert(u.c[0] == -2 && u.c[1] == -1); } // probe
  { union sc u; u.s = 0x1280; assert(u.c[0] == -128 && u.c[1] == 0x12); } // probe
  { union wide u; u.q = 0x0102030405060708ULL; assert(u.w[0] == 0x0708 && u.b[7] == 1 && u.w[3] == 0x0102); } // probe
  { union wide u; u.q = 0; u.b[1] = 0xff; assert(u.w[0] == 0xff00 && u.q == 0xff00); } // probe
  { union wide u; u.w[2] = 1; u.w[0] = u.w[1] = u.w[3] = 0; assert(u.q == 0x100000000ULL); } // probe
  { assert(zr.a.x == 0 && zr.b.y == 0 && zr.tag[2] == 0); } // probe
  { assert(zarr[6] == 0 && zs[4] == 0 && zn.in[1].u.i == 0 && zn.z == 0); } // probe
  { assert(gr.a.x == 1 && gr.a.y == 2 && gr.b.x == 0 && gr.b.y == 4 && gr.tag[0] == 'x' && gr.tag[1] == 0); } // probe
  { assert(gv[4] == 1 && gv[5] == 2 && gv[1] == 3 && gv[0] == 0 && gv[2] == 0); } // probe
  { struct rect r = gr; r.b.y = 8; assert(gr.b.y == 4 && r.b.y == 8 && r.a.y == 2); } // probe
  { struct rect r1 = {{1, 2}, {3, 4}, "ab"}, r2; r2 = r1; r1.tag[0] = 'z'; assert(r2.tag[0] == 'a' && r2.b.x == 3); } // probe
  { struct pt p = mk(3, 4); assert(p.x == 3 && p.y == 4); } // probe
  { struct arr a = {2, {1, 2, 3, 4}}; struct arr b = bump(a); assert(a.v[3] == 4 && b.v[3] == 5); } // probe
  { struct pt ps[3]; for (int i = 0; i < 3; i++) ps[i] = mk(i, -i); assert(ps[2].x == 2 && ps[2].y == -2 && ps[0].y == 0); } // probe
  { struct pt ps[3] = {{1, 1}, {2, 2}, {3, 3}}; ps[0] = ps[2]; ps[2].x = 0; assert(ps[0].x == 3 && ps[2].x == 0); } // probe
  { int *p = (int[]){1, 2, 3}; p[1] += 5; assert(p[1] == 7 && p[2] == 3); } // probe
  { struct pt p = (struct pt){.y = 5}; assert(p.x == 0 && p.y == 5); } // probe
  { struct pt *q = &(struct pt){8, 9}; q->x++; assert(q->x == 9); } // probe
  { int n = ((int[5]){[3] = 4})[3] + ((int[5]){[3] = 4})[4]; assert(n == 4); } // probe
  { struct nest n = {.in[1].u.c = 'q', .z = 3}; assert(n.in[1].u.c == 'q' && n.in[0].a == 0 && n.z == 3); } // probe
  { struct nest n = {{{1, {2}}, {3, {4}}}, 5}; assert(n.in[1].u.i == 4 && n.in[0].u.i == 2 && n.z == 5); } // probe
  { int a[2][3] = {1, 2, 3, 4}; assert(a[1][0] == 4 && a[1][1] == 0 && a[0][2] == 3); } // probe
  { char s[] = "hi"; assert(sizeof s == 3 && s[2] == 0); } // probe
  { char s[2] = "hi"; assert(s[1] == 'i'); } // probe
  { char s[6] = {'a'}; assert(s[0] == 'a' && s[5] == 0); } // probe
  { int a[5] = {1}; assert(a[0] == 1 && a[4] == 0); } // probe
  { struct pt z = {0}; struct pt w; memcpy(&w, &z, sizeof w); assert(w.y == 0); } // probe
  { struct arr a = {1, {9, 8, 7, 6}}; struct arr b; b = a; b.v[0] = 0; assert(a.v[0] == 9 && b.v[1] == 8); } // probe
  { struct { int a; char b; } s = {1, 2}, t = s; t.a = 4; assert(s.a == 1 && t.b == 2); } // probe
  { struct pt p = {1, 2}; struct pt *pp = &p; struct pt c = *pp; pp->x = 5; assert(c.x == 1 && p.x == 5); } // probe
  { struct rect r = {0}; struct pt *a = &r.a; a[1].y = 7; assert(r.b.y == 7); } // probe
  { union { struct pt p; long long l; } u = {{1, 2}}; assert(u.l == 0x200000001LL); } // probe
  { union { int i; char c[4]; } u = {.c = {1, 1}}; assert(u.i == 257); } // probe
  return 0;
}
