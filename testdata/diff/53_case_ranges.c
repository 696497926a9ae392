// GNU case ranges and a switch on characters with several labels per case,
// inside a loop with continue.
int printf(const char *, ...);

int classify(char c) {
  switch (c) {
  case '0' ... '9':
    return 1;
  case 'a' ... 'z':
  case 'A' ... 'Z':
    return 2;
  case ' ':
  case '\t':
  case '\n':
    return 3;
  default:
    return 4;
  }
}

int main(void) {
  const char *s = "Ab 9\t!z\n";
  int counts[5] = {0};
  for (int i = 0; s[i]; i++) {
    int k = classify(s[i]);
    if (k == 4)
      continue;
    counts[k]++;
  }
  printf("%d %d %d\n", counts[1], counts[2], counts[3]);
  return 0;
}
