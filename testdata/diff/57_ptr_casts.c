// Pointer casts: walking an int array with a char pointer, reading a
// struct's bytes, void pointers converted back, pointers to members.
int printf(const char *, ...);

struct rec {
  int a;
  short b;
  char c;
};

int sum_bytes(const void *p, int n) {
  const unsigned char *b = p;
  int s = 0;
  for (int i = 0; i < n; i++)
    s += b[i];
  return s;
}

int main(void) {
  int arr[2] = {0x01020304, 0x0A0B0C0D};
  unsigned char *cp = (unsigned char *)arr;
  for (int i = 0; i < 8; i++)
    printf("%x ", cp[i]);
  printf("\n");
  struct rec r = {258, -2, 'z'};
  printf("%d\n", sum_bytes(&r.a, sizeof r.a));
  void *v = &r;
  struct rec *back = v;
  printf("%d %d %c\n", back->a, back->b, back->c);
  short *sp = &r.b;
  *sp = 77;
  char *base = (char *)&r;
  printf("%d %ld\n", r.b, (long)((char *)sp - base));
  int *ip = (int *)(cp + 4);
  printf("%x\n", *ip);
  return 0;
}
