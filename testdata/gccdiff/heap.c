// Heap: malloc/calloc/realloc of arrays and structs, memset/memcpy on
// struct arrays, linked lists, reuse after free.
#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
struct node { int v; struct node *next; };
struct rec { int id; char name[6]; double w; };
int main(void) {
  { int *a = malloc(4 * sizeof *a); for (int i = 0; i < 4; i++) a[i] = i + 1; int i = 2; assert(a[i] == 3); free(a); } // probe
  { int *a = calloc(5, sizeof *a); int i = 3; assert(a[i] == 0); free(a); } // probe
  { int *a = calloc(5, sizeof *a); a[1] = 5; int *b = realloc(a, 10 * sizeof *b); assert(b[1] == 5 && b[0] == 0); free(b); } // probe
  { int *a = malloc(2 * sizeof *a); a[0] = 1; a[1] = 2; a = realloc(a, 100 * sizeof *a); a[99] = 9; assert(a[1] == 2 && a[99] == 9); free(a); } // probe
  { struct rec *r = malloc(3 * sizeof *r); memset(r, 0, 3 * sizeof *r); r[1].id = 7; int i = 2; assert(r[i].id == 0 && r[1].id == 7 && r[i].w == 0.0); free(r); } // probe
  { struct rec src[2] = {{1, "ab", 1.5}, {2, "cd", 2.5}}; struct rec dst[2]; memcpy(dst, src, sizeof src); int i = 1; assert(dst[i].id == 2 && dst[i].name[1] == 'd'); } // probe
  { struct rec s[3]; memset(s, 0xff, sizeof s); int i = 1; assert(s[i].id == -1); } // probe
  { struct rec s[3]; memset(s, 1, sizeof s); int i = 2; assert(s[i].id == 0x01010101); } // probe
  { struct node *h = 0; for (int i = 0; i < 5; i++) { struct node *n = malloc(sizeof *n); n->v = i; n->next = h; h = n; } int s = 0, c = 0; for (struct node *p = h; p; p = p->next) { s += p->v; c++; } assert(s == 10 && c == 5 && h->v == 4); } // probe
  { struct node *n = malloc(sizeof *n); n->v = 1; n->next = 0; free(n); n = malloc(sizeof *n); n->v = 2; n->next = 0; assert(n->v == 2); free(n); } // probe
  { int *p = malloc(sizeof *p); *p = 5; free(p); int *q = malloc(sizeof *q); *q = 6; assert(*q == 6); free(q); } // probe
  { int *p = malloc(sizeof *p); *p = 5; int *q = malloc(sizeof *q); *q = 6; assert(*p == 5 && *q == 6 && p != q); free(p); free(q); } // probe
  { int **pp = malloc(2 * sizeof *pp); pp[0] = malloc(sizeof **pp); pp[1] = malloc(sizeof **pp); *pp[0] = 1; *pp[1] = 2; assert(*pp[0] + *pp[1] == 3); } // probe
  { int *ps[3]; for (int i = 0; i < 3; i++) { ps[i] = malloc(sizeof(int)); *ps[i] = i * 10; } int k = 2; assert(*ps[k] == 20 && *ps[0] == 0); } // probe
  { char *s = malloc(8); strcpy(s, "hello"); assert(strlen(s) == 5 && s[4] == 'o'); free(s); } // probe
  { char *s = calloc(1, 8); memcpy(s, "ab", 2); assert(s[2] == 0 && s[1] == 'b'); free(s); } // probe
  { struct rec *r = calloc(2, sizeof *r); r[0] = (struct rec){3, "x", 0.25}; r[1] = r[0]; r[1].id++; assert(r[1].id == 4 && r[1].w == 0.25); free(r); } // probe
  { uint8_t *b = malloc(8); memset(b, 0, 8); *(uint32_t *)(b + 4) = 0x11223344u; assert(b[4] == 0x44 && b[7] == 0x11 && b[3] == 0); free(b); } // probe
  { int *a = malloc(3 * sizeof *a); memset(a, 0, 3 * sizeof *a); int *b = malloc(3 * sizeof *b); memcpy(b, a, 3 * sizeof *a); a[0] = 1; assert(b[0] == 0); } // probe
  { int *a = malloc(4 * sizeof *a); for (int i = 0; i < 4; i++) a[i] = i; memmove(a + 1, a, 3 * sizeof *a); assert(a[1] == 0 && a[3] == 2); } // probe
  { void *p = malloc(0); free(p); int *q = realloc(NULL, sizeof *q); *q = 3; assert(*q == 3); } // probe
  { struct node a = {1, 0}, b = {2, &a}, c = {3, &b}; assert(c.next->next->v == 1); } // probe
  return 0;
}
