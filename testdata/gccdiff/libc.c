// Modelled C library functions (cfg/libc.go): results are any value of
// their type, or fixed by the model; nothing a probe asserts may be
// contradicted.
#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
int main(void) {
  { assert(strlen("hello") == 5); } // probe
  { char b[10] = "abc"; strcat(b, "de"); assert(strlen(b) == 5 && b[4] == 'e'); } // probe
  { char b[10]; strncpy(b, "xy", sizeof b); assert(b[1] == 'y' && b[9] == 0); } // probe
  { assert(strcmp("abc", "abd") < 0 && strcmp("b", "a") > 0 && strcmp("q", "q") == 0); } // probe
  { assert(strncmp("abcx", "abcy", 3) == 0); } // probe
  { assert(memcmp("\x01\x02", "\x01\x03", 2) < 0); } // probe
  { assert(strcasecmp("HeLLo", "hello") == 0); } // probe
  { assert(strchr("hello", 'z') == NULL); } // probe
  { const char *s = "hello"; assert(strrchr(s, 'l') == s + 3); } // probe
  { const char *s = "hello"; assert(strstr(s, "ll") == s + 2); } // probe
  { assert(strspn("aab", "a") == 2 && strcspn("abc", "c") == 2); } // probe
  { assert(strnlen("abcdef", 3) == 3); } // probe
  { assert(atoi("-42") == -42 && atol("7") == 7 && atoll("123456789012") == 123456789012LL); } // probe
  { assert(strtol("ff", 0, 16) == 255); } // probe
  { char *e; long v = strtol("12abc", &e, 10); assert(v == 12 && *e == 'a'); } // probe
  { assert(strtoul("-1", 0, 10) == ULONG_MAX); } // probe
  { assert(abs(-5) == 5 && labs(-6L) == 6 && llabs(-7LL) == 7); } // probe
  { assert(abs(INT_MIN + 1) > 0); } // probe
  { assert(toupper('a') == 'A' && toupper('A') == 'A' && toupper('1') == '1'); } // probe
  { assert(tolower('Q') == 'q'); } // probe
  { assert(toupper(-1) == -1); } // probe
  { assert(isdigit('7') && !isdigit('x') && isalpha('x') && isspace(' ') && !isspace('a')); } // probe
  { assert(isupper('A') && islower('a') && isxdigit('F') && isprint('~') && isalnum('0')); } // probe
  { int r = rand(); assert(r >= 0 && r <= RAND_MAX); } // probe
  { long r = random(); assert(r >= 0 && r <= 2147483647L); } // probe
  { srand(1); int a = rand(); srand(1); int b = rand(); assert(a == b); } // probe
  { assert(htonl(1) == 0x01000000u && ntohs(0x0102) == 0x0201); } // probe
  { assert(htons(0xabcd) == 0xcdab && ntohl(0x01000000u) == 1); } // probe
  { char b[16]; int n = snprintf(b, sizeof b, "%d-%s", 42, "x"); assert(n == 4 && b[2] == '-' && b[4] == 0); } // probe
  { char b[4]; int n = snprintf(b, sizeof b, "%s", "abcdef"); assert(n == 6 && b[3] == 0); } // probe
  { char b[16]; int n = sprintf(b, "%x", 255); assert(n == 2 && b[0] == 'f'); } // probe
  { errno = 0; long v = strtol("99999999999999999999", 0, 10); assert(v == LONG_MAX && errno == ERANGE); } // probe
  { errno = 5; assert(errno == 5); } // probe
  { errno = 0; strtol("1", 0, 10); assert(errno == 0); } // probe
  { char *d = strdup("hey"); assert(d && d[2] == 'y' && d[3] == 0); } // probe
  { char *p = malloc(4); p[0] = 'a'; p = realloc(p, 100); assert(p[0] == 'a'); } // probe
  { int *p = calloc(10, sizeof *p); p[9] += 3; assert(p[9] == 3 && p[0] == 0); } // probe
  { void *m = memchr("abc", 'c', 3); assert(m != NULL && *(char *)m == 'c'); } // probe
  { assert(strpbrk("hello", "lo") != NULL && *strpbrk("hello", "ol") == 'l'); } // probe
  { char b[8]; memset(b, 0, 8); strcpy(b, "ab"); char *r = strcpy(b + 2, "cd"); assert(r == b + 2 && strcmp(b, "abcd") == 0); } // probe
  { assert(getenv("PROBE_SURELY_UNSET_VAR_1234") == NULL); } // probe
  { assert(sizeof(FILE *) == 8); } // probe
  { char b[8] = "abc"; memmove(b + 1, b, 4); assert(b[1] == 'a' && b[3] == 'c' && b[4] == 0); } // probe
  { char b[8] = "abc"; char *r = memset(b, 'x', 2); assert(r == b && b[1] == 'x' && b[2] == 'c'); } // probe
  { char d[4]; void *r = memcpy(d, "xyz", 4); assert(r == d && d[2] == 'z'); } // probe
  { assert(strncmp("ab", "abc", 2) == 0 && strncmp("ab", "abc", 3) < 0); } // probe
  return 0;
}
