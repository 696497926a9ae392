package cfg

import (
	"path/filepath"
	"testing"
)

// TestJoinAllRecognized: the frontend records a join-all loop exactly for
// the fixtures whose join loop provably covers the create loop.
func TestJoinAllRecognized(t *testing.T) {
	cases := map[string]int{
		"join_all_loop.c":          1,
		"join_all_bound.c":         1,
		"join_all_partial.c":       0, // different bounds
		"join_all_bound_changed.c": 0, // the bound variable is written between
		"join_all_overwritten.c":   0, // a handle slot is written between
		"join_all_break.c":         0, // the join loop may stop early
		"join_site_in_loop.c":      0, // one handle, not an array
	}
	for file, want := range cases {
		p, err := BuildFile(filepath.Join("..", "testdata", "check", file), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := len(p.JoinAlls); got != want {
			t.Errorf("%s: %d join-all loops, want %d", file, got, want)
			continue
		}
		for _, ja := range p.JoinAlls {
			if _, ok := ja.Spawn.Act.(*Spawn); !ok || ja.Spawn.Template != p.Templates[0] || ja.Done.Template != p.Templates[0] {
				t.Errorf("%s: join-all %v -> %v is not a spawn of main and a location of main", file, ja.Spawn, ja.Done)
			}
		}
	}
	// The mutation the oracle must catch: without the bounds comparison
	// the partial join loop counts as a join-all.
	p, err := BuildFile(filepath.Join("..", "testdata", "check", "join_all_partial.c"), Options{UnsoundJoinAllBounds: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.JoinAlls) != 1 {
		t.Errorf("UnsoundJoinAllBounds: %d join-all loops in join_all_partial.c, want 1", len(p.JoinAlls))
	}
}

// TestJoinAllNotInCallees: a join-all shape in a function main calls is
// not recorded (only main's own body runs once, see joinall.go).
func TestJoinAllNotInCallees(t *testing.T) {
	src := `typedef unsigned long pthread_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
extern int pthread_join(pthread_t, void **);
int g;
void *w(void *a) { g = 1; return 0; }
void run(void) {
  pthread_t t[2];
  for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, w, 0);
  for (int i = 0; i < 2; i++) pthread_join(t[i], 0);
}
int main(void) { run(); run(); return 0; }
`
	p, err := Build("callee.c", []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.JoinAlls) != 0 {
		t.Errorf("%d join-all loops recorded in a callee, want 0", len(p.JoinAlls))
	}
}

// TestJoinAllInterleaved: two create/join pairs whose loops interleave
// (create t, create u, join t, join u) are both recorded, each Done after
// its own join loop.
func TestJoinAllInterleaved(t *testing.T) {
	src := `typedef unsigned long pthread_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
extern int pthread_join(pthread_t, void **);
int g;
void *w(void *a) { g = 1; return 0; }
void *v(void *a) { g = 2; return 0; }
int main(void) {
  pthread_t t[2], u[2];
  for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, w, 0);
  for (int i = 0; i < 2; i++) pthread_create(&u[i], 0, v, 0);
  for (int i = 0; i < 2; i++) pthread_join(t[i], 0);
  g = 3;
  for (int i = 0; i < 2; i++) pthread_join(u[i], 0);
  return 0;
}
`
	p, err := Build("interleaved.c", []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.JoinAlls) != 2 {
		t.Fatalf("%d join-all loops, want 2", len(p.JoinAlls))
	}
	if a, b := p.JoinAlls[0], p.JoinAlls[1]; a.Spawn == b.Spawn || a.Done == b.Done || a.Done.ID > b.Done.ID {
		t.Errorf("join-alls %v->%v and %v->%v: want two spawns, the first Done first", a.Spawn, a.Done, b.Spawn, b.Done)
	}
}
