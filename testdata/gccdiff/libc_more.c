// More C library and GNU builtins: setjmp/longjmp, strtol, snprintf
// truncation, string search, div, ctype, overflow builtins, bit counts.
#include <assert.h>
#include <setjmp.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <ctype.h>
#include <alloca.h>
#include <limits.h>
jmp_buf jb;
int jv;
void jumper(int v) { jv = v; longjmp(jb, v); }
int main(void) {
  { volatile int n = 0; int r = setjmp(jb); if (r == 0) { n = 1; jumper(7); } assert(r == 7 && jv == 7); } // probe
  { int x = __builtin_expect(5, 0); assert(x == 5); } // probe
  { int x = __builtin_choose_expr(1, 3, 4.0); assert(x == 3); } // probe
  { __typeof__(1u) u = 0; u--; assert(u == UINT_MAX); } // probe
  { int *a = alloca(4 * sizeof *a); for (int i = 0; i < 4; i++) a[i] = i; assert(a[3] == 3); } // probe
  { assert(strtol("  -123xyz", 0, 10) == -123); } // probe
  { char *e; long v = strtol("0x1fz", &e, 16); assert(v == 31 && *e == 'z'); } // probe
  { assert(atoi("42") == 42 && atoi("-7") == -7); } // probe
  { char b[16]; int n = snprintf(b, sizeof b, "%d-%s", 12, "ab"); assert(n == 5 && b[2] == '-' && b[5] == 0); } // probe
  { char b[4]; int n = snprintf(b, sizeof b, "%d", 123456); assert(n == 6 && b[3] == 0 && b[2] == '3'); } // probe
  { char b[16]; sprintf(b, "%x", 255); assert(strcmp(b, "ff") == 0); } // probe
  { assert(strcmp("abc", "abd") < 0 && strcmp("b", "a") > 0); } // probe
  { assert(memcmp("\xff", "\x01", 1) > 0); } // probe
  { assert(strncmp("abcdef", "abcxyz", 3) == 0); } // probe
  { div_t d = div(-7, 2); assert(d.quot == -3 && d.rem == -1); } // probe
  { assert(labs(-5L) == 5 && abs(-3) == 3); } // probe
  { assert(toupper('a') == 'A' && isdigit('7') && !isalpha('1')); } // probe
  { assert(strchr("hello", 'l') - "hello" >= 0); } // probe
  { const char *s = "hello"; assert(strchr(s, 'l') == s + 2 && strrchr(s, 'l') == s + 3 && strchr(s, 'z') == 0); } // probe
  { const char *s = "abcabc"; assert(strstr(s, "ca") == s + 2); } // probe
  { char b[8] = "ab"; strcat(b, "cd"); assert(strlen(b) == 4 && b[3] == 'd'); } // probe
  { char b[8]; strncpy(b, "abcdefghij", 8); assert(b[7] == 'h'); } // probe
  { char b[8] = {0}; strncpy(b, "ab", 5); assert(b[1] == 'b' && b[4] == 0); } // probe
  { size_t n = strspn("aaab", "a"); assert(n == 3 && strcspn("xyz:", ":") == 3); } // probe
  { int x = ({ int t = 3; t * 2; }); assert(x == 6); } // probe
  { assert(__builtin_popcount(0xff) == 8 && __builtin_ctz(8) == 3 && __builtin_clz(1) == 31); } // probe
  { assert(__builtin_bswap32(0x11223344u) == 0x44332211u); } // probe
  { unsigned r; assert(__builtin_add_overflow(UINT_MAX, 1u, &r) && r == 0); } // probe
  { int r; assert(__builtin_mul_overflow(1 << 20, 1 << 12, &r) && r == 0); } // probe
  { long long r; assert(!__builtin_mul_overflow(1 << 20, 1 << 12, &r) && r == 1LL << 32); } // probe
  { assert(__builtin_ffs(0) == 0 && __builtin_ffs(12) == 3); } // probe
  { assert(__builtin_parity(7) == 1 && __builtin_clzll(1ULL) == 63); } // probe
  return 0;
}
