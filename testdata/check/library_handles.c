// chorus: --checks bounds --entry make,set,use,run,racy_run
// Entry points named by --entry. The client may hand back what the
// library gave it (a handle from make, with its callback) or a fresh
// object with any contents, and may call function pointers the library
// hands out (bump); use sees set's write through the kept pointer;
// racy_run reads o->n twice while another thread may set it.
extern void *malloc(unsigned long);
struct obj { int n; void (*cb)(struct obj *); };
static struct obj *kept;
int arr[4];
static void bump(struct obj *o) { arr[o->n] = 0; } // want bounds:unproven
struct obj *make(void) {
  struct obj *o = malloc(sizeof *o);
  o->n = 0;
  o->cb = bump;
  kept = o;
  return o;
}
void set(struct obj *o, int v) { o->n = v; }
int use(void) { return kept ? arr[kept->n] : 0; } // want bounds:unproven
void run(struct obj *o) { int n = o->n; if (n >= 0 && n < 4) arr[n] = 1; } // want bounds:proven
void racy_run(struct obj *o) { if (o->n >= 0 && o->n < 4) arr[o->n] = 1; } // want bounds:unproven
int main(void) { return 0; }
