package cfg

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// ---- helpers ----

func locsOf[T Action](p *Program, tmpl string) []*Loc {
	var out []*Loc
	for _, l := range p.Locs {
		if tmpl != "" && l.Template.Name != tmpl {
			continue
		}
		if _, ok := l.Act.(T); ok {
			out = append(out, l)
		}
	}
	return out
}

func checksOf(p *Program, k CheckKind) []*Check {
	var out []*Check
	for _, c := range p.Checks {
		if c.Kind == k {
			out = append(out, c)
		}
	}
	return out
}

func tmplNamed(t *testing.T, p *Program, name string) *Template {
	t.Helper()
	for _, tm := range p.Templates {
		if tm.Name == name {
			return tm
		}
	}
	t.Fatalf("no template %s in\n%s", name, dump(p))
	return nil
}

func varNamed(t *testing.T, p *Program, name string) *Var {
	t.Helper()
	for _, v := range p.Vars {
		if v.Name == name {
			return v
		}
	}
	t.Fatalf("no var %s in\n%s", name, dump(p))
	return nil
}

// mentions counts the occurrences of v in an action (as a register or
// among Deref cells).
func mentions(act Action, v *Var) int {
	n := 0
	var expr func(e Expr)
	expr = func(e Expr) {
		switch x := e.(type) {
		case *VarRef:
			if x.Var == v {
				n++
			}
		case *Deref:
			for _, c := range x.Cells {
				if c == v {
					n++
				}
			}
			expr(x.Addr)
		case *Unary:
			expr(x.X)
		case *Binary:
			expr(x.X)
			expr(x.Y)
		case *Cast:
			expr(x.X)
		}
	}
	switch x := act.(type) {
	case *Assign:
		expr(x.Dst)
		expr(x.Src)
	case *Assume:
		expr(x.Cond)
	case *CheckAct:
		expr(x.Cond)
	case *Havoc:
		expr(x.Dst)
	case *Acquire:
		expr(x.Lock)
	case *Release:
		expr(x.Lock)
	}
	return n
}

const threadPrelude = "#include <pthread.h>\n#include <assert.h>\n"

// ---- shared accesses ----

func TestOneSharedAccessPerLocation(t *testing.T) {
	p := lower(t, threadPrelude+`
int g, h;
int arr[4];
void *thr(void *a) { g = g + h; arr[g] = arr[h] + 1; return 0; }
int main() { pthread_t t; pthread_create(&t, 0, thr, 0); g++; return 0; }
`)
	g := varNamed(t, p, "g")
	h := varNamed(t, p, "h")
	cell := varNamed(t, p, "arr[*]")
	if !cell.Summary || cell.Scope != Global {
		t.Errorf("arr cell: summary=%v scope=%v, want summary global", cell.Summary, cell.Scope)
	}
	reads, writes := 0, 0
	for _, l := range p.Locs {
		n := mentions(l.Act, g) + mentions(l.Act, h) + mentions(l.Act, cell)
		if n > 1 {
			t.Errorf("%v: %s touches %d shared variables", l, ActionString(l.Act), n)
		}
		if a, ok := l.Act.(*Assign); ok {
			if r, ok := a.Dst.(*VarRef); ok && r.Var == g {
				writes++
			}
			if r, ok := a.Src.(*VarRef); ok && r.Var == g {
				reads++
			}
		}
	}
	// g = g + h (thr), g++ (main), arr[g] reads g: 3 reads, 2 writes.
	if reads != 3 || writes != 2 {
		t.Errorf("g: %d reads %d writes, want 3 and 2\n%s", reads, writes, dump(p))
	}
}

// ---- control flow ----

func TestBranchesAreAssumes(t *testing.T) {
	p := lower(t, `
int f(int);
int main() {
	int x = __VERIFIER_nondet_int(), y = 0;
	if (x > 0 && x < 10) y = 1; else y = 2;
	y = x > 5 ? 3 : 4;
	y = x || y;
	return y;
}
int __VERIFIER_nondet_int(void);
`)
	assumes := locsOf[*Assume](p, "main")
	// x>0 / x<=0, x<10 / x>=10, x>5 / x<=5, x!=0 / x==0, y!=0 / y==0
	if len(assumes) != 10 {
		t.Errorf("got %d assumes, want 10\n%s", len(assumes), dump(p))
	}
	for _, l := range assumes {
		if b, ok := l.Act.(*Assume).Cond.(*Binary); ok && (b.Op == LAnd || b.Op == LOr) {
			t.Errorf("%v: && / || not lowered to control flow: %s", l, ActionString(l.Act))
		}
	}
}

