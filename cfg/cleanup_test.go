package cfg

import (
	"strings"
	"testing"
)

// TestCleanupAttribute checks the calls cleanup attributes add (cleanup.go;
// testdata/diff/76_cleanup_attr.c checks their order against gcc, the
// fixtures testdata/check/cleanup_attr_*.c what the analysis makes of
// them, TestErrors what is rejected).
func TestCleanupAttribute(t *testing.T) {
	// Each way out of the loop body unlocks once; exit() runs no cleanup.
	p := lower(t, `
#include <pthread.h>
#include <stdlib.h>
pthread_mutex_t m;
static void unlockp(pthread_mutex_t **p) { pthread_mutex_unlock(*p); }
int main(int argc, char **argv) {
	for (int i = 0; i < argc; i++) {
		__attribute__((cleanup(unlockp))) pthread_mutex_t *l = &m;
		pthread_mutex_lock(l);
		if (i == 1) continue;
		if (i == 2) break;
		if (i == 3) goto out;
		if (i == 4) return 1;
		if (i == 5) exit(2);
	}
out:
	return 0;
}
`)
	if a, r := len(locsOf[*Acquire](p, "main")), len(locsOf[*Release](p, "main")); a != 1 || r != 5 {
		t.Errorf("%d acquires and %d releases, want 1 and 5 (continue, break, goto, return, block end)\n%s", a, r, dump(p))
	}

	// A cleanup function without a body is an unknown external called
	// with the variable's address: it may write the variable.
	p = lower(t, `
void release(int *p);
int main(void) {
	{ __attribute__((cleanup(release))) int x = 1; }
	return 0;
}
`)
	havocked := false
	x := varNamed(t, p, "main.x")
	for _, l := range locsOf[*Havoc](p, "main") {
		if mentions(l.Act, x) > 0 {
			havocked = true
		}
	}
	if !havocked || len(p.Assumptions) == 0 || !strings.Contains(p.Assumptions[0].Msg, "release") {
		t.Errorf("release(&x) is not an unknown call writing x: %v\n%s", p.Assumptions, dump(p))
	}

	// A static local's cleanup attribute is ignored (as by GCC); an
	// automatic one in a statement expression runs after its value.
	// Nor are the attributes of a parameter in a declarator or of a
	// struct member (GCC ignores them) or of a declaration in typeof (not
	// evaluated).
	p = lower(t, `
int g;
static void done(int *p) { g = *p; }
int main(void) {
	void (*fp)(int *q __attribute__((cleanup(done)))) = 0;
	__typeof__(({ __attribute__((cleanup(done))) int k = 4; k; })) a = 0;
	{ static int s __attribute__((cleanup(done))) = 3; }
	{ struct { int m __attribute__((cleanup(done))); } st; st.m = 1; }
	int v = ({ __attribute__((cleanup(done))) int e = 4; e + 1; });
	return v + a;
}
`)
	g := varNamed(t, p, "g")
	writes := 0
	for _, l := range locsOf[*Assign](p, "main") {
		if r, ok := l.Act.(*Assign).Dst.(*VarRef); ok && r.Var == g {
			writes++
		}
	}
	if writes != 1 {
		t.Errorf("%d writes of g, want 1 (e's cleanup, not s's, k's, st's, fp's parameter's or a's)\n%s", writes, dump(p))
	}
}
