// Character arithmetic: case conversion, digit parsing, counting classes,
// %c output, char comparisons (char is signed on x86-64).
int printf(const char *, ...);

char upper(char c) {
  if (c >= 'a' && c <= 'z')
    return (char)(c - 'a' + 'A');
  return c;
}

int parse(const char *s) {
  int v = 0, sign = 1;
  if (*s == '-') {
    sign = -1;
    s++;
  }
  while (*s >= '0' && *s <= '9')
    v = v * 10 + (*s++ - '0');
  return sign * v;
}

int main(void) {
  const char *text = "Hello, Chorus 2026!";
  int letters = 0, digits = 0, others = 0;
  for (const char *p = text; *p; p++) {
    printf("%c", upper(*p));
    if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z'))
      letters++;
    else if (*p >= '0' && *p <= '9')
      digits++;
    else
      others++;
  }
  printf("\n%d %d %d\n", letters, digits, others);
  printf("%d %d %d\n", parse("123"), parse("-45x"), parse("0"));
  char c = (char)0x80;
  printf("%d %d\n", c, c < 0);
  unsigned char uc = (unsigned char)c;
  printf("%d\n", uc);
  printf("%c%c%c\n", 'a' + 1, 'z' - 1, '0' + 7);
  return 0;
}
