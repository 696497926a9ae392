// Literals: embedded NULs, escapes, character constants (signed char),
// string-initialised arrays (short, exact, nested), sizeof of literals,
// concatenation, GNU escapes, __func__, integer literal types. Found here:
// u8"x" (cc reads the prefix into the string: sizeof(u8"x") != 2 was
// proven), now unsupported (cfg/ignoredattr.go checkStringToken).
// Multi-character constants ('ab') are an error in cc.
#include <assert.h>
#include <string.h>
#include <stddef.h>
struct named { char tag[4]; int v; };
static const char table[][4] = {"ab", "cde", ""};
static struct named nm[] = {{"xy", 1}, {"abc", 2}};
static const char *ptrs[] = {"p\0q", "r"};
static char gbuf[6] = "hi";
int main(void) {
  { const char *s = "a\0b"; assert(s[2] == 'b' && s[3] == 0); } // probe
  { assert(sizeof("a\0b") == 4 && sizeof("") == 1); } // probe
  { char b[] = "a\0bc"; assert(sizeof b == 5 && b[2] == 'b' && b[3] == 'c'); } // probe
  { char b[6] = "ab"; assert(b[2] == 0 && b[5] == 0 && b[1] == 'b'); } // probe
  { char b[3] = "abc"; assert(b[2] == 'c'); } // probe
  { assert("\101\x42"[0] == 'A' && "\101\x42"[1] == 'B'); } // probe
  { assert("\e"[0] == 27 && '\e' == 27); } // probe
  { assert('\xff' == -1 && (unsigned char)'\xff' == 255); } // probe
  { assert(sizeof('a') == sizeof(int) && sizeof("x") == 2); } // probe
  { const char *c = "ab" "cd"; assert(c[3] == 'd' && c[4] == 0 && strlen(c) == 4); } // probe
  { assert(table[0][1] == 'b' && table[1][2] == 'e' && table[2][0] == 0 && table[0][3] == 0); } // probe
  { assert(nm[1].tag[2] == 'c' && nm[1].tag[3] == 0 && nm[0].tag[2] == 0 && nm[1].v == 2); } // probe
  { assert(ptrs[0][2] == 'q' && ptrs[1][0] == 'r'); } // probe
  { assert(gbuf[1] == 'i' && gbuf[2] == 0 && gbuf[5] == 0); } // probe
  { gbuf[4] = 'z'; assert(gbuf[4] == 'z' && strlen(gbuf) == 2); } // probe
  { assert(__func__[0] == 'm' && sizeof(__func__) == 5); } // probe
  { assert(sizeof(2147483648) == 8 && sizeof(0x80000000) == 4 && sizeof(4294967296) == 8); } // probe
  { assert(0x80000000 > 0 && -2147483648 < 0 && 0xFFFFFFFFu + 1 == 0); } // probe
  { assert(sizeof(1 ? 1 : 2u) == 4 && (1 ? -1 : 2u) > 0); } // probe
  { assert(010 == 8 && 0b101 == 5 && 0x1p4 == 16.0); } // probe
  { char s[8]; strcpy(s, "a\0b"); assert(s[0] == 'a' && s[1] == 0); } // probe
  { char s[4] = {'x', 'y'}; assert(s[2] == 0 && s[3] == 0 && s[1] == 'y'); } // probe
  { char s[] = {"lit"}; assert(sizeof s == 4 && s[2] == 't'); } // probe
  { wchar_t w = L'a'; assert(w == 97 && sizeof(L'a') == 4); } // probe
  { assert("abc"[1] == 'b' && *"xyz" == 'x' && *("xyz" + 2) == 'z'); } // probe
  { const char *p = "hello" + 1; assert(p[0] == 'e' && p[4] == 0); } // probe
  { assert(strcmp("a\0x", "a\0y") == 0 && memcmp("a\0x", "a\0y", 3) < 0); } // probe
  return 0;
}
