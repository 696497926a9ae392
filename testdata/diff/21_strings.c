// String literals: %s, indexing, hand-written strlen/strcmp, char arrays
// initialized from strings, escapes.
int printf(const char *, ...);

int length(const char *s) {
  int n = 0;
  while (s[n] != '\0')
    n++;
  return n;
}

int compare(const char *a, const char *b) {
  while (*a && *a == *b) {
    a++;
    b++;
  }
  return (unsigned char)*a - (unsigned char)*b;
}

int main(void) {
  const char *s = "hello, world";
  printf("%s has %d chars\n", s, length(s));
  printf("%c%c\n", s[0], s[7]);
  char buf[16] = "abc";
  printf("%s %d %d\n", buf, length(buf), buf[5]);
  printf("%d %d %d\n", compare("abc", "abd") < 0, compare("b", "a") > 0, compare("same", "same"));
  printf("tab[\t] quote[\"] backslash[\\] percent[%%]\n");
  const char *words[3] = {"zero", "one", "two"};
  for (int i = 0; i < 3; i++)
    printf("%d=%s ", i, words[i]);
  printf("\n");
  printf("%s|%.3s|%6s|%-6s|\n", "x", "abcdef", "ab", "ab");
  printf("%c\n", "xyz"[1]);
  char octal[] = "\101\x42";
  printf("%s\n", octal);
  return 0;
}
