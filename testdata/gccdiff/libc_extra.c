// C library functions the other probe files do not call: qsort/bsearch
// with callbacks, div/ldiv, strtok, strtoll/strtoull with bases and end
// pointers, atol, memrchr-free byte searches, getenv of an unset name,
// sscanf, fabs/floor on integers, INT_MIN corner cases of the libc models,
// and pointer-integer round trips.
#include <assert.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static int cmp_int(const void *a, const void *b) { int x = *(const int *)a, y = *(const int *)b; return (x > y) - (x < y); }
int main(void) {
  { int a[5] = {4, 1, 3, 5, 2}; qsort(a, 5, sizeof a[0], cmp_int); assert(a[0] == 1 && a[4] == 5 && a[2] == 3); } // probe
  { int a[4] = {1, 3, 5, 7}, k = 5; int *p = bsearch(&k, a, 4, sizeof a[0], cmp_int); assert(p == &a[2]); } // probe
  { int a[4] = {1, 3, 5, 7}, k = 4; assert(bsearch(&k, a, 4, sizeof a[0], cmp_int) == NULL); } // probe
  { div_t d = div(-7, 2); assert(d.quot == -3 && d.rem == -1); } // probe
  { ldiv_t d = ldiv(7L, -2L); assert(d.quot == -3 && d.rem == 1); } // probe
  { char s[] = "a,bb,,c"; char *t = strtok(s, ","); assert(t == s && strcmp(t, "a") == 0); t = strtok(NULL, ","); assert(t && t[1] == 'b'); } // probe
  { char *end; long long v = strtoll("-0x1fz", &end, 16); assert(v == -31 && *end == 'z'); } // probe
  { char *end; unsigned long long v = strtoull("777", &end, 8); assert(v == 511 && *end == 0); } // probe
  { char *end; long v = strtol("  12abc", &end, 10); assert(v == 12 && end[0] == 'a'); } // probe
  { char *end; long v = strtol("xyz", &end, 10); assert(v == 0 && end[0] == 'x'); } // probe
  { assert(atol("-42") == -42 && atoll("9000000000") == 9000000000LL); } // probe
  { assert(getenv("CHORUS_SURELY_UNSET_VARIABLE_XYZ") == NULL); } // probe
  { int a = 0, b = 0; int n = sscanf("12 34", "%d %d", &a, &b); assert(n == 2 && a == 12 && b == 34); } // probe
  { char buf[4]; int n = snprintf(buf, sizeof buf, "%d", 12345); assert(n == 5 && buf[3] == 0 && buf[2] == '3'); } // probe
  { char buf[8]; int n = sprintf(buf, "%x-%c", 255, 'q'); assert(n == 4 && buf[3] == 'q' && buf[0] == 'f'); } // probe
  { int x = 5; uintptr_t u = (uintptr_t)&x; int *p = (int *)u; *p = 6; assert(x == 6); } // probe
  { int a[4]; uintptr_t d = (uintptr_t)&a[3] - (uintptr_t)&a[0]; assert(d == 12 && ((uintptr_t)a & 3) == 0); } // probe
  { char c[8]; char *p = c + 5; ptrdiff_t d = p - c; assert(d == 5 && p > c && !(p < c)); } // probe
  { int *n = 0; assert(!n && n == NULL && (uintptr_t)n == 0); } // probe
  { unsigned char b[4]; memset(b, 0x1ff, 4); assert(b[0] == 0xff && b[3] == 0xff); } // probe
  { int v; memset(&v, 0xff, sizeof v); assert(v == -1); } // probe
  { int *p = malloc(2 * sizeof *p); p[0] = 1; p[1] = 2; p = realloc(p, 4 * sizeof *p); assert(p[0] == 1 && p[1] == 2); free(p); } // probe
  { char s[6] = "xxxxx"; strncpy(s, "ab", 4); assert(s[2] == 0 && s[3] == 0 && s[4] == 'x'); } // probe
  { char s[8] = "ab"; strncat(s, "cdef", 2); assert(strcmp(s, "abcd") == 0 && s[4] == 0); } // probe
  { assert(abs(INT_MIN + 1) == INT_MAX && labs(-5L) == 5); } // probe
  { char s[] = "hello"; char *p = memchr(s, 'l', 5); assert(p == s + 2 && memchr(s, 'z', 5) == NULL); } // probe
  { assert(strncmp("abc", "abd", 2) == 0 && strncmp("abc", "abd", 3) < 0); } // probe
  return 0;
}