func TestLoopsSwitchGoto(t *testing.T) {
	p := lower(t, `
int main() {
	int i, s = 0;
	for (i = 0; i < 3; i++) { if (i == 1) continue; s += i; }
	while (1) { if (s > 2) break; s++; }
	do { s--; } while (s > 0);
	switch (s) {
	case 0: s = 10;
	case 1: s = 11; break;
	case 2 ... 4: s = 12; break;
	default: s = 13;
	}
	if (s == 11) goto out;
	s = 0;
out:
	return s;
}
`)
	// The fallthrough from case 0 reaches the assignment s = 11: find
	// the location assigning 10 and check its successor assigns 11.
	found := false
	for _, l := range locsOf[*Assign](p, "main") {
		a := l.Act.(*Assign)
		if k, ok := a.Src.(*Const); ok && k.Value == 10 {
			for _, s := range l.Succs {
				for _, s2 := range append([]*Loc{s}, s.Succs...) {
					if a2, ok := s2.Act.(*Assign); ok {
						if k2, ok := a2.Src.(*Const); ok && k2.Value == 11 {
							found = true
						}
					}
				}
			}
		}
	}
	if !found {
		t.Errorf("no fallthrough from case 0 to case 1\n%s", dump(p))
	}
	// The range case produces a && condition (allowed in assumes of
	// case ranges): at least one assume with LAnd.
	rng := false
	for _, l := range locsOf[*Assume](p, "main") {
		if b, ok := l.Act.(*Assume).Cond.(*Binary); ok && b.Op == LAnd {
			rng = true
		}
	}
	if !rng {
		t.Errorf("case range not lowered")
	}
	// Reachability: the exit of main is reachable.
	if !reachable(p.Templates[0])[p.Templates[0].Exit] {
		t.Errorf("exit unreachable")
	}
}

// ---- checks ----

func TestCheckKinds(t *testing.T) {
	p := lower(t, `
#include <assert.h>
void reach_error(void);
int a[10];
unsigned u;
int main() {
	int i = __VERIFIER_nondet_int(), j = __VERIFIER_nondet_int();
	a[i] = 1;          /* bounds */
	a[3] = 2;          /* constant in range: no check */
	j = i + j;         /* overflow */
	u = u + 1;         /* unsigned: no check */
	j = i / j;         /* div by zero + overflow (INT_MIN / -1) */
	j = -i;            /* overflow */
	assert(j != 5);    /* assert */
	if (j == 7) reach_error();
	return 0;
}
int __VERIFIER_nondet_int(void);
`)
	if n := len(checksOf(p, BoundsCheck)); n != 1 {
		t.Errorf("%d bounds checks, want 1\n%s", n, dump(p))
	}
	if n := len(checksOf(p, OverflowCheck)); n != 3 {
		t.Errorf("%d overflow checks, want 3 (+, /, unary -)\n%s", n, dump(p))
	}
	if n := len(checksOf(p, DivByZeroCheck)); n != 1 {
		t.Errorf("%d div checks, want 1", n)
	}
	asserts := checksOf(p, AssertCheck)
	if len(asserts) != 2 {
		t.Fatalf("%d assert checks, want 2", len(asserts))
	}
	for _, c := range p.Checks {
		if c.Func != "main" || c.Pos.Line == 0 || c.Msg == "" {
			t.Errorf("check %d lacks position/function/message: %+v", c.ID, c)
		}
	}
	// reach_error's check is an assert with a false condition.
	last := asserts[1]
	if k, ok := last.Loc.Act.(*CheckAct).Cond.(*Const); !ok || k.Value != 0 {
		t.Errorf("reach_error check cond = %s", ExprString(last.Loc.Act.(*CheckAct).Cond))
	}
	// The overflow check of i + j is placed right before the location
	// computing it, in mathematical integers.
	for _, c := range checksOf(p, OverflowCheck) {
		if strings.Contains(c.Msg, "i + j") {
			next := c.Loc.Succs[0]
			a, ok := next.Act.(*Assign)
			if !ok || !strings.Contains(ExprString(a.Src), "+") {
				t.Errorf("overflow check not before the addition: %s", ActionString(next.Act))
			}
			if !strings.Contains(ExprString(c.Loc.Act.(*CheckAct).Cond), "int∞") {
				t.Errorf("overflow condition not in MathInt: %s", ExprString(c.Loc.Act.(*CheckAct).Cond))
			}
		}
	}
}

func TestVerifierAssertDefined(t *testing.T) {
	// SV-COMP style: __VERIFIER_assert defined in the file is still the
	// builtin check.
	p := lower(t, `
void reach_error() { __assert_fail("0", "f.c", 3, "reach_error"); }
void __assert_fail(const char *, const char *, unsigned, const char *);
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: {reach_error();abort();} } return; }
void abort(void);
int x;
int main() { __VERIFIER_assert(x == 0); return 0; }
`)
	as := checksOf(p, AssertCheck)
	if len(as) != 1 || !strings.Contains(as[0].Msg, "x == 0") {
		t.Errorf("want one assertion check on x == 0, got %+v", as)
	}
}

// ---- threads ----

