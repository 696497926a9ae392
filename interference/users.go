package interference

import "chorus/cfg"

// The readers of a cell, indexed once.
//
// liveness, emits and the flow-insensitive game's readers ask, per cell
// x, which locations use x (usesCell). Asking every location for every
// cell costs locations × cells scans of the locations' use lists
// (memcached.c: 8,000 locations, thousands of cells, a tenth of the
// interference engine); the index users[x] (the locations whose
// Cells.Uses holds x, in location order) answers with the few that do.
// usesCell(l, x) is then users-membership minus protectedAt(l, x), the
// same predicate: results are unchanged. Uses are fixed from the first
// Round on (Engine.usesCache), and these callers run only in rounds.

// usersOf returns the locations whose uses include cell x, in location
// order (protection not applied: see usesMark).
func (e *Engine) usersOf(x int) []*cfg.Loc {
	if e.users == nil {
		e.users = map[int][]*cfg.Loc{}
		for _, l := range e.prog.Locs {
			for _, c := range e.usesOf(l) {
				e.users[c] = append(e.users[c], l)
			}
		}
	}
	return e.users[x]
}

// usesOf returns Cells.Uses(l), cached.
func (e *Engine) usesOf(l *cfg.Loc) []int {
	if !e.usesDone[l.ID] {
		e.usesDone[l.ID] = true
		e.usesCache[l.ID] = e.cells.Uses(l)
	}
	return e.usesCache[l.ID]
}

// usesMark returns, by location ID, usesCell(l, x) for every location
// (a new slice; the callers' results are cached per cell).
func (e *Engine) usesMark(x int) []bool {
	mark := make([]bool, len(e.prog.Locs))
	for _, l := range e.usersOf(x) {
		if !(e.protectedBy != nil && e.protectedAt(l, x)) {
			mark[l.ID] = true
		}
	}
	return mark
}

// spawnLocs returns the spawn locations, in location order.
func (e *Engine) spawnLocs() []*cfg.Loc {
	if !e.spawnsDone {
		e.spawnsDone = true
		for _, l := range e.prog.Locs {
			if _, ok := l.Act.(*cfg.Spawn); ok {
				e.spawns = append(e.spawns, l)
			}
		}
	}
	return e.spawns
}

// readersAt lists, per (position b, cell x), the locations an edge
// fact (·, x, b) maps to: b and then the locations of b's preceding run,
// those of them that use x (usesCell), in that order. mapEdges asked
// usesCell of all of them for every fact, and the facts of one (b, x)
// differ only in their writer (pcwd: millions of facts, mapEdges a tenth
// of the run); the list is the same, so the edges are the same, in the
// same order.
type readersAt struct {
	// m: 1 + the index of the list in lists, by (b, x), for the cells
	// past the dense tables.
	m         map[uint64]int32
	lastKey   uint64
	last      []*cfg.Loc
	lastIndex int
	haveLast  bool
	// dense: per cell, by position, 1 + the index of its list in lists
	// (0: not computed yet), for the cells that fit in denseLeft entries;
	// the others use m. A fact's lookup is then an array read instead of
	// a hash of a large map (pcwd: millions of facts, that map access was
	// most of mapEdges). The lists are the same either way.
	dense     map[int32][]int32
	lists     [][]*cfg.Loc
	denseLeft int
	lastX     int32
	lastTab   []int32
}

// readersDenseEntries bounds the dense tables' entries (4 bytes each).
const readersDenseEntries = 16 << 20

func (e *Engine) readersAt() *readersAt {
	return &readersAt{m: map[uint64]int32{}, dense: map[int32][]int32{}, denseLeft: readersDenseEntries, lastX: -1}
}

func (r *readersAt) of(e *Engine, b, x int32) []*cfg.Loc {
	ls, _ := r.ofIndex(e, b, x)
	return ls
}

// ofIndex is of, with the index of the list in r.lists (one per (b, x)
// asked: mapTargets keeps the targets of a list's readers by it).
func (r *readersAt) ofIndex(e *Engine, b, x int32) ([]*cfg.Loc, int) {
	k := uint64(uint32(b))<<32 | uint64(uint32(x))
	if r.haveLast && k == r.lastKey {
		return r.last, r.lastIndex
	}
	if x != r.lastX {
		tab, ok := r.dense[x]
		if !ok && r.denseLeft >= len(e.pos.locs) {
			tab = make([]int32, len(e.pos.locs))
			r.denseLeft -= len(tab)
			r.dense[x] = tab
		}
		r.lastX, r.lastTab = x, tab
	}
	var i int32
	if tab := r.lastTab; tab != nil {
		if i = tab[b]; i == 0 {
			r.lists = append(r.lists, r.compute(e, b, x))
			i = int32(len(r.lists))
			tab[b] = i
		}
	} else {
		var ok bool
		if i, ok = r.m[k]; !ok {
			r.lists = append(r.lists, r.compute(e, b, x))
			i = int32(len(r.lists))
			r.m[k] = i
		}
	}
	ls := r.lists[i-1]
	r.lastKey, r.last, r.lastIndex, r.haveLast = k, ls, int(i-1), true
	return ls, int(i - 1)
}

// compute lists the locations fact (·, x, b) maps to.
func (r *readersAt) compute(e *Engine, b, x int32) []*cfg.Loc {
	var ls []*cfg.Loc
	if l := e.pos.locs[b]; e.usesCell(l, int(x)) {
		ls = append(ls, l)
	}
	for _, l := range e.pos.preRun[b] {
		if e.usesCell(l, int(x)) {
			ls = append(ls, l)
		}
	}
	return ls
}
