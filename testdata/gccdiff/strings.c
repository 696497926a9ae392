// Hand-written string loops, char arithmetic, arrays of strings, and
// string literals through pointers.
#include <assert.h>
#include <string.h>
int my_strlen(const char *s) { int n = 0; while (*s++) n++; return n; }
void rev(char *s) { int n = strlen(s); for (int i = 0; i < n / 2; i++) { char t = s[i]; s[i] = s[n - 1 - i]; s[n - 1 - i] = t; } }
int atoi_my(const char *s) { int v = 0, neg = 0; if (*s == '-') { neg = 1; s++; } while (*s >= '0' && *s <= '9') v = v * 10 + (*s++ - '0'); return neg ? -v : v; }
const char *days[] = {"mon", "tue", "wed"};
int main(void) {
  { assert(my_strlen("hello") == 5 && my_strlen("") == 0); } // probe
  { char s[] = "abc"; rev(s); assert(s[0] == 'c' && s[2] == 'a'); } // probe
  { assert(atoi_my("-123") == -123 && atoi_my("42x") == 42); } // probe
  { assert(days[1][0] == 't' && days[2][2] == 'd'); } // probe
  { int i = 2; assert(strcmp(days[i], "wed") == 0); } // probe
  { const char *p = "xyz" + 1; assert(*p == 'y' && p[1] == 'z' && p[2] == 0); } // probe
  { char c = 'a' + 25; assert(c == 'z'); } // probe
  { char c = '9'; int d = c - '0'; assert(d == 9); } // probe
  { char buf[10]; int n = 0; for (char c = 'a'; c <= 'e'; c++) buf[n++] = c; buf[n] = 0; assert(n == 5 && buf[4] == 'e' && strlen(buf) == 5); } // probe
  { char s[8] = "AbC"; for (int i = 0; s[i]; i++) if (s[i] >= 'A' && s[i] <= 'Z') s[i] += 32; assert(strcmp(s, "abc") == 0); } // probe
  { const char *s = "a,b,,c"; int n = 0; for (; *s; s++) n += *s == ','; assert(n == 3); } // probe
  { char s[4] = "abc"; char *e = s + strlen(s); assert(e - s == 3 && *e == 0); } // probe
  { assert("abc"[1] == 'b' && sizeof("ab\0c") == 5); } // probe
  { unsigned char hi = (unsigned char)"\xff"[0]; assert(hi == 255); } // probe
  { char s[6]; memcpy(s, "hello", 6); s[0] ^= 0x20; assert(s[0] == 'H'); } // probe
  { char d[8] = {0}; const char *src = "abc"; char *q = d; while ((*q++ = *src++)) ; assert(d[2] == 'c' && d[3] == 0 && q == d + 4); } // probe
  return 0;
}
