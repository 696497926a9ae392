package dfg

import (
	"strings"
	"testing"

	"chorus/cfg"
)

// The published-initial-value rule (publish.go) on a small program: the
// edge from program start is dropped where the thread saw the flag, kept
// where it did not, and kept everywhere when a setter may skip the write.
const publishSrc = `
extern void __VERIFIER_assert(int);
extern int __VERIFIER_nondet_int(void);
typedef unsigned long pthread_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
int state = 0;
int seed;
int other;
void *thr(void *arg) {
  if (state == 0) {
    seed = 1;
    if (__VERIFIER_nondet_int())
      other = 1;
    state = 1;
  } else {
    __VERIFIER_assert(seed != 0);  // A: seed's init is stale
    __VERIFIER_assert(other != 0); // B: other's init is not (a setter path skips it)
  }
  return 0;
}
void *blind(void *arg) {
  __VERIFIER_assert(seed != 0);    // C: no test of state
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, blind, 0);
  while (1)
    pthread_create(&t, 0, thr, 0);
  return 0;
}
`

func TestPublishEdges(t *testing.T) {
	for _, off := range []bool{false, true} {
		p, err := cfg.Build("publish.c", []byte(publishSrc), cfg.Options{})
		if err != nil {
			t.Fatal(err)
		}
		part := NewPartition(p, false)
		g := New(p, part)
		if off {
			g.WithoutPublish()
		}
		var init *cfg.Loc
		if len(p.Templates) > 0 {
			init = p.Templates[0].Entry
		}
		var seed, other *cfg.Var
		for _, v := range p.Vars {
			switch v.Name {
			case "seed":
				seed = v
			case "other":
				other = v
			}
		}
		if seed == nil || other == nil {
			t.Fatal("globals not found")
		}
		// fromInit reports whether the check's location has an edge of
		// v's cell from program start.
		fromInit := func(line int, v *cfg.Var) (found, interf bool) {
			for _, c := range p.Checks {
				if c.Pos.Line != line {
					continue
				}
				// The load of the variable precedes the check: look
				// at every location of the line.
				for _, l := range c.Loc.Template.Locs {
					if l.Pos.Line != line {
						continue
					}
					for _, e := range g.Edges(l) {
						if e.Cell != part.CellOf(v) {
							continue
						}
						if e.Src == init && !e.Interference {
							found = true
						}
						if e.Interference {
							interf = true
						}
					}
				}
			}
			return
		}
		line := func(mark string) int {
			for i, l := range strings.Split(publishSrc, "\n") {
				if strings.Contains(l, mark) {
					return i + 1
				}
			}
			t.Fatalf("no %s", mark)
			return 0
		}
		if f, i := fromInit(line("// A:"), seed); f == !off || (!off && !i) {
			t.Errorf("off=%v A: init edge %v, replacement edges %v", off, f, i)
		}
		if f, _ := fromInit(line("// B:"), other); !f {
			t.Errorf("off=%v B: init edge of other dropped although a setter path skips its write", off)
		}
		if f, _ := fromInit(line("// C:"), seed); !f {
			t.Errorf("off=%v C: init edge dropped in a thread that never tested state", off)
		}
	}
}
