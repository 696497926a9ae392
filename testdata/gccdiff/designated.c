// Designated initialisers (indices, ranges, overrides, positional after a
// designator, nested members), anonymous members, compound literals,
// offsetof by the null-pointer idiom, container_of, typeof, __auto_type,
// __builtin_choose_expr / types_compatible_p, Duff's device.
#include <assert.h>
#include <stddef.h>
struct pt { int x, y; };
struct box { struct pt lo, hi; int tag; };
struct anon { int k; union { int i; float f; }; struct { char a, b; }; };
struct node { int key; struct pt link; int val; };
#define container_of(p, T, m) ((T *)((char *)(p) - offsetof(T, m)))
static int ga[10] = {[2] = 5, [8 ... 9] = 1, [4] = 7, 8};
static struct box gb = {.hi.y = 4, .lo = {1, 2}, .tag = 9};
static struct pt gps[] = {[1].y = 3, [0] = {.x = 6}};
static int over[3] = {[1] = 1, [1] = 2};
static struct anon gan = {.k = 1, .i = 5, .b = 'z'};
static int copy(int *to, const int *from, int n) {
  int k = 0, c = (n + 3) / 4;
  if (n <= 0) return 0;
  switch (n % 4) {
  case 0: do { to[k] = from[k]; k++;
  case 3: to[k] = from[k]; k++;
  case 2: to[k] = from[k]; k++;
  case 1: to[k] = from[k]; k++;
          } while (--c > 0);
  }
  return k;
}
int main(void) {
  { assert(ga[2] == 5 && ga[8] == 1 && ga[9] == 1 && ga[4] == 7 && ga[5] == 8 && ga[3] == 0 && ga[0] == 0); } // probe
  { assert(gb.hi.y == 4 && gb.lo.y == 2 && gb.hi.x == 0 && gb.tag == 9); } // probe
  { assert(gps[1].y == 3 && gps[0].x == 6 && gps[1].x == 0 && sizeof gps == 16); } // probe
  { assert(over[1] == 2 && over[0] == 0 && over[2] == 0); } // probe
  { assert(gan.i == 5 && gan.b == 'z' && gan.a == 0 && gan.k == 1); } // probe
  { int a[6] = {[1 ... 3] = 4, [2] = 9}; assert(a[1] == 4 && a[2] == 9 && a[3] == 4 && a[4] == 0); } // probe
  { struct box b = {.tag = 1, .lo.x = 2, 3}; assert(b.lo.x == 2 && b.lo.y == 3 && b.tag == 1 && b.hi.x == 0); } // probe
  { struct anon a = {.f = 1.0f}; a.k = 2; a.a = 'q'; assert(a.k == 2 && a.a == 'q' && a.b == 0); } // probe
  { int s = (int[]){1, 2, 3}[1]; assert(s == 2); } // probe
  { struct pt *p = &(struct pt){.y = 7}; p->x += 1; assert(p->x == 1 && p->y == 7); } // probe
  { int t = 0; for (int i = 0; i < 3; i++) { int *q = (int[]){i}; t += *q; } assert(t == 3); } // probe
  { assert((size_t)&((struct box *)0)->tag == 16 && offsetof(struct box, hi.y) == 12); } // probe
  { struct node n = {1, {2, 3}, 4}; struct pt *l = &n.link; struct node *back = container_of(l, struct node, link); assert(back == &n && back->val == 4 && back->key == 1); } // probe
  { struct node n = {1, {2, 3}, 4}; int *vp = &n.val; struct node *b = container_of(vp, struct node, val); b->key = 8; assert(n.key == 8); } // probe
  { typeof(ga[0]) v = 3; typeof(over) arr = {1}; assert(sizeof v == 4 && sizeof arr == 12 && arr[2] == 0); } // probe
  { __auto_type z = 5LL; __auto_type c = 'c'; assert(sizeof z == 8 && sizeof c == 4 && z + c == 104); } // probe
  { assert(__builtin_choose_expr(1, 3, 4.0) == 3 && sizeof(__builtin_choose_expr(0, 1, (char)2)) == 1); } // probe
  { assert(__builtin_types_compatible_p(int, signed) && !__builtin_types_compatible_p(int, long)); } // probe
  { int from[7] = {1, 2, 3, 4, 5, 6, 7}, to[7] = {0}; assert(copy(to, from, 7) == 7 && to[6] == 7 && to[0] == 1); } // probe
  { int from[5] = {9, 8, 7, 6, 5}, to[5] = {0}; assert(copy(to, from, 5) == 5 && to[4] == 5 && to[3] == 6); } // probe
  { int from[1] = {4}, to[2] = {0}; assert(copy(to, from, 1) == 1 && to[0] == 4 && to[1] == 0); } // probe
  { struct pt a = {1, 2}, b = a; b.x = 5; assert(a.x == 1 && b.y == 2); } // probe
  { struct { int a[3]; } s = {{1, 2, 3}}, t = s; t.a[0] = 9; assert(s.a[0] == 1 && t.a[2] == 3); } // probe
  return 0;
}
