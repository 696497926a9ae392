// Heap objects from one allocation site, linked structures, function
// pointers in structs, pointers to pointers, callbacks through the C
// library.
#include <assert.h>
#include <stdlib.h>
struct node { int v; struct node *next; };
struct ops { int (*get)(int); int base; };
int plus1(int x) { return x + 1; }
int times3(int x) { return 3 * x; }
int cmp_int(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }
struct node *push(struct node *h, int v) { struct node *n = malloc(sizeof *n); n->v = v; n->next = h; return n; }
int main(void) {
  { int *p[3]; for (int i = 0; i < 3; i++) { p[i] = malloc(sizeof(int)); *p[i] = i + 1; } assert(*p[0] == 1 && *p[2] == 3); } // probe
  { struct node *h = 0; for (int i = 0; i < 4; i++) h = push(h, i); assert(h->v == 3 && h->next->next->next->v == 0 && !h->next->next->next->next); } // probe
  { struct node *h = push(push(0, 1), 2); int s = 0; for (struct node *n = h; n; n = n->next) s += n->v; assert(s == 3); } // probe
  { struct ops o = {times3, 2}; assert(o.get(o.base) == 6); } // probe
  { struct ops os[2] = {{plus1, 1}, {times3, 4}}; int k = 1; assert(os[k].get(os[k].base) == 12); } // probe
  { int v = 1; int *p = &v; int **pp = &p; int w = 5; *pp = &w; *p = 9; assert(v == 1 && w == 9); } // probe
  { int a[4] = {4, 2, 3, 1}; qsort(a, 4, sizeof a[0], cmp_int); assert(a[0] == 1 && a[3] == 4); } // probe
  { int *q = malloc(2 * sizeof(int)); q[0] = 3; q[1] = 4; int *r = q; r++; *r += *q; assert(q[1] == 7); } // probe
  { int x = 1, y = 2; int *sel = x < y ? &x : &y; *sel = 10; assert(x == 10 && y == 2); } // probe
  return 0;
}
