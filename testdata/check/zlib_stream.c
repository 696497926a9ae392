// chorus: --checks bounds
// zlib's stream functions (cfg/libc.go, libcCalls) write only what their
// z_stream argument reaches - the output buffer next_out points to - and
// may call the zalloc/zfree functions stored in it (pigz's zlib_alloc),
// at any time and from any thread: after deflate, out[0] and allocs may
// hold anything, while the address-taken global g, which the stream does
// not reach, keeps its value (an unknown external would havoc it).
typedef struct {
  unsigned char *next_in;
  unsigned avail_in;
  unsigned char *next_out;
  unsigned avail_out;
  void *(*zalloc)(void *, unsigned, unsigned);
  void (*zfree)(void *, void *);
  void *opaque;
} z_stream;
extern int deflate(z_stream *, int);
extern int deflateEnd(z_stream *);
int allocs;
void *my_alloc(void *opaque, unsigned items, unsigned size) {
  allocs = 7;
  return 0;
}
void my_free(void *opaque, void *p) {}
int g;
int *pg = &g;
int a[4];
unsigned char out[4];
int main(void) {
  z_stream strm;
  g = 1;
  allocs = 0;
  out[0] = 1;
  strm.zalloc = my_alloc;
  strm.zfree = my_free;
  strm.opaque = 0;
  strm.next_out = out;
  strm.avail_out = 4;
  deflate(&strm, 0);
  a[g] = 0; // want bounds:proven
  a[out[0]] = 0; // want bounds:unproven
  a[allocs] = 0; // want bounds:unproven
  deflateEnd(&strm);
  return 0;
}
