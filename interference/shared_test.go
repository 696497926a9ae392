package interference

import (
	"strings"
	"testing"

	"chorus/cfg"
)

// lockedCalls lowers a program whose thread calls touch() once with m
// held and then either again with m held or without it, with every call
// going to the template's shared body of touch.
func lockedCalls(t *testing.T, second string) (*cfg.Program, *Engine) {
	t.Helper()
	src := `
#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int g;
void touch(void) { g = g + 1; }
void *thr(void *arg) {
	pthread_mutex_lock(&m); touch(); pthread_mutex_unlock(&m);
	` + second + `
	return 0;
}
int main(void) {
	pthread_t t;
	pthread_create(&t, 0, thr, 0);
	pthread_create(&t, 0, thr, 0);
	return 0;
}
`
	p, err := cfg.Build("shared.c", []byte(src), cfg.Options{ShareAll: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := cfg.Sanity(p); err != nil {
		t.Fatal(err)
	}
	if len(p.Bodies) != 1 || len(p.Bodies[0].Calls) != 2 {
		t.Fatalf("want one shared body of touch with two calls, got %d bodies", len(p.Bodies))
	}
	e, err := New(p, fakeCells{p})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.Close)
	return p, e
}

// writeOf returns the location writing the variable named name, and the
// variable named m.
func writeOfG(t *testing.T, p *cfg.Program) (*cfg.Loc, *cfg.Var) {
	t.Helper()
	var w *cfg.Loc
	var m *cfg.Var
	for _, v := range p.Vars {
		if v.Name == "m" {
			m = v
		}
	}
	for _, l := range p.Locs {
		if a, ok := l.Act.(*cfg.Assign); ok {
			if d, ok := a.Dst.(*cfg.Deref); ok && len(d.Cells) == 1 && d.Cells[0].Name == "g" {
				w = l
			}
			if r, ok := a.Dst.(*cfg.VarRef); ok && r.Var.Name == "g" {
				w = l
			}
		}
	}
	if w == nil || m == nil {
		t.Fatalf("write of g or lock m not found")
	}
	return w, m
}

// A body reached with m held from one call site and without it from
// another gets the meet: its write of g is not protected. A lock held
// across a call is still held at that call's return (the path-sensitive
// lockset tells the return sites apart by the body's return register).
func TestLocksetSharedBodyMeet(t *testing.T) {
	p, e := lockedCalls(t, "touch();")
	w, m := writeOfG(t, p)
	if e.Holds(w, m) {
		t.Errorf("write of g in touch's shared body counted as protected by m, but the second call does not hold m")
	}
	bd := p.Bodies[0]
	r1 := bd.Returns[0]
	// A thread standing at a return site has not passed its assume yet
	// (either call may be returning): held after it only.
	if e.Holds(r1, m) || !e.Holds(r1.Succs[0], m) {
		t.Errorf("m must be held right after the return of the locked call only")
	}
	if e.Holds(bd.Returns[1].Succs[0], m) {
		t.Errorf("m held after the return of the unlocked call")
	}
}

// Both calls hold m: the write is protected.
func TestLocksetSharedBodyBothLocked(t *testing.T) {
	p, e := lockedCalls(t, "pthread_mutex_lock(&m); touch(); pthread_mutex_unlock(&m);")
	w, m := writeOfG(t, p)
	if !e.Holds(w, m) {
		t.Errorf("write of g not protected although every call holds m")
	}
	if !strings.Contains(p.Bodies[0].Func, "touch") {
		t.Errorf("body of %s", p.Bodies[0].Func)
	}
}
