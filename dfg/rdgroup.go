package dfg

import (
	"context"
	"hash/maphash"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

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

// apply adds to g what rec holds for cell c: c tracked at each φ location
// (unless it is already) and the edges, in order.
func (rec *rdRecord) apply(g *Graph, c CellID) {
	for _, v := range rec.phis {
		if i, ok := slices.BinarySearch(g.in[v.ID], c); !ok {
			g.in[v.ID] = slices.Insert(g.in[v.ID], i, c)
		}
	}
	for i, d := range rec.dst {
		g.addSeqEdge(d, edge{Src: rec.src[i], Cell: c})
	}
}

// rdWorkers is how many goroutines compute cells' reaching definitions
// at once in solveAll (1: one after another, in the caller's goroutine).
var rdWorkers = runtime.GOMAXPROCS(0)

// solveAll adds the edges of every cell tracked somewhere (usedAt by
// cell), in cell order, or returns ctx's error. A twin replays its
// representative's recording; the other cells are computed by up to
// rdWorkers solvers of their own, a few cells ahead of the one being
// applied, and applied in cell order by the caller's goroutine alone, so
// the graph (In, the edges and their order) is the same whatever the
// number of workers (TestRDWorkersSameGraph).
func (gr *rdGroups) solveAll(ctx context.Context, g *Graph, rd *rdSolver, usedAt [][]*cfg.Loc) error {
	var todo []CellID // the cells to compute, in order
	for c := CellID(1); int(c) < len(usedAt); c++ {
		if len(usedAt[c]) > 0 && gr.rep[c] == 0 {
			todo = append(todo, c)
		}
	}
	// record returns the computed record of todo[i] (waiting for it).
	record := func(i int) (*rdRecord, error) { return rd.compute(todo[i], usedAt[todo[i]]) }
	if workers := min(rdWorkers, len(todo)); workers > 1 {
		type job struct {
			rec  *rdRecord
			err  error
			done chan struct{}
		}
		jobs := make([]job, len(todo))
		for i := range jobs {
			jobs[i].done = make(chan struct{})
		}
		// (The workers check ctx itself, not a context derived from it:
		// ctx's Err may say done before its Done channel does.)
		stop := make(chan struct{})
		var wg sync.WaitGroup
		defer func() { close(stop); wg.Wait() }()
		// ahead bounds the records computed and not applied yet: a
		// worker takes a token before its next cell, record gives it
		// back once the cell is applied.
		ahead := make(chan struct{}, 2*workers)
		var next atomic.Int64
		for range workers {
			w := rd.fork()
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					select {
					case ahead <- struct{}{}:
					case <-stop:
						return
					case <-ctx.Done():
						return
					}
					i := int(next.Add(1) - 1)
					if i >= len(todo) {
						return
					}
					jobs[i].rec, jobs[i].err = w.compute(todo[i], usedAt[todo[i]])
					close(jobs[i].done)
				}
			}()
		}
		record = func(i int) (*rdRecord, error) {
			select {
			case <-jobs[i].done:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			<-ahead
			rec, err := jobs[i].rec, jobs[i].err
			jobs[i].rec = nil
			return rec, err
		}
	}
	k := 0 // the next cell of todo
	for c := CellID(1); int(c) < len(usedAt); c++ {
		if len(usedAt[c]) == 0 {
			continue
		}
		if r := gr.rep[c]; r != 0 {
			gr.recs[r].apply(g, c)
			continue
		}
		rec, err := record(k)
		k++
		if err != nil {
			return err
		}
		rec.apply(g, c)
		if gr.multi[c] {
			gr.recs[c] = rec
		}
	}
	return nil
}
