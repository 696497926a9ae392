package cfg

import (
	"strings"
	"testing"

	"modernc.org/cc/v4"
)

// allocWrapSrc has an allocator wrapper (xmalloc: returns what malloc
// returned, keeps nothing), a function that keeps its pointer (keep), and
// a wrapper reached through a function pointer.
const allocWrapSrc = `
typedef unsigned long size_t;
void *malloc(size_t);
void abort(void);
struct pair { int a; int *p; };
struct node { long k; struct node *next; };
static void *xmalloc(size_t n) {
  void *r;
  if ((r = malloc(n)) == 0)
    abort();
  return r;
}
void *kept;
static void *keep(size_t n) { void *r = malloc(n); kept = r; return r; }
void *(*fp)(size_t) = xmalloc;
int main(void) {
  struct pair *x = xmalloc(sizeof(struct pair));
  struct node *y;
  y = xmalloc(sizeof(struct node));
  struct pair *z = keep(sizeof(struct pair));
  struct pair *w = keep(sizeof(struct pair));
  struct node *v = fp(sizeof(struct node));
  x->a = 1; y->k = 2; z->a = 3; w->a = 4; v->k = 5;
  return 0;
}
`

// heapObjects lists the heap objects whose name starts with prefix, each
// as its name and its cells' names.
func heapObjects(p *Program, prefix string) map[string][]string {
	out := map[string][]string{}
	for _, o := range p.Objects {
		if o.Kind == HeapObject && strings.HasPrefix(o.Name, prefix) {
			for _, c := range o.Cells {
				out[o.Name] = append(out[o.Name], strings.TrimPrefix(c.Name, o.Name))
			}
		}
	}
	return out
}

// TestAllocWrapperClones: with every call shared (the policy of large
// units past their budget), each call of the wrapper is still inlined, so
// each call site has its own allocation site (the direct call, the
// assignment and the call through fp: three); keep is no wrapper and is
// shared, so its two calls make one object. Without the rule the
// wrapper's body was shared too: one object for all its calls.
func TestAllocWrapperClones(t *testing.T) {
	p, err := Build("w.c", []byte(allocWrapSrc), Options{ShareAll: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := Sanity(p); err != nil {
		t.Fatal(err)
	}
	if wrapped := heapObjects(p, "xmalloc."); len(wrapped) != 3 {
		t.Errorf("xmalloc's sites: %v, want three (one per call site)", wrapped)
	}
	if kept := heapObjects(p, "keep."); len(kept) != 1 {
		t.Errorf("keep's sites: %v, want one (a shared body)", kept)
	}
}

// TestAllocWrapperClassification: what counts as an allocator wrapper.
func TestAllocWrapperClassification(t *testing.T) {
	src := `
typedef unsigned long size_t;
void *malloc(size_t);
void *realloc(void *, size_t);
void free(void *);
void *g;
struct big { char b[64]; };
static struct big pool;
void *plain(size_t n) { return malloc(n); }
void *nulltest(size_t n) { void *p = malloc(n); if (!p) return 0; return p; }
void *grow(void *p, size_t n) { p = realloc(p, n); if (p == 0) free(g); return p; }
void *outer(size_t n) { return plain(n); }
void *stores(size_t n) { void *p = malloc(n); g = p; return p; }
void *passes(size_t n) { void *p = malloc(n); free(p); return p; }
void *global(size_t n) { return &pool; }
void *either(size_t n) { void *p = malloc(n); if (n) p = g; return p; }
void *addr(size_t n) { void *p = malloc(n); void **q = &p; return *q; }
int count(size_t n) { return malloc(n) != 0; }
void *ident(void *p) { return p; }
void *nothing(size_t n) { void *p = 0; return p; }
int main(void) {
  plain(1); nulltest(1); grow(0, 1); outer(1); stores(1); passes(1);
  global(1); either(1); addr(1); count(1); ident(0); nothing(1);
  return 0;
}
`
	ast, err := translateFile("c.c", []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	b := newBuilder("c.c", []*cc.AST{ast}, LP64, 0)
	b.uses = map[*cc.AST]*unitUses{}
	b.collect()
	want := map[string]bool{
		"plain": true, "nulltest": true, "grow": true, "outer": true,
		"stores": false, "passes": false, "global": false, "either": false, "addr": false, "count": false,
		"ident": false, "nothing": false,
	}
	for name, w := range want {
		if got := b.allocWrapper(name); got != w {
			t.Errorf("allocWrapper(%s) = %v, want %v", name, got, w)
		}
	}
}
