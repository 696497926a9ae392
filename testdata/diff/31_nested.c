// Nested aggregates: arrays of structs containing arrays and structs,
// pointers into the middle of them, copying an inner struct.
int printf(const char *, ...);

struct inner {
  short vals[3];
  char tag;
};
struct outer {
  int id;
  struct inner in[2];
  long total;
};

int main(void) {
  struct outer o[2];
  for (int i = 0; i < 2; i++) {
    o[i].id = i + 1;
    o[i].total = 0;
    for (int j = 0; j < 2; j++) {
      o[i].in[j].tag = (char)('a' + i * 2 + j);
      for (int k = 0; k < 3; k++) {
        o[i].in[j].vals[k] = (short)(i * 100 + j * 10 + k);
        o[i].total += o[i].in[j].vals[k];
      }
    }
  }
  printf("%d %ld %d %ld\n", o[0].id, o[0].total, o[1].id, o[1].total);
  struct inner *ip = &o[1].in[0];
  ip->vals[2] = -5;
  ip++;
  printf("%c %d\n", ip->tag, ip->vals[1]);
  short *sp = &o[1].in[0].vals[0];
  printf("%d %d %d\n", sp[0], sp[1], sp[2]);
  struct inner copy = o[1].in[0];
  o[1].in[0].vals[0] = 999;
  printf("%d %d %c\n", copy.vals[0], copy.vals[2], copy.tag);
  int grid[2][2][2] = {{{1, 2}, {3, 4}}, {{5, 6}, {7, 8}}};
  int s = 0;
  for (int a = 0; a < 2; a++)
    for (int b = 0; b < 2; b++)
      s += grid[a][b][1 - a];
  printf("s %d\n", s);
  return 0;
}