func TestUnboundedTemplates(t *testing.T) {
	p := lower(t, threadPrelude+`
void *once(void *a) { return 0; }
void *loop(void *a) { return 0; }
void *twice(void *a) { return 0; }
void *child(void *a) { return 0; }
void *parent(void *a) { pthread_t c; pthread_create(&c, 0, child, 0); return 0; }
int main() {
	pthread_t t[4]; int i;
	pthread_create(&t[0], 0, once, 0);
	for (i = 0; i < 4; i++) pthread_create(&t[i], 0, loop, 0);
	pthread_create(&t[1], 0, twice, 0);
	pthread_create(&t[2], 0, twice, 0);
	pthread_create(&t[3], 0, parent, 0);
	return 0;
}
`)
	want := map[string]bool{"once": false, "loop": true, "twice": true, "parent": false, "child": true}
	for name, unb := range want {
		tm := tmplNamed(t, p, name)
		if tm.Unbounded != unb || !tm.Spawned {
			t.Errorf("%s: unbounded=%v spawned=%v, want unbounded=%v", name, tm.Unbounded, tm.Spawned, unb)
		}
	}
	if p.Templates[0].Name != "main" || p.Templates[0].Unbounded {
		t.Errorf("Templates[0] must be main, bounded")
	}
}

func TestSpawnThroughPointerAndParam(t *testing.T) {
	p := lower(t, threadPrelude+`
int data;
void *w1(void *a) { int *p = a; *p = 1; return 0; }
void *w2(void *a) { return 0; }
void start(void *(*f)(void *), void *arg) { pthread_t t; pthread_create(&t, 0, f, arg); }
int main() { start(w1, &data); return 0; }
`)
	sp := locsOf[*Spawn](p, "main")
	if len(sp) != 1 {
		t.Fatalf("%d spawns", len(sp))
	}
	s := sp[0].Act.(*Spawn)
	if len(s.Targets) != 1 || s.Targets[0].Name != "w1" {
		var names []string
		for _, x := range s.Targets {
			names = append(names, x.Name)
		}
		t.Errorf("targets %v, want [w1]", names)
	}
	w1 := tmplNamed(t, p, "w1")
	if w1.Param == nil {
		t.Fatalf("w1 has no param")
	}
	// The store *p = 1 in w1 reaches data's cell through the parameter.
	stores := 0
	for _, l := range locsOf[*Assign](p, "w1") {
		if d, ok := l.Act.(*Assign).Dst.(*Deref); ok {
			if len(d.Cells) != 1 || d.Cells[0].Mem.Name != "data" {
				t.Errorf("store cells %v", d.Cells)
			}
			stores++
		}
	}
	if stores != 1 {
		t.Errorf("%d stores in w1", stores)
	}
}

func TestLocksThroughPointers(t *testing.T) {
	p := lower(t, threadPrelude+`
pthread_mutex_t m1 = PTHREAD_MUTEX_INITIALIZER, m2;
struct S { int x; pthread_mutex_t lk; } s;
void lock(pthread_mutex_t *m) { pthread_mutex_lock(m); }
void unlock(pthread_mutex_t *m) { pthread_mutex_unlock(m); }
pthread_cond_t c;
int main() {
	pthread_mutex_init(&m2, 0);
	lock(&m1); unlock(&m1);
	lock(&m2); pthread_cond_wait(&c, &m2); unlock(&m2);
	lock(&s.lk); unlock(&s.lk);
	return 0;
}
`)
	acq := locsOf[*Acquire](p, "main")
	rel := locsOf[*Release](p, "main")
	if len(acq) != 4 || len(rel) != 4 {
		t.Fatalf("%d acquires %d releases, want 4 and 4\n%s", len(acq), len(rel), dump(p))
	}
	want := []string{"m1", "m2", "m2", "s.lk"}
	for i, l := range acq {
		d := l.Act.(*Acquire).Lock.(*Deref)
		if len(d.Cells) != 1 || d.Cells[0].Name != want[i] || d.Cells[0].Summary {
			t.Errorf("acquire %d: cells %v, want exactly non-summary %s", i, d.Cells, want[i])
		}
	}
}

func TestEscapingLocals(t *testing.T) {
	p := lower(t, threadPrelude+`
void *thr(void *a) { int *p = a; (*p)++; int own; int *q = &own; *q = 1; return 0; }
void *multi(void *a) { int loc; int *pl = &loc; pthread_t t; pthread_create(&t, 0, thr, pl); return 0; }
int main() {
	int shared = 0, priv = 0; int *pp = &priv;
	pthread_t t, u;
	pthread_create(&t, 0, thr, &shared);
	*pp = 2;
	for (int i = 0; i < 2; i++) pthread_create(&u, 0, multi, 0);
	return 0;
}
`)
	check := func(name string, scope Scope, summary bool) {
		t.Helper()
		v := varNamed(t, p, name)
		if v.Scope != scope || v.Summary != summary {
			t.Errorf("%s: scope=%v summary=%v, want %v %v", name, scopeName(v.Scope), v.Summary, scopeName(scope), summary)
		}
	}
	check("main.shared", Global, false) // escapes, main has one instance
	check("main.priv", Local, false)    // address taken, never escapes
	check("thr.own", Local, false)
	check("multi.loc", Global, true) // escapes from an unbounded template
}

// ---- memory ----

