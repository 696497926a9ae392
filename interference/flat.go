package interference

import (
	"cmp"
	"encoding/binary"
	"slices"

	"chorus/cfg"
)

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
// The edges of one cell form blocks — the new writers to every reader
// outside main, the new writers outside main to main's readers (run) —
// which Round returns whole (Block) for the caller to route through a
// dfg hub per cell and kind of target, grown by later rounds' writers:
// |writers|+|readers| edges per cell instead of the product.
type flatGame struct {
	e *Engine
	// sent: by position, its writes went out (all of them at once: mod
	// is fixed and compat only grows, so a writer is sent whole, once).
	sent   []bool
	runsOf [][][2]int32 // indexRuns
	// readers: while run makes a round's blocks, readersOf's lists by
	// the IDs of the users it starts from (nil: no memo). The list is a
	// function of that sequence alone, and cells read only through the
	// same pointer loads share it (pigz linked: some 1,400 cells with the
	// same 3,678 readers), so it is sorted once, not once per cell; the
	// blocks of those cells share one Dsts slice (read only).
	readers map[string][2][]*cfg.Loc
	key     []byte
}

// Block is a block of interference edges: every source to every target,
// for one cell. The flow-insensitive game sends a cell's edges into main's
// readers (ToMain) and into the other readers in separate blocks; the
// targets of each are the same in every round (the readers of a cell are
// fixed once the engine is made: uses, locksets, protection and relays
// are computed then), so a caller may route a later round's block through
// the hub of an earlier one with the same Cell and ToMain. Dsts is read
// only: the blocks of cells with the same readers share it.
type Block struct {
	Srcs   []*cfg.Loc
	Cell   int
	ToMain bool
	Dsts   []*cfg.Loc
}

func newFlatGame(e *Engine) *flatGame {
	return &flatGame{e: e, sent: make([]bool, len(e.pos.locs))}
}

// readersOf returns the locations that need x at a position where x is
// useful, or in the run before it (as mapEdges maps facts): [0] those in
// main (when main is a singleton), [1] the others; by position, each
// position's location before its run's, in run order (a location in
// several runs is listed once per run).
//
// The list is read off the users of x (users.go) through the index of
// the positions whose run holds each location (runsOf), not by scanning
// every position with x's liveness: usefulness (liveness) is implied for
// these positions. A position is live for x when it uses x or a location
// of its run does (computeLiveness seeds the users and sets a position
// whose run holds one), so the positions the scan kept — those whose
// location or a run location uses x — are exactly those found here, and
// the lists are equal (TestFlatReadersMatchScan compares them with the
// scan). On floppy the scan (positions × cells, after a liveness pass per
// cell) was 52 s of the flow-insensitive game.
//
// The lists are not kept between rounds (pigz: 390 MB of them stayed
// live to the end): reading them off the index again costs little.
func (f *flatGame) readersOf(x int32) [2][]*cfg.Loc {
	e := f.e
	f.indexRuns()
	// (position, slot) of each reader: slot -1 the position's location,
	// k its run's k-th location.
	f.key = f.key[:0]
	var users []*cfg.Loc
	for _, l := range e.usersOf(int(x)) {
		if e.protectedBy != nil && e.protectedAt(l, int(x)) {
			continue // not usesCell (usesMark)
		}
		users = append(users, l)
		f.key = binary.LittleEndian.AppendUint32(f.key, uint32(l.ID))
	}
	if r, ok := f.readers[string(f.key)]; ok {
		return r
	}
	var at [][2]int32
	for _, l := range users {
		if b := e.pos.index[l.ID]; b >= 0 && e.pos.isPos[l.ID] {
			at = append(at, [2]int32{b, -1})
		}
		for _, r := range f.runsOf[l.ID] {
			at = append(at, r)
		}
	}
	slices.SortFunc(at, func(a, b [2]int32) int {
		if a[0] != b[0] {
			return cmp.Compare(a[0], b[0])
		}
		return cmp.Compare(a[1], b[1])
	})
	at = slices.Compact(at)
	var r [2][]*cfg.Loc
	for _, p := range at {
		k := 1
		if e.inMain[p[0]] {
			k = 0
		}
		l := e.pos.locs[p[0]]
		if p[1] >= 0 {
			l = e.pos.preRun[p[0]][p[1]]
		}
		r[k] = append(r[k], l)
	}
	if f.readers != nil {
		f.readers[string(f.key)] = r
	}
	return r
}

// indexRuns fills runsOf: by location ID, the (position, index) of each
// place it holds in a position's preceding run.
func (f *flatGame) indexRuns() {
	if f.runsOf != nil {
		return
	}
	e := f.e
	f.runsOf = make([][][2]int32, len(e.prog.Locs))
	for b, run := range e.pos.preRun {
		for k, l := range run {
			f.runsOf[l.ID] = append(f.runsOf[l.ID], [2]int32{int32(b), int32(k)})
		}
	}
}

// run returns the blocks of the writers that can run now and were not
// sent before. A cell's new writers go out in up to two blocks: every
// writer to the readers outside main (r[1]), and the writers outside main
// to main's readers (r[0], ToMain). That is the rule's edge set exactly —
// a writer in main reaches every reader but main's, any other writer
// every reader — with each reader outside main in one block, not in one
// per kind of writer (its edges through a hub: one, not two).
func (f *flatGame) run() []Block {
	e := f.e
	k := len(e.classes)
	type key struct {
		x      int32
		toMain bool
	}
	newW := map[key][]*cfg.Loc{}
	var order []key
	add := func(kk key, l *cfg.Loc) {
		if _, ok := newW[kk]; !ok {
			order = append(order, kk)
		}
		newW[kk] = append(newW[kk], l)
	}
	for w, l := range e.pos.locs {
		if f.sent[w] || !e.compat[w*k+e.enClass[w]] {
			continue // sent before, or cannot run (yet)
		}
		f.sent[w] = true
		for _, x := range e.mod[w] {
			add(key{int32(x), false}, l)
			if !e.inMain[w] {
				add(key{int32(x), true}, l)
			}
		}
	}
	var out []Block
	// (this round's only: pigz kept 390 MB of reader lists to the end
	// when they were kept between rounds)
	f.readers = map[string][2][]*cfg.Loc{}
	defer func() { f.readers = nil }()
	readers := map[int32][2][]*cfg.Loc{} // (a cell's two keys share them)
	for _, kk := range order {
		r, ok := readers[kk.x]
		if !ok {
			r = f.readersOf(kk.x)
			readers[kk.x] = r
		}
		dsts := r[1]
		if kk.toMain {
			dsts = r[0]
		}
		if len(dsts) > 0 {
			out = append(out, Block{Srcs: newW[kk], Cell: int(kk.x), ToMain: kk.toMain, Dsts: dsts})
		}
	}
	return out
}
