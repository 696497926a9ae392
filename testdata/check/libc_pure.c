// chorus: --checks bounds
// Bit counts, math and zlib's checksums are pure (cfg/libc.go): unlike an
// unknown external (ext, as in havoc_unknown.c) they write none of the
// address-taken globals nor the buffer they read, so g and buf keep their
// values across the calls.
extern void ext(void);
extern double log(double);
extern unsigned long crc32(unsigned long, const unsigned char *, unsigned);
extern unsigned long adler32(unsigned long, const unsigned char *, unsigned);
int g;
int *pg = &g;
unsigned char buf[4];
int a[4];
int main(void) {
  g = 1;
  buf[0] = 2;
  int l = __builtin_clz(7u) + __builtin_popcount(5u);
  double d = log(2.0);
  unsigned long c = crc32(0, buf, 4) + adler32(1, buf, 4);
  a[g] = 0; // want bounds:proven
  a[buf[0]] = 0; // want bounds:proven
  ext();
  a[g] = 0; // want bounds:unproven
  return l + (int)d + (int)c;
}