func TestAggregatesAndInitializers(t *testing.T) {
	p := lowerModel(t, `
struct P { int a; char b[3]; struct { short c; } in; } gp = { 1, "hi", { 7 } };
union U { int i; char c[4]; } gu;
int *gptr = &gp.a;
const char *msg = "text";
static int counter = 5;
long gl;
int f(int x) { static int calls; calls++; return x + calls; }
int main() {
	struct P lp = gp;
	struct P arr[3] = { [1] = { .a = 4 } };
	int (*fp)(int) = f;
	gu.i = 3;
	gl = 1;
	*gptr = msg[1];
	lp.b[1] = gu.c[2];
	counter = fp(lp.a) + arr[1].a + sizeof(struct P) + ({ int z = 2; z * 3; });
	return 0;
}
`, LP64)
	if v := varNamed(t, p, "counter"); v.Init == nil || v.Init.(*Const).Value != 5 {
		t.Errorf("counter init %v", v.Init)
	}
	if v := varNamed(t, p, "gl"); v.Type != Int64 {
		t.Errorf("long in LP64 is %v", v.Type)
	}
	if v := varNamed(t, p, "f.calls"); v.Scope != Global || v.IsCell() {
		t.Errorf("static local: scope %v cell %v", v.Scope, v.IsCell())
	}
	var gpObj *Object
	for _, o := range p.Objects {
		if o.Name == "gp" {
			gpObj = o
		}
	}
	if gpObj == nil {
		t.Fatal("no gp object")
	}
	inits := map[int64]int64{}
	for _, iv := range gpObj.Init {
		inits[iv.Offset] = iv.Value.(*Const).Value
	}
	if inits[0] != 1 || inits[4] != 'h' || inits[5] != 'i' || inits[8] != 7 {
		t.Errorf("gp init %v", inits)
	}
	if v := varNamed(t, p, "gptr"); v.Init == nil {
		t.Errorf("gptr has no initial address")
	} else if a, ok := v.Init.(*AddrOf); !ok || a.Object != gpObj {
		t.Errorf("gptr init %s", ExprString(v.Init))
	}
	// Union members overlap: a store to gu.i and a load of gu.c[2] touch
	// both the i cell and the c cell.
	for _, l := range locsOf[*Assign](p, "main") {
		a := l.Act.(*Assign)
		for _, e := range []Expr{a.Dst, a.Src} {
			if d, ok := e.(*Deref); ok && len(d.Cells) > 0 && d.Cells[0].Mem.Name == "gu" && len(d.Cells) < 2 {
				t.Errorf("%v: union access with cells %v", l, d.Cells)
			}
		}
	}
	// the indirect call was resolved to f and inlined: f.calls is updated
	if len(locsOf[*Assign](p, "main")) == 0 {
		t.Fatal("no assignments")
	}
}

func TestHeapAndUnknownCalls(t *testing.T) {
	p := lower(t, `
#include <stdlib.h>
struct N { int v; struct N *next; };
void ext(int *p);
int main() {
	struct N *n = malloc(sizeof(struct N));
	n->next = malloc(sizeof *n);
	n->next->v = 1;
	int k = 0;
	ext(&k);
	free(n);
	return k;
}
`)
	al := locsOf[*Alloc](p, "main")
	if len(al) != 2 {
		t.Fatalf("%d allocs", len(al))
	}
	for _, l := range al {
		for _, c := range l.Act.(*Alloc).Site.Cells {
			if !c.Summary || c.Scope != Global {
				t.Errorf("heap cell %s not global summary", c.Name)
			}
		}
	}
	if len(p.Assumptions) == 0 || !strings.Contains(p.Assumptions[0].Msg, "ext") {
		t.Errorf("unknown call not recorded: %v", p.Assumptions)
	}
	// ext(&k) havocs k's cell.
	kc := varNamed(t, p, "main.k")
	hv := false
	for _, l := range locsOf[*Havoc](p, "main") {
		if mentions(l.Act, kc) > 0 {
			hv = true
		}
	}
	if !hv {
		t.Errorf("ext(&k) does not havoc k\n%s", dump(p))
	}
}

func TestRecursionSummarized(t *testing.T) {
	p := lower(t, `
#include <assert.h>
int depth;
int fact(int n) { depth++; assert(n >= 0); if (n <= 1) return 1; return n * fact(n - 1); }
int main() { int r = fact(5); return r; }
`)
	if len(p.Assumptions) == 0 || !strings.Contains(p.Assumptions[0].Msg, "recursive") {
		t.Errorf("recursion not recorded: %v", p.Assumptions)
	}
	// The assertion exists twice: in the inlined first call and in the
	// generic instance covering deeper calls.
	if n := len(checksOf(p, AssertCheck)); n != 2 {
		t.Errorf("%d assertion checks, want 2\n%s", n, dump(p))
	}
	// The summary havocs depth (written by the callee).
	depth := varNamed(t, p, "depth")
	hv := false
	for _, l := range locsOf[*Havoc](p, "main") {
		if mentions(l.Act, depth) > 0 {
			hv = true
		}
	}
	if !hv {
		t.Errorf("summary does not havoc depth\n%s", dump(p))
	}
}

// ---- library ----

