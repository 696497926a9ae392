package cfg

import "testing"

// TestAddrTakenByResolution: &m of the global m does not make the
// parameter m of another function an object, while &p of a parameter and
// &x of a local do; shadowing inside one function is resolved the same way.
func TestAddrTakenByResolution(t *testing.T) {
	const src = `
int m = 0;
int g = 0;
void take(int *m) { *m = 1; }
int keepsp(int p) { int *q = &p; return *q; }
int shadow(int x) { int y = x; { int x = 2; int *q = &x; *q = 3; } return y + x; }
int main(void) {
  int x = 0;
  take(&m);
  take(&x);
  return keepsp(g) + shadow(g);
}
`
	p, err := Build("addr.c", []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	regs, objs := map[string]bool{}, map[string]bool{}
	for _, v := range p.Vars {
		if v.Scope == Local && v.Mem == nil {
			regs[v.Name] = true
		}
	}
	for _, o := range p.Objects {
		if o.Kind == LocalObject {
			objs[o.Name] = true
		}
	}
	for _, name := range []string{"take.m", "shadow.x"} {
		if !regs[name] || objs[name] {
			t.Errorf("%s: register %v, object %v; want a register", name, regs[name], objs[name])
		}
	}
	for _, name := range []string{"keepsp.p", "main.x"} {
		if !objs[name] {
			t.Errorf("%s: want an address-taken object; objects %v", name, objs)
		}
	}
}
