package interference

import "chorus/cfg"

// flatGame is the last fallback, for programs whose coarse game does not
// fit in memory (floppy: 51,000 positions, 88,000 writer rows). It keeps
// no pairs at all — flow-insensitive interference in the style of Miné:
//
//	edge(W, X, B) :- mod(W, X), canrun(W), useful(B, X),
//	                 !(inMain(W) ∧ inMain(B)).
//
// Soundness: every coarse fact flowR(W, X, B) satisfies the premises. The
// base rule needs exec(U, B), hence canrun(U), and every flowR fact needs
// useful(B, X); the writer never changes along a flow; and with main a
// singleton, W in main pairs only with threads of other templates, and the
// reader stays in its thread or moves into a spawned child (never main).
// So the coarse edges, hence the exact ones, are among these.
//
// The edges of one cell form a block — every new writer to every reader —
// which Round returns whole (Block) for the caller to route through one
// dfg hub: |writers|+|readers| edges per cell instead of the product.
type flatGame struct {
	e       *Engine
	emitted map[[2]int32]bool // (w, x) already sent
	readers map[int32][2][]*cfg.Loc
}

// Block is a block of interference edges: every source to every target,
// for one cell.
type Block struct {
	Srcs []*cfg.Loc
	Cell int
	Dsts []*cfg.Loc
}

func newFlatGame(e *Engine) *flatGame {
	return &flatGame{e: e, emitted: map[[2]int32]bool{}, readers: map[int32][2][]*cfg.Loc{}}
}

// readersOf returns the locations that need x at a position where x is
// useful, or in the run before it (as mapEdges maps facts): [0] those in
// main (when main is a singleton), [1] the others.
func (f *flatGame) readersOf(x int32) [2][]*cfg.Loc {
	if r, ok := f.readers[x]; ok {
		return r
	}
	e := f.e
	// Not added to the engine's cache: the readers are kept instead
	// (floppy: a bit row per cell over 51,000 positions would stay for
	// nothing).
	live, ok := e.liveAt[int(x)]
	if !ok {
		live = e.computeLiveness(int(x))
	}
	var r [2][]*cfg.Loc
	uses := e.usesMark(int(x)) // usesCell(·, x) (users.go)
	for b, l := range e.pos.locs {
		if !live.has(b) {
			continue
		}
		k := 1
		if e.inMain[b] {
			k = 0
		}
		if uses[l.ID] {
			r[k] = append(r[k], l)
		}
		for _, pl := range e.pos.preRun[b] {
			if uses[pl.ID] {
				r[k] = append(r[k], pl)
			}
		}
	}
	f.readers[x] = r
	return r
}

// run returns the blocks of the writers that can run now and were not
// sent before.
func (f *flatGame) run() []Block {
	e := f.e
	k := len(e.classes)
	type key struct {
		x    int32
		main bool
	}
	newW := map[key][]*cfg.Loc{}
	var order []key
	for w, l := range e.pos.locs {
		if !e.compat[w*k+e.enClass[w]] {
			continue // cannot run (yet)
		}
		for _, x := range e.mod[w] {
			id := [2]int32{int32(w), int32(x)}
			if f.emitted[id] {
				continue
			}
			f.emitted[id] = true
			kk := key{int32(x), e.inMain[w]}
			if _, ok := newW[kk]; !ok {
				order = append(order, kk)
			}
			newW[kk] = append(newW[kk], l)
		}
	}
	var out []Block
	for _, kk := range order {
		r := f.readersOf(kk.x)
		dsts := r[1]
		if !kk.main {
			dsts = append(append([]*cfg.Loc(nil), r[0]...), r[1]...)
		}
		if len(dsts) > 0 {
			out = append(out, Block{Srcs: newW[kk], Cell: int(kk.x), Dsts: dsts})
		}
	}
	return out
}