func TestNondetAtomicOutput(t *testing.T) {
	p := lower(t, `
#include <stdio.h>
_Bool __VERIFIER_nondet_bool(void);
unsigned char __VERIFIER_nondet_uchar(void);
void __VERIFIER_atomic_begin(void);
void __VERIFIER_atomic_end(void);
int x;
void __VERIFIER_atomic_inc() { x++; if (x > 3) return; x++; }
int main() {
	_Bool b = __VERIFIER_nondet_bool();
	unsigned char c = __VERIFIER_nondet_uchar();
	__VERIFIER_atomic_inc();
	__VERIFIER_atomic_begin(); x = x + b; __VERIFIER_atomic_end();
	printf("x=%d c=%u\n", x, c);
	return 0;
}
`)
	hv := locsOf[*Havoc](p, "main")
	if len(hv) < 2 {
		t.Errorf("%d havocs", len(hv))
	}
	// _Bool range: an assume t <= 1 follows the havoc.
	bounded := false
	for _, s := range hv[0].Succs {
		if strings.Contains(ActionString(s.Act), "<= 1") && len(s.Succs) > 0 {
			bounded = true
		}
	}
	if !bounded {
		t.Errorf("bool havoc not bounded:\n%s", dump(p))
	}
	begins := locsOf[*AtomicBegin](p, "main")
	ends := locsOf[*AtomicEnd](p, "main")
	if len(begins) != 2 || len(ends) != 2 {
		t.Errorf("%d begins %d ends", len(begins), len(ends))
	}
	// Every access to x is inside an atomic section, except the load
	// for printf.
	xv := varNamed(t, p, "x")
	outside, inside := 0, 0
	for _, l := range p.Templates[0].Locs {
		if mentions(l.Act, xv) > 0 {
			if l.Atomic {
				inside++
			} else {
				outside++
			}
		}
	}
	if outside != 1 || inside != 7 {
		t.Errorf("accesses to x: %d outside, %d inside atomic sections; want 1 and 7\n%s", outside, inside, dump(p))
	}
	outs := locsOf[*Output](p, "main")
	if len(outs) != 1 || outs[0].Act.(*Output).Format != "x=%d c=%u\n" || len(outs[0].Act.(*Output).Args) != 2 {
		t.Errorf("printf lowering: %v", outs)
	}
}

func TestAtomicBuiltins(t *testing.T) {
	p := lower(t, `
int v;
int main() {
	int old = __sync_fetch_and_add(&v, 2);
	int ok = __sync_bool_compare_and_swap(&v, 2, 5);
	return old + ok;
}
`)
	if len(locsOf[*AtomicBegin](p, "main")) != 2 {
		t.Errorf("atomic builtins not in atomic sections\n%s", dump(p))
	}
}

// ---- errors ----

func TestErrors(t *testing.T) {
	cases := []struct{ src, want string }{
		{"int main() { int x = ; }", "test.c:1:"},
		{"int main() { void *p = &&lbl; lbl: return 0; }", "test.c:1:"},
		{"int main() { " + strings.Repeat("(", 2000) + "0" + strings.Repeat(")", 2000) + "; }", "nested deeper"},
		{"#include \"/dev/zero\"\nint main() { return 0; }", "test.c:1:"},
		{expMacros(40) + "int main() { int x = a40; return 0; }", "error:"},
		// cc's parser used to loop forever on a '*' at the end of input
		{"int main() { return 0; }\nint *", "test.c:2:1: error: unexpected end of input"},
		{"struct S { int a[3]; struct \x00 *", "test.c:"},
		{"#include <nonexistent.h>\n*a) {", "test.c:1:"},
		// Cleanup attributes (cleanup.go; supported cases: TestCleanupAttribute):
		// jumps into a cleanup variable's scope past its declaration,
		{"static void done(int *p) { }\nint main(int c) {\n  if (c) goto in;\n  { __attribute__((cleanup(done))) int x = 5;\n  in: x++; }\n  return 0;\n}", "test.c:3:10: error: unsupported: goto in jumps into the scope of a variable with a cleanup attribute"},
		{"static void done(int *p) { }\nint main(int c) {\n  { __attribute__((cleanup(done))) int x = 5;\n  in: x++;\n  }\n  goto in;\n}", "test.c:6:3: error: unsupported: goto in jumps into the scope"},
		{"static void done(int *p) { }\nint main(int c) {\n  switch (c) {\n    __attribute__((cleanup(done))) int x;\n  case 1: x = 2;\n  }\n  return 0;\n}", "test.c:5:3: error: unsupported: case label jumps into the scope of a variable with a cleanup attribute"},
		// cleanup functions the builtin models need a C call for, what is not a function,
		{"#include <stdlib.h>\nint main(void) {\n  __attribute__((cleanup(free))) char *p = 0;\n  return 0;\n}", "test.c:3:18: error: unsupported: cleanup function free is a library function chorus models specially"},
		{"int main(void) {\n  int f = 0;\n  __attribute__((cleanup(f))) int x = 0;\n  return 0;\n}", "test.c:3:18: error: cleanup attribute's argument is not a function: f"},
		// an aggregate statement expression whose cleanups run after its value is taken.
		{"struct s { int a; };\nstatic void done(struct s *p) { p->a = 0; }\nint main(void) {\n  struct s v = ({ __attribute__((cleanup(done))) struct s t = {1}; t; });\n  return v.a;\n}", "test.c:4:17: error: unsupported: statement expression of aggregate type with a cleanup variable"},
		// asm goto may jump to a C label; a template calling a C function by name hides its effects (asm.go).
		{"int main(void) {\n  asm goto(\"jmp %l0\" :::: out);\n  return 0;\nout:\n  return 1;\n}", "test.c:2:3: error: unsupported: asm goto"},
		{"int g;\nvoid f(void) { g = 1; }\nint main(void) {\n  __asm__ volatile(\"call f\");\n  return g;\n}", "error: unsupported: inline assembly naming function f"},
	}
	for _, c := range cases {
		_, err := Build("test.c", []byte(c.src), Options{DataModel: ILP32})
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%q: error %v is not *Error", c.src[:min(len(c.src), 40)], err)
			continue
		}
		if !strings.Contains(e.Error(), c.want) || !strings.Contains(e.Error(), "error:") {
			t.Errorf("%q: error %q, want %q", c.src[:min(len(c.src), 40)], e.Error(), c.want)
		}
	}
}

