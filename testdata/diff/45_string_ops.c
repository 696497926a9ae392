// Hand-written string functions on char arrays: copy, concatenate,
// reverse, find a character, compare, itoa.
int printf(const char *, ...);

void scopy(char *d, const char *s) {
  while ((*d++ = *s++))
    ;
}

void scat(char *d, const char *s) {
  while (*d)
    d++;
  scopy(d, s);
}

void srev(char *s) {
  char *e = s;
  while (*e)
    e++;
  e--;
  while (s < e) {
    char t = *s;
    *s++ = *e;
    *e-- = t;
  }
}

int sfind(const char *s, char c) {
  for (int i = 0; s[i]; i++)
    if (s[i] == c)
      return i;
  return -1;
}

void itoa10(int v, char *out) {
  char tmp[12];
  int n = 0, neg = v < 0;
  unsigned u = neg ? 0u - (unsigned)v : (unsigned)v;
  do {
    tmp[n++] = (char)('0' + u % 10);
    u /= 10;
  } while (u);
  if (neg)
    *out++ = '-';
  while (n > 0)
    *out++ = tmp[--n];
  *out = 0;
}

int main(void) {
  char buf[64];
  scopy(buf, "multi");
  scat(buf, "-threaded");
  printf("%s\n", buf);
  srev(buf);
  printf("%s\n", buf);
  printf("%d %d\n", sfind(buf, 'd'), sfind(buf, 'z'));
  char num[16];
  itoa10(-2147483647 - 1, num);
  printf("%s\n", num);
  itoa10(9075, num);
  printf("%s\n", num);
  return 0;
}
