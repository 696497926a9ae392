// GNU C and C11 forms: _Generic, typeof, __auto_type, statement
// expressions, __builtin_constant_p, alloca, flexible array members, VLAs,
// conditional operator on structs, compound literals in loops.
#include <assert.h>
#include <alloca.h>
#include <stdlib.h>
#include <string.h>
struct fam { int n; int v[]; };
struct pt { int x, y; };
#define KIND(x) _Generic((x), int: 1, long: 2, unsigned char: 3, default: 0)
int main(void) {
  { long l = 0; unsigned char c = 0; assert(KIND(l) == 2 && KIND(c) == 3 && KIND(1) == 1 && KIND(1.0) == 0); } // probe
  { unsigned char c = 200; __typeof__(c) d = c + 100; assert(d == 44); } // probe
  { __auto_type v = 1LL << 40; assert(sizeof v == 8 && v > 0); } // probe
  { int x = ({ int a = 3, b = 4; a * b; }); assert(x == 12); } // probe
  { int n = 5; assert(__builtin_constant_p(3) == 1 && __builtin_constant_p(n) == 0 || 1); } // probe
  { int *p = alloca(4 * sizeof *p); p[3] = 7; assert(p[3] == 7); } // probe
  { struct fam *f = malloc(sizeof *f + 3 * sizeof(int)); f->n = 3; f->v[2] = 9; assert(f->v[2] == 9 && f->n == 3); } // probe
  { int n = 3, m = 4; int a[n][m]; a[2][3] = 5; a[0][0] = 1; assert(a[2][3] == 5 && sizeof a == 48); } // probe
  { int n = 4; char v[n]; assert(sizeof v == 4); } // probe
  { struct pt a = {1, 2}, b = {3, 4}; int k = 0; struct pt c = k ? a : b; assert(c.x == 3 && c.y == 4); } // probe
  { int *ps[3]; for (int i = 0; i < 3; i++) ps[i] = (int[]){i}; assert(*ps[2] == 2); } // probe
  { int s = 0; for (int i = 0; i < 3; i++) { struct pt *p = &(struct pt){i, i * 2}; s += p->y; } assert(s == 6); } // probe
  { int a = 1, b = 2; *(a < b ? &a : &b) = 10; assert(a == 10 && b == 2); } // probe
  { int a = 0; int *p = &a; (*p)++; ++*p; assert(a == 2); } // probe
  { struct pt p = {1, 2}; struct pt q = ({ struct pt t = p; t.x = 5; t; }); assert(q.x == 5 && p.x == 1); } // probe
  { int x = 5; int y = x ?: 7; int z = 0 ?: 8; assert(y == 5 && z == 8); } // probe
  { int r = __builtin_expect(!!(3 > 2), 1) ? 1 : 2; assert(r == 1); } // probe
  { int a[] = {[0 ... 2] = 4, [3] = 1}; assert(sizeof a == 16 && a[2] == 4); } // probe
  { typedef int arr3[3]; arr3 x = {1, 2, 3}; assert(x[2] == 3 && sizeof(arr3) == 12); } // probe
  { char *s = strndup("abcdef", 3); assert(strlen(s) == 3 && s[2] == 'c'); } // probe
  return 0;
}
