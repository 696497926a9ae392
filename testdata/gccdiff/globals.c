// Static initializers, string tables, designated and nested initializers.
#include <assert.h>
#include <string.h>
struct cfg { int a, b; char name[4]; };
int gsize = sizeof(int) * 3;
int arr[5] = {1, 2, 3};
int *gp = &arr[2];
struct cfg gc = {.b = 2, .name = "ab"};
const char *names[] = {"a", "bc", "def"};
union un { int i; char c; } gu = {.i = 0x41};
struct { unsigned f : 4; unsigned g : 4; } gbits = {3, 9};
int garr2[2][3] = {{1, 2, 3}, {4, 5, 6}};
static int sflag;
enum color { RED = 1, GREEN = 4, BLUE };
int main(void) {
  { assert(gsize == 12); } // probe
  { assert(arr[3] == 0 && arr[2] == 3); } // probe
  { assert(*gp == 3); } // probe
  { assert(gc.a == 0 && gc.b == 2 && gc.name[1] == 'b' && gc.name[2] == 0); } // probe
  { assert(names[1][1] == 'c' && names[2][3] == 0); } // probe
  { assert(gu.c == 0x41); } // probe
  { assert(gbits.f == 3 && gbits.g == 9); } // probe
  { assert(garr2[1][0] == 4 && garr2[0][2] == 3); } // probe
  { assert(sflag == 0); } // probe
  { enum color c = BLUE; int r = 0; switch (c) { case RED: r = 1; break; case BLUE: r = 5; break; default: r = 9; } assert(r == 5); } // probe
  { assert(sizeof("abc") == 4 && sizeof arr / sizeof arr[0] == 5); } // probe
  { static int k = 7; k++; assert(k == 8); } // probe
  { int n = 3; int v[n]; v[2] = 5; v[0] = 1; assert(v[2] == 5); } // probe
  { int *p = 0; assert(!p); } // probe
  { unsigned char b[4] = {1, 0, 0, 0}; int v; memcpy(&v, b, 4); assert(v == 1); } // probe
  { struct { char c[4]; } s; *(int *)s.c = 0x01000000; assert(s.c[3] == 1); } // probe
  { char buf[8]; strcpy(buf, "hey"); assert(strlen(buf) == 3 && buf[3] == 0); } // probe
  { int a[3] = {1, 2, 3}; int *p = a; p += 2; assert(*p == 3 && p - a == 2); } // probe
  { long v = (long)&arr[1]; int *q = (int *)v; assert(*q == 2); } // probe
  return 0;
}
