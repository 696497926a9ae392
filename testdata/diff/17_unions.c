// Unions: members share storage; writing one member and reading another
// reinterprets the bytes (little-endian, as gcc on x86-64 does).
int printf(const char *, ...);

union word {
  unsigned int u;
  unsigned char b[4];
  unsigned short h[2];
};

struct tagged {
  int kind;
  union {
    int i;
    char c;
  } v;
};

int main(void) {
  union word w;
  w.u = 0x11223344u;
  printf("%x %x %x %x\n", w.b[0], w.b[1], w.b[2], w.b[3]);
  printf("%x %x\n", w.h[0], w.h[1]);
  w.b[3] = 0xAA;
  printf("%x\n", w.u);
  w.h[0] = 0xBEEF;
  printf("%x\n", w.u);
  struct tagged t[2];
  t[0].kind = 0;
  t[0].v.i = 1234;
  t[1].kind = 1;
  t[1].v.c = 'z';
  for (int i = 0; i < 2; i++) {
    if (t[i].kind == 0)
      printf("int %d\n", t[i].v.i);
    else
      printf("char %c\n", t[i].v.c);
  }
  printf("size %lu\n", sizeof(union word));
  return 0;
}