func TestDataModels(t *testing.T) {
	src := "long g; int main() { g = 1; return sizeof(void*); }"
	p32 := lower(t, src)
	p64 := lowerModel(t, src, LP64)
	if varNamed(t, p32, "g").Type.Bits != 32 || varNamed(t, p64, "g").Type.Bits != 64 {
		t.Errorf("long widths %v / %v", varNamed(t, p32, "g").Type, varNamed(t, p64, "g").Type)
	}
	for _, s := range []string{"ILP32", "lp64"} {
		if _, err := ParseDataModel(s); err != nil {
			t.Error(err)
		}
	}
	if _, err := ParseDataModel("x"); err == nil {
		t.Error("ParseDataModel(x) succeeded")
	}
	dir := t.TempDir()
	yml := filepath.Join(dir, "t.yml")
	os.WriteFile(yml, []byte("format_version: '2.0'\ninput_files: 'a.i'\noptions:\n  language: C\n  data_model: LP64\n"), 0o644)
	if m, err := DataModelFromYML(yml); err != nil || m != LP64 {
		t.Errorf("DataModelFromYML = %v, %v", m, err)
	}
	os.WriteFile(yml, []byte("options:\n  language: C\n"), 0o644)
	if m, err := DataModelFromYML(yml); err != nil || m != ILP32 {
		t.Errorf("DataModelFromYML default = %v, %v", m, err)
	}
}

func TestPrinters(t *testing.T) {
	p := lower(t, threadPrelude+`int g; void *t(void *a) { g = 1; return 0; }
int main() { pthread_t h; pthread_create(&h, 0, t, 0); assert(g < 2); return 0; }`)
	var sb strings.Builder
	p.WriteDot(&sb)
	if !strings.Contains(sb.String(), "subgraph cluster_1") || !strings.Contains(sb.String(), "->") {
		t.Errorf("dot output:\n%s", sb.String())
	}
	txt := dump(p)
	for _, w := range []string{"template main", "template t spawned", "init_globals", "spawn(t", "check 0 assert"} {
		if !strings.Contains(txt, w) {
			t.Errorf("text output lacks %q:\n%s", w, txt)
		}
	}
}

func TestPointerBoundsChecks(t *testing.T) {
	p := lower(t, `
int a[8], b[4];
int sum(int *p, int n) { int s = 0; for (int i = 0; i < n; i++) s += p[i]; return s; }
int main() {
	int *q = a;
	int k = __VERIFIER_nondet_int();
	q[k] = 1;          /* checked against a */
	int *r = k ? a : b;
	r[k] = 2;          /* a or b: no check */
	return sum(a, 8) + sum(b, 4);
}
int __VERIFIER_nondet_int(void);
`)
	var msgs []string
	for _, c := range checksOf(p, BoundsCheck) {
		msgs = append(msgs, c.Msg)
		if ca, ok := c.Loc.Act.(*CheckAct); !ok || len(c.Loc.Succs) != 1 {
			t.Errorf("check %d: bad location", c.ID)
		} else if !strings.Contains(ExprString(ca.Cond), "< 8") && !strings.Contains(ExprString(ca.Cond), "< 4") {
			t.Errorf("check %d: cond %s", c.ID, ExprString(ca.Cond))
		}
	}
	// q[k], p[i] in sum(a) and p[i] in sum(b): 3 checks.
	if len(msgs) != 3 {
		t.Errorf("bounds checks: %q\n%s", msgs, dump(p))
	}
}

func TestC11Atomic(t *testing.T) {
	p := lower(t, `
_Atomic int cnt;
int plain;
int main() { cnt++; cnt += 2; plain++; return cnt; }
`)
	if n := len(locsOf[*AtomicBegin](p, "main")); n != 2 {
		t.Errorf("%d atomic sections, want 2 (cnt++ and cnt += 2)\n%s", n, dump(p))
	}
	c := varNamed(t, p, "cnt")
	for _, l := range p.Locs {
		if mentions(l.Act, c) > 0 {
			if a, ok := l.Act.(*Assign); ok {
				if _, isStore := a.Dst.(*Deref); isStore && !l.Atomic {
					t.Errorf("%v: store to cnt outside an atomic section", l)
				}
			}
		}
	}
}

