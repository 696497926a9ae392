package confirm

import (
	"testing"

	"chorus/cfg"
	"chorus/explore"
)

// Workers take a lock in an atomic function (an assume that fails for
// good inside an atomic section: a dead end Explore patches into a
// self-loop) and then write g.
const atomicAcquire = `
typedef unsigned long pthread_t;
extern int pthread_create(pthread_t *, const void *, void *(*)(void *), void *);
extern void __VERIFIER_assume(int);
extern void reach_error(void);
int m = 0;
int g = 0;
void __VERIFIER_atomic_acq(void) { __VERIFIER_assume(m == 0); m = 1; }
void *w(void *arg) {
  __VERIFIER_atomic_acq();
  g = g + 1;
  m = 0;
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, w, 0);
  pthread_create(&b, 0, w, 0);
  __VERIFIER_atomic_acq();
  if (g == 3) reach_error();
  m = 0;
  return 0;
}
`

// TestReachedAtReplays: Result.ReachedAt, called after Explore returned
// (as Confirm does), rebuilds the schedule of every location it would
// while the program is still patched for the exploration. It replays the
// stored path through the explorer's forced moves, which must see the
// program as explored (dead ends patched into self-loops): before
// Explore kept the patch for ReachedAt, paths through a worker waiting at
// its failed assume did not replay, and the workers' writes got no
// schedule (confirm then never solved for inputs from there).
func TestReachedAtReplays(t *testing.T) {
	p := build(t, atomicAcquire)
	forbidden, _ := untrustedLocs(p)
	for _, dfs := range []bool{true, false} {
		opts := explore.Options{MaxInstances: 2, HavocMin: 0, HavocMax: 1, DepthFirst: dfs, LazyStart: dfs, MaxSpawns: lazySpawns,
			Reduce: true, ForgetDead: true, Forbidden: forbidden, Exclusive: doomedLocs(p), Reached: true}
		// The reference: ReachedAt while the patch is still in place.
		undo := patchForExplore(p)
		ref, err := explore.Explore(p, opts)
		if err != nil {
			t.Fatal(err)
		}
		want := map[*cfg.Loc]bool{}
		for _, l := range p.Locs {
			if _, _, ok := ref.ReachedAt(l); ok {
				want[l] = true
			}
		}
		undo()
		write := false // the worker's g = g + 1 has a schedule
		for l := range want {
			if _, ok := l.Act.(*cfg.Assign); ok && l.Template.Name == "w" && l.Pos.Line == 11 {
				write = true
			}
		}
		if !ref.Complete || !write {
			t.Fatalf("dfs %v: complete %v, worker's write reached %v", dfs, ref.Complete, write)
		}
		res, err := Explore(p, opts)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range p.Locs {
			if _, _, ok := res.ReachedAt(l); ok != want[l] {
				t.Errorf("dfs %v: %v (%v): ReachedAt ok %v after Explore returned, %v while patched", dfs, l.Pos, l.Act, ok, want[l])
			}
		}
	}
}
