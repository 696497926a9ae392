// Bit-fields: packing, unsigned wrap within the field width, signed
// fields, assignment and reading back (gcc layout).
int printf(const char *, ...);

struct flags {
  unsigned ready : 1;
  unsigned mode : 3;
  int level : 4;
  unsigned rest : 24;
};

int main(void) {
  struct flags f = {0};
  f.ready = 1;
  f.mode = 5;
  f.level = -3;
  f.rest = 1000;
  printf("%u %u %d %u\n", f.ready, f.mode, f.level, f.rest);
  f.mode = f.mode + 4;
  printf("mode %u\n", f.mode);
  f.ready = 0;
  printf("%u %lu\n", f.ready, sizeof f);
  return 0;
}