func TestIndirectCallsAndExpressions(t *testing.T) {
	p := lower(t, `
int twice(int x) { return 2 * x; }
int inc(int x) { return x + 1; }
int unused(int x, int y) { return x - y; }
int (*table[2])(int) = { twice, inc };
int main() {
	int k = __VERIFIER_nondet_int() & 1;
	int r = table[k](3);           /* dispatch over twice and inc */
	int c = (r++, r + 1);          /* comma */
	int s = ({ int z = c; z * 2; }); /* statement expression */
	r += (int)sizeof(long) + (short)s;
	return r;
}
int __VERIFIER_nondet_int(void);
`)
	// The dispatch compares the pointer with both candidates; unused has
	// another arity and is not a candidate.
	cands := map[string]bool{}
	for _, l := range locsOf[*Assume](p, "main") {
		if b, ok := l.Act.(*Assume).Cond.(*Binary); ok && b.Op == Eq {
			if a, ok := b.Y.(*AddrOf); ok && a.Object.Kind == FuncObject {
				cands[a.Object.Func] = true
			}
		}
	}
	if len(cands) != 2 || !cands["twice"] || !cands["inc"] {
		t.Errorf("dispatch candidates %v\n%s", cands, dump(p))
	}
	// Both bodies are inlined: their parameters exist as registers.
	varNamed(t, p, "twice.x")
	varNamed(t, p, "inc.x")
	// table is initialized with function addresses and the load through
	// it sees them (points-to of initial values).
	for _, l := range locsOf[*Assign](p, "main") {
		if d, ok := l.Act.(*Assign).Src.(*Deref); ok && d.Type.Kind == PtrType {
			if len(d.Cells) != 1 || d.Cells[0].Mem.Name != "table" {
				t.Errorf("load of table: cells %v", d.Cells)
			}
		}
	}
}

// expMacros defines a0 .. an, each expanding to two copies of the
// previous one: 2^n tokens.
func expMacros(n int) string {
	var sb strings.Builder
	sb.WriteString("#define a0 1+\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&sb, "#define a%d a%d a%d\n", i, i-1, i-1)
	}
	return sb.String()
}

func TestBudgetSummaries(t *testing.T) {
	src := `
#include <assert.h>
int g;
void work(int v) { int i; for (i = 0; i < v; i++) { g += i; if (g > 100) g = 0; } assert(g <= 100); }
int main() {
	work(1); work(2); work(3); work(4); work(5); work(6); work(7); work(8);
	work(9); work(10); work(11); work(12); work(13); work(14); work(15); work(16);
	return g;
}
`
	p, err := Build("test.c", []byte(src), Options{DataModel: ILP32, MaxLocs: 400})
	if err != nil {
		t.Fatal(err)
	}
	if err := Sanity(p); err != nil {
		t.Fatal(err)
	}
	full := lower(t, src)
	if len(p.Locs) >= len(full.Locs) {
		t.Errorf("budget did not shrink the program: %d vs %d locations", len(p.Locs), len(full.Locs))
	}
	budget := false
	for _, a := range p.Assumptions {
		if strings.Contains(a.Msg, "budget") {
			budget = true
		}
	}
	if !budget {
		t.Errorf("no budget assumption recorded: %v", p.Assumptions)
	}
	// The assertion still exists, once in the shared body of work, whose
	// later calls return to their own call sites and whose Mod has g.
	if len(checksOf(p, AssertCheck)) == 0 {
		t.Errorf("assertion lost by sharing")
	}
	gv := varNamed(t, p, "g")
	var work *Body
	for _, bd := range p.Bodies {
		if bd.Func == "work" {
			work = bd
		}
	}
	if work == nil || len(work.Calls) < 2 {
		t.Fatalf("no shared body of work with several calls: %v", p.Bodies)
	}
	if !slices.Contains(work.Mod, gv) {
		t.Errorf("Mod of work lacks g: %v", work.Mod)
	}
}

func TestMemOps(t *testing.T) {
	p := lower(t, `
#include <string.h>
struct S { int a; int *p; };
int x;
int main() {
	struct S s1, s2; int arr[40]; char buf[8];
	s1.a = 1; s1.p = &x;
	memcpy(&s2, &s1, sizeof s1);
	memset(arr, 0, sizeof arr);
	memset(buf, 'a', 3);   /* not zero: an unknown call */
	*s2.p = 3;
	return arr[3];
}
`)
	// The store through s2.p reaches x: memcpy copied the pointer.
	xv := varNamed(t, p, "x")
	ok := false
	for _, l := range locsOf[*Assign](p, "main") {
		if d, isD := l.Act.(*Assign).Dst.(*Deref); isD && len(d.Cells) == 1 && d.Cells[0] == xv {
			ok = true
		}
	}
	if !ok {
		t.Errorf("store through the copied pointer does not reach x\n%s", dump(p))
	}
	unknown := 0
	for _, a := range p.Assumptions {
		if strings.Contains(a.Msg, "memset") && !a.Note {
			unknown++
		}
		if strings.Contains(a.Msg, "memcpy") {
			t.Errorf("memcpy with a constant size treated as unknown: %s", a.Msg)
		}
	}
	if unknown != 1 {
		t.Errorf("memset with a non-zero value: %d assumptions, want 1", unknown)
	}
}

