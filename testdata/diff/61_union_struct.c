// Unions containing structs and arrays; writing through one member and
// reading the overlapping bytes through another (little-endian).
int printf(const char *, ...);

union packet {
  struct {
    unsigned char kind;
    unsigned char len;
    unsigned short id;
  } hdr;
  unsigned int raw;
  unsigned char bytes[4];
};

int main(void) {
  union packet p;
  p.raw = 0;
  p.hdr.kind = 3;
  p.hdr.len = 9;
  p.hdr.id = 0x1234;
  printf("%x\n", p.raw);
  p.bytes[1] = 0xFF;
  printf("%d %d %x\n", p.hdr.kind, p.hdr.len, p.hdr.id);
  union packet q = p;
  q.hdr.id++;
  printf("%x %x\n", p.raw, q.raw);
  return 0;
}
