// chorus: --checks bounds
// The parameters of the callbacks of C library models (cfg/pointsto.go,
// libcCallbackReach) point only to what those models hold: what their
// arguments reach and what was handed to unknown code (a callback's
// result, a thread-specific value), not to everything unknown code
// reaches. So the address-taken global g, which no libcCalls argument
// reaches, keeps its value although my_free writes through both of its
// parameters; but what they may point to must change: the opaque (box),
// what zalloc returned and zfree gets back (pool), the array qsort sorts
// (v), the value a key's destructor gets (spec).
typedef unsigned long size_t;
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
extern void qsort(void *, size_t, size_t, int (*)(const void *, const void *));
typedef unsigned pthread_key_t;
extern int pthread_key_create(pthread_key_t *, void (*)(void *));
extern int pthread_setspecific(pthread_key_t, const void *);
int g;
int *pg = &g;
int box, pool, spec;
int a[4];
unsigned char out[4];
void *my_alloc(void *opaque, unsigned items, unsigned size) { return &pool; }
void my_free(void *opaque, void *p) {
  *(int *)opaque = 7;
  *(int *)p = 7;
}
int cmp(const void *x, const void *y) {
  *(int *)y = 8;
  return 0;
}
void destroy(void *p) { *(int *)p = 9; }
int main(void) {
  z_stream strm;
  pthread_key_t key;
  int v[3] = {1, 2, 3};
  g = 1;
  box = 1;
  pool = 1;
  spec = 1;
  strm.zalloc = my_alloc;
  strm.zfree = my_free;
  strm.opaque = &box;
  strm.next_out = out;
  strm.avail_out = 4;
  deflate(&strm, 0);
  qsort(v, 3, sizeof v[0], cmp);
  pthread_key_create(&key, destroy);
  pthread_setspecific(key, &spec);
  a[g] = 0; // want bounds:proven
  a[box] = 0; // want bounds:unproven
  a[pool] = 0; // want bounds:unproven
  a[v[1]] = 0; // want bounds:unproven
  a[spec] = 0; // want bounds:unproven
  return 0;
}