func TestCompoundLiteralAndVarargs(t *testing.T) {
	p := lower(t, `
#include <stdarg.h>
int sum(int n, ...) { va_list ap; va_start(ap, n); int s = 0; for (int i = 0; i < n; i++) s += va_arg(ap, int); va_end(ap); return s; }
int main() { int *q = (int[]){1, 2, 3}; struct { int a, b; } s = (struct { int a, b; }){ 4, 5 }; return sum(2, q[1], s.b); }
`)
	// q gets the literal's address (not a value loaded from it).
	q := varNamed(t, p, "main.q")
	for _, l := range locsOf[*Assign](p, "main") {
		a := l.Act.(*Assign)
		if r, ok := a.Dst.(*VarRef); ok && r.Var == q {
			if _, ok := a.Src.(*AddrOf); !ok {
				t.Errorf("q := %s, want the literal's address", ExprString(a.Src))
			}
		}
	}
}

func TestSanityDetects(t *testing.T) {
	src := threadPrelude + `int g; int *gp;
void *thr(void *a) { int l = 1; g = g + l; return 0; }
int main() { pthread_t h; int x = 0; gp = &x; pthread_create(&h, 0, thr, 0); assert(g < 5); return x; }`
	corruptions := map[string]func(p *Program){
		"pred": func(p *Program) { l := p.Locs[1]; l.Preds = nil },
		"exit": func(p *Program) {
			p.Templates[0].Exit.Succs = []*Loc{p.Locs[0]}
			p.Locs[0].Preds = append(p.Locs[0].Preds, p.Templates[0].Exit)
		},
		"ids": func(p *Program) { p.Locs[2].ID = 99 },
		"check": func(p *Program) {
			p.Checks[0].Loc = p.Locs[0]
		},
		"atomic": func(p *Program) { p.Locs[3].Atomic = true },
		"two shared": func(p *Program) {
			g := varNamed(t, p, "g")
			for _, l := range p.Locs {
				if a, ok := l.Act.(*Assign); ok {
					if r, ok := a.Dst.(*VarRef); ok && r.Var == g {
						a.Src = &Binary{Op: Add, X: &VarRef{Var: g}, Y: &Const{Type: g.Type, Value: 1}, Type: g.Type}
					}
				}
			}
		},
		"foreign local": func(p *Program) {
			l := varNamed(t, p, "thr.l")
			a := p.Templates[0].Locs[1]
			a.Act = &Assign{Dst: &VarRef{Var: l}, Src: &Const{Type: l.Type}}
		},
		"empty cells": func(p *Program) {
			for _, l := range p.Locs {
				if a, ok := l.Act.(*Assign); ok {
					if d, ok := a.Dst.(*Deref); ok {
						d.Cells = nil
						return
					}
				}
			}
		},
		"types": func(p *Program) {
			for _, l := range p.Locs {
				if a, ok := l.Act.(*Assign); ok {
					a.Src = &Const{Type: Type{Kind: PtrType, Bits: 32}}
					return
				}
			}
		},
	}
	for name, corrupt := range corruptions {
		p := lower(t, src)
		corrupt(p)
		if err := Sanity(p); err == nil {
			t.Errorf("%s: corruption not detected", name)
		}
	}
}

func TestRWLock(t *testing.T) {
	p := lower(t, threadPrelude+`
pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
int d;
void *w(void *a) { pthread_rwlock_wrlock(&rw); d++; pthread_rwlock_unlock(&rw); return 0; }
int main() { pthread_t t; pthread_create(&t, 0, w, 0); pthread_rwlock_rdlock(&rw); int x = d; pthread_rwlock_unlock(&rw); return x; }
`)
	if n := len(locsOf[*Acquire](p, "w")); n != 1 {
		t.Errorf("writer: %d acquires", n)
	}
	if n := len(locsOf[*Acquire](p, "main")); n != 0 {
		t.Errorf("reader: %d acquires, want 0 (readers take nothing)", n)
	}
	rw := varNamed(t, p, "rw")
	if rw.Summary || rw.Type != Int32 {
		t.Errorf("rwlock word %v summary=%v", rw.Type, rw.Summary)
	}
}

func TestAsmOrderingOnly(t *testing.T) {
	for tmpl, want := range map[string]bool{
		"": true, " ": true, "pause": true, "rep; nop": true, `mfence\n\t`: true, "dmb ish": true,
		"movl $1, %0": false, "lock; xchgl %0, %1": false, "nop; movl $1, g": false, "call f": false,
	} {
		if got := orderingOnly(tmpl); got != want {
			t.Errorf("orderingOnly(%q) = %v, want %v", tmpl, got, want)
		}
	}
}
