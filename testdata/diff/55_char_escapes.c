// Character and string escapes: \n \t \0 \\ \' \" \x41 \101, characters as
// integers, strings with embedded NUL (printing stops there).
int printf(const char *, ...);

int main(void) {
  char cs[] = {'\n', '\t', '\0', '\\', '\'', '"', '\x41', '\101', '\177'};
  for (unsigned i = 0; i < sizeof cs; i++)
    printf("%d ", cs[i]);
  printf("\n");
  char s[] = "ab\0cd";
  printf("%s %lu %c\n", s, sizeof s, s[3]);
  printf("[%s]\n", "tab\there");
  printf("%d\n", '\x7f' + '\0');
  printf("%c%c%c\n", 72, 105, 33);
  return 0;
}
