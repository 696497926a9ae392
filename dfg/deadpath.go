package dfg

import "chorus/cfg"

// DeadPaths returns a DropSequential predicate for the sequential edges
// all of whose CFG paths pass one of the dead locations (by Loc.ID: a
// location no thread passes, e.g. an assume that fails in every
// execution, interference/owned.go): src —c→ dst is dropped when dst
// cannot be reached from src's successors (or, for a source in another
// thread, from dst's template entry) along the CFG of dst's template
// without passing a dead location or another definition of c. The walk
// follows every successor (calls and returns of shared bodies included),
// so it finds every path the reaching definitions follow, and more.
// nil when dead is empty. dead is read here, once: later changes to it
// are not seen.
//
// The walks are memoized (deadWalks): the answer depends only on the
// start (src, or dst's template entry), c and dst, and the graph's gen
// sets of program locations do not change after New, so one walk per
// start and cell answers every dst the way one walk per edge did.
func (g *Graph) DeadPaths(dead []bool) func(src, dst *cfg.Loc, c CellID) bool {
	w := newDeadWalks(g, dead)
	if w == nil {
		return nil
	}
	return w.unreachable
}

// deadWalks answers DeadPaths' question with one resumable depth-first
// walk per (cell, start): the walk from a start pushes every location it
// reaches, expands those that are neither dead nor a definition of the
// cell, and stops as soon as the queried dst is pushed, keeping its stack
// for the next query. dst is reachable exactly when it is pushed by the
// exhaustive walk: a location is pushed iff some path from the start
// reaches it whose earlier locations all pass (are expanded), which is
// what the walk per edge checked (it stopped on popping dst without
// expanding it, but a path to dst needs no expansion of dst). So the
// memoized answers are the per-edge walk's, only the work is shared
// (ddverify/toshiba.c: 6148 queries walked 1.6 million locations; 1116
// (cell, start) pairs).
type deadWalks struct {
	g    *Graph
	dead []bool
	// size: the templates holding a dead location, with their number of
	// locations; local: by Loc.ID, the index among its template's (for
	// the templates in size).
	size  map[*cfg.Template]int32
	local []int32
	walks map[deadKey]*deadWalk
	words int // bitset words held by walks (bounded by deadWalkWords)
}

// deadKey names a walk: the cell and the start (a location's ID, or
// -1-Loc.ID of a template's entry reached from another thread).
type deadKey struct {
	c     CellID
	start int32
}

// deadWalk is a walk's state: the pushed locations (by local index) and
// the stack of pushed locations not expanded yet.
type deadWalk struct {
	pushed []uint64
	work   []*cfg.Loc
}

// deadWalkWords bounds the memory of the memoized walks (in 64-bit
// words): past it the memo is dropped and walks start over, which changes
// no answer.
const deadWalkWords = 1 << 23

func newDeadWalks(g *Graph, dead []bool) *deadWalks {
	w := &deadWalks{g: g, size: map[*cfg.Template]int32{}, walks: map[deadKey]*deadWalk{}}
	for id, d := range dead {
		if t := g.prog.Locs[id].Template; d && t != nil && t.Entry != nil {
			w.size[t] = 0
		}
	}
	if len(w.size) == 0 {
		return nil
	}
	w.dead = append([]bool(nil), dead...)
	w.local = make([]int32, len(g.prog.Locs))
	for _, l := range g.prog.Locs {
		if n, ok := w.size[l.Template]; ok {
			w.local[l.ID] = n
			w.size[l.Template] = n + 1
		}
	}
	return w
}

// unreachable is the DeadPaths predicate.
func (w *deadWalks) unreachable(src, dst *cfg.Loc, c CellID) bool {
	t := dst.Template
	size, ok := w.size[t]
	if !ok {
		return false
	}
	key := deadKey{c: c, start: -1 - int32(t.Entry.ID)}
	if src.Template == t {
		if w.isDead(src) {
			return true // src itself never completes
		}
		key.start = int32(src.ID)
	}
	walk := w.walks[key]
	if walk == nil {
		if w.words > deadWalkWords {
			clear(w.walks)
			w.words = 0
		}
		n := (int(size) + 63) / 64
		walk = &deadWalk{pushed: make([]uint64, n)}
		w.words += n
		w.walks[key] = walk
		if src.Template == t {
			for _, s := range src.Succs {
				w.push(walk, t, s)
			}
		} else {
			w.push(walk, t, t.Entry)
		}
	}
	if walk.has(w.local[dst.ID]) {
		return false
	}
	for len(walk.work) > 0 {
		l := walk.work[len(walk.work)-1]
		walk.work = walk.work[:len(walk.work)-1]
		if w.isDead(l) || w.g.gens(l, c) {
			continue
		}
		for _, s := range l.Succs {
			w.push(walk, t, s)
		}
		if walk.has(w.local[dst.ID]) {
			return false
		}
	}
	return true
}

// isDead reports whether l is one of the dead locations.
func (w *deadWalks) isDead(l *cfg.Loc) bool { return l.ID < len(w.dead) && w.dead[l.ID] }

// push adds l to the walk in template t (locations of other templates are
// not followed).
func (w *deadWalks) push(walk *deadWalk, t *cfg.Template, l *cfg.Loc) {
	if l.Template != t {
		return
	}
	i := w.local[l.ID]
	if walk.has(i) {
		return
	}
	walk.pushed[i/64] |= 1 << (i % 64)
	walk.work = append(walk.work, l)
}

func (walk *deadWalk) has(i int32) bool { return walk.pushed[i/64]&(1<<(i%64)) != 0 }

// gens reports whether l defines cell c in its thread's data flow.
func (g *Graph) gens(l *cfg.Loc, c CellID) bool {
	for _, x := range g.gen[l.ID] {
		if x == c {
			return true
		}
	}
	return false
}
