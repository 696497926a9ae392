// Sizes, offsets and alignments cc folds into constants: empty structs,
// zero-length and flexible arrays, bit-field layouts cc shares with gcc,
// aligned members, enums, case ranges, _Generic, VLA sizeof. Found here:
// bit-field layouts (struct { char c; unsigned a : 4; }), arithmetic on
// wide bit-fields: now unsupported (cfg); __int128: int128.c.
#include <assert.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
struct empty {};
struct zl { int n; int d[0]; };
struct bfs { unsigned a : 3; unsigned b : 30; };
union ubf { unsigned a : 20; char c; };
enum big { BA = 1, BB = 0x100000000LL };
enum neg { NA = -1, NB = 1 };
struct al { char c; int i __attribute__((aligned(16))); };
struct vlaish { char c; double d[]; };
struct nested { struct { char a; short b; } in[2]; char z; };
int main(void) {
  { assert(sizeof(struct empty) == 0); } // probe
  { assert(sizeof(struct zl) == 4 && offsetof(struct zl, d) == 4); } // probe
  { assert(sizeof(struct bfs) == 8); } // probe
  { assert(sizeof(union ubf) == 4); } // probe
  { assert(sizeof(enum big) == 8 && BB == 0x100000000LL); } // probe
  { enum neg n = NA; assert(n < 0 && sizeof n == 4); } // probe
  { assert(sizeof(struct al) == 32 && offsetof(struct al, i) == 16); } // probe
  { assert(sizeof(struct vlaish) == 8 && offsetof(struct vlaish, d) == 8); } // probe
  { assert(sizeof(struct nested) == 10 && offsetof(struct nested, z) == 8); } // probe
  { char b[4]; void *p = b; p += 3; assert(p == b + 3); } // probe
  { assert(sizeof('a') == 4 && sizeof(1 ? (char)1 : (short)1) == 4); } // probe
  { int n = 5; char v[n]; assert(sizeof v == 5); } // probe
  { int k = 3, r = 0; switch (k) { case 1 ... 4: r = 1; break; default: r = 2; } assert(r == 1); } // probe
  { assert(__builtin_constant_p(3) == 1); } // probe
  { char b[10]; assert(__builtin_object_size(b, 0) == 10); } // probe
  { assert(sizeof(bool) == 1 && sizeof(wchar_t) == 4); } // probe
  { assert(__builtin_offsetof(struct nested, in[1].b) == 6); } // probe
  { assert(_Generic(1ul, unsigned long: 1, default: 0) == 1 && _Generic('a', char: 1, int: 2) == 2); } // probe
  { struct bfs s = {0}; assert(sizeof(s.a + 0) == 4); } // probe
  return 0;
}
