package dfg

import (
	"hash/maphash"
	"slices"

	"chorus/cfg"
)

// Reaching definitions of twin cells (rdGroups): cells whose
// reaching-definition problems are the same are solved once.
//
// rdSolver.solve(x, usedAt) depends on x only through: the locations
// writing x (writers), the locations tracking it (usedAt), whether x is
// global or the local of which template (owner) and whether it is that
// template's parameter cell, the shared bodies whose Mod holds x (the
// call-to-return bypass) and the body entries where x is made of Fresh
// registers. Two cells agreeing on all of these get the same region, the
// same definitions, the same φ locations and the same edges, in the same
// order, with only the cell changed: the second one replays the edges the
// first one recorded (and inserts itself into In at the same φ
// locations), so the graph is identical to solving each cell on its own
// (TestRDGroupsSameGraph compares the two). On ddverify/floppy.c about
// three hundred address-taken globals are all written by the same
// ten thousand unknown-call havocs and read by the same four thousand
// loads through unknown pointers: each took seconds of dataflow over
// 156k locations for the same answer.
type rdGroups struct {
	rep   []CellID // by cell: the representative whose recording it replays (0: solve itself)
	recs  map[CellID]*rdRecord
	multi []bool // by cell: the representative of a group of at least two
}

// rdRecord is what solving a representative added: its φ locations and
// its edges (source, target), in order.
type rdRecord struct {
	phis []*cfg.Loc
	src  []*cfg.Loc
	dst  []*cfg.Loc
}

// rdTwins switches the grouping (tests turn it off to compare).
var rdTwins = true

// newRDGroups groups the cells with usedAt (by cell) by their
// reaching-definition problem.
func newRDGroups(g *Graph, rd *rdSolver, usedAt [][]*cfg.Loc) *rdGroups {
	n := g.part.NumCells()
	gr := &rdGroups{rep: make([]CellID, n), recs: map[CellID]*rdRecord{}, multi: make([]bool, n)}
	if !rdTwins {
		return gr
	}
	// The bodies and fresh entries each cell depends on.
	bodiesOf, freshOf := rd.bodiesOf, rd.freshOf
	owner := func(c CellID) int {
		cell := g.part.Cell(c)
		if cell.Global {
			return -1
		}
		t := cell.Vars[0].Template
		id := t.ID
		if t.Param != nil && g.part.CellOf(t.Param) == c {
			id = -2 - id // the parameter cell of t
		}
		return id
	}
	seed := maphash.MakeSeed()
	byHash := map[uint64][]CellID{}
	var h maphash.Hash
	h.SetSeed(seed)
	put := func(x int64) {
		var b [8]byte
		for i := range b {
			b[i] = byte(x >> (8 * i))
		}
		h.Write(b[:])
	}
	locs := func(ls []*cfg.Loc) {
		put(int64(len(ls)))
		for _, l := range ls {
			put(int64(l.ID))
		}
	}
	ints := func(xs []int32) {
		put(int64(len(xs)))
		for _, x := range xs {
			put(int64(x))
		}
	}
	sameLocs := func(a, b []*cfg.Loc) bool { return slices.Equal(a, b) }
	same := func(a, b CellID) bool {
		return owner(a) == owner(b) && sameLocs(rd.writers[a], rd.writers[b]) && sameLocs(usedAt[a], usedAt[b]) &&
			slices.Equal(bodiesOf[a], bodiesOf[b]) && slices.Equal(freshOf[a], freshOf[b])
	}
	for c := CellID(1); int(c) < n; c++ {
		if len(usedAt[c]) < rdTwinMinUses {
			continue
		}
		h.Reset()
		put(int64(owner(c)))
		locs(rd.writers[c])
		locs(usedAt[c])
		ints(bodiesOf[c])
		ints(freshOf[c])
		k := h.Sum64()
		found := false
		for _, r := range byHash[k] {
			if same(r, c) {
				gr.rep[c] = r
				gr.multi[r] = true
				found = true
				break
			}
		}
		if !found {
			byHash[k] = append(byHash[k], c)
		}
	}
	return gr
}

// rdTwinMinUses: cells tracked at fewer locations are solved on their own
// (cheap anyway; not worth hashing and recording).
var rdTwinMinUses = 16

// solveCell adds the edges of cell c: by replaying its representative's
// recording, or by solving (and recording, for a representative of a
// group).
func (gr *rdGroups) solveCell(g *Graph, rd *rdSolver, c CellID, usedAt []*cfg.Loc) error {
	if r := gr.rep[c]; r != 0 {
		rec := gr.recs[r]
		for _, v := range rec.phis {
			if i, ok := slices.BinarySearch(g.in[v.ID], c); !ok {
				g.in[v.ID] = slices.Insert(g.in[v.ID], i, c)
			}
		}
		for i, d := range rec.dst {
			g.addSeqEdge(Edge{Src: rec.src[i], Cell: c, Dst: d})
		}
		return nil
	}
	if gr.multi[c] {
		rd.rec = &rdRecord{}
		defer func() { gr.recs[c] = rd.rec; rd.rec = nil }()
	}
	return rd.solve(c, usedAt)
}
