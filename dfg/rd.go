package dfg

import (
	"context"
	"math/bits"
	"slices"
	"sync/atomic"

	"chorus/cfg"
)

// rdSolver computes reaching definitions of one cell at a time and turns
// them into DFG edges. It works sparsely: first the region of locations
// whose incoming definitions matter (backward from the locations tracking
// the cell, through locations that do not write it — the cell's liveness
// region), then a forward dataflow over that region only, so the cost per
// cell is the size of its live region, not of the program.
//
// Definitions of cell X: the ⊥ source (index 0) and the locations whose
// action writes X along the CFG. Every such write kills the earlier
// definitions, weak ones included: a weak writer u tracks X (X ∈ In(u), its
// old value is an input), so post_u already joins the old value and the
// edge from u carries everything the earlier definitions would. (This
// differs from keeping both the weak writer and the earlier definitions,
// which gives the same values with many more edges.)
//
// Template entries: main's entry gets ⊥ for every cell (its InitGlobals
// action then defines the globals); another template's entry gets, for a
// global cell, the definitions reaching the ends of its spawn sites; for
// the cell of its parameter, the spawn sites themselves (they write the
// child's parameter); for its other locals, ⊥ (uninitialized).
//
// Returns from shared bodies (cfg.Body): for a cell none of whose
// variables is in the body's Mod, the landing location after a return
// site's assume has its own call site as its one predecessor instead of
// the return site (a call-to-return bypass): the body cannot change the
// cell, and only threads returning to that call pass the assume, so on
// every real path the cell's value there is the one the call site left.
// (At the return site itself a thread returning elsewhere may stand, stuck
// at the false assume: no bypass there.) At a body's entry, a cell made of
// the body's Fresh registers (its locals and temporaries) is defined by ⊥:
// a new activation's locals hold no value the program may read, so the
// cell's liveness region ends there instead of spreading through every
// caller. Without the bypass the definitions
// of all call sites would meet in the body and flow back to every return
// site. The control pseudo-cell never bypasses (a body that does not
// return makes its return sites unreachable).
type rdSolver struct {
	g       *Graph
	slot    []int32 // Loc.ID -> index in region+1 (0: outside)
	region  []*cfg.Loc
	pos     []int32
	defIdx  map[int32]int
	defs    []*cfg.Loc
	bitsBuf []uint64
	writers [][]*cfg.Loc // by cell: the locations writing it along the CFG
	isW     []bool       // by Loc.ID: writes the current cell
	x       CellID       // the current cell
	one     [1]*cfg.Loc
	// ctx stops the computation (checked every ctxEvery steps of the
	// region search and the worklist, and per cell).
	ctx   context.Context
	steps int
}

// ctxEvery is how many region or worklist steps pass between checks of ctx.
const ctxEvery = 1 << 12

// step counts one unit of work and returns ctx's error every ctxEvery
// steps when ctx is done.
func (r *rdSolver) step() error {
	r.steps++
	if r.steps%ctxEvery != 0 || r.ctx == nil {
		return nil
	}
	return r.ctx.Err()
}

// predsOf returns v's predecessors for the current cell: its call site
// for a landing location the cell bypasses, else its CFG predecessors.
func (r *rdSolver) predsOf(v *cfg.Loc) []*cfg.Loc {
	if r.freshEntry(v) {
		return nil
	}
	if v.Return != nil && r.bypass(v) {
		r.one[0] = v.Return.Call
		return r.one[:]
	}
	return r.g.preds[v.ID]
}

// freshEntry reports whether v is the entry of a shared body whose Fresh
// registers make up the current cell: its definition there is ⊥ (any
// value), and its liveness region stops there instead of running back
// through every call site.
func (r *rdSolver) freshEntry(v *cfg.Loc) bool {
	fc, ok := r.g.freshAt[int32(v.ID)]
	return ok && has(fc, r.x)
}

// bypass reports whether the current cell skips the body at landing v.
func (r *rdSolver) bypass(v *cfg.Loc) bool {
	return bypassCell.Load() && r.x != ControlCell && !has(r.g.bodyMod[v.Return.Body.ID], r.x)
}

func newRDSolver(g *Graph) *rdSolver {
	r := &rdSolver{g: g, slot: make([]int32, len(g.prog.Locs)), isW: make([]bool, len(g.prog.Locs))}
	r.writers = make([][]*cfg.Loc, g.part.NumCells())
	for _, l := range g.prog.Locs {
		for _, c := range g.gen[l.ID] {
			r.writers[c] = append(r.writers[c], l)
		}
	}
	return r
}

func has(set []CellID, c CellID) bool {
	_, ok := slices.BinarySearch(set, c)
	return ok
}

func (r *rdSolver) def(l *cfg.Loc) int {
	if l == nil {
		return 0
	}
	if d, ok := r.defIdx[int32(l.ID)]; ok {
		return d
	}
	d := len(r.defs)
	r.defIdx[int32(l.ID)] = d
	r.defs = append(r.defs, l)
	return d
}

// solve adds the edges of cell x into the locations usedAt that track it.
// It returns ctx's error (the cell's edges incomplete) when ctx is done.
func (r *rdSolver) solve(x CellID, usedAt []*cfg.Loc) error {
	g := r.g
	if r.ctx != nil {
		if err := r.ctx.Err(); err != nil {
			return err
		}
	}
	cell := g.part.Cell(x)
	var owner *cfg.Template // nil for a global cell
	if !cell.Global {
		owner = cell.Vars[0].Template
	}
	paramCell := owner != nil && owner.Param != nil && g.part.CellOf(owner.Param) == x
	mainT := g.prog.Templates[0]
	for _, w := range r.writers[x] {
		r.isW[w.ID] = true
	}
	defer func() {
		for _, w := range r.writers[x] {
			r.isW[w.ID] = false
		}
	}()
	writes := func(l *cfg.Loc) bool { return r.isW[l.ID] }
	r.x = x

	// 1. The region: locations whose in-set is needed.
	r.region = r.region[:0]
	add := func(l *cfg.Loc) {
		if r.slot[l.ID] == 0 && (owner == nil || l.Template == owner) {
			r.region = append(r.region, l)
			r.slot[l.ID] = int32(len(r.region))
		}
	}
	for _, v := range usedAt {
		add(v)
	}
	for i := 0; i < len(r.region); i++ {
		if err := r.step(); err != nil {
			r.clearRegion()
			return err
		}
		w := r.region[i]
		for _, p := range r.predsOf(w) {
			if !writes(p) {
				add(p)
			}
		}
		if w.Template.Entry == w && owner == nil && w.Template != mainT {
			for _, s := range g.spawns[w.Template] {
				if !writes(s) {
					add(s)
				}
			}
		}
	}
	defer r.clearRegion()
	// Reverse postorder: sort the positions (plain ints sort fast), or
	// scan the whole order when the region is most of the program.
	if len(r.region)*8 > len(g.rpo) {
		r.region = r.region[:0]
		for _, l := range g.rpo {
			if r.slot[l.ID] != 0 {
				r.region = append(r.region, l)
			}
		}
	} else {
		r.pos = r.pos[:0]
		for _, l := range r.region {
			r.pos = append(r.pos, g.rpoIdx[l.ID])
		}
		slices.Sort(r.pos)
		for i, ix := range r.pos {
			r.region[i] = g.rpo[ix]
		}
	}
	for i, l := range r.region {
		r.slot[l.ID] = int32(i + 1)
	}

	// 2. Definitions: ⊥, the writers adjacent to the region, spawn sites.
	r.defIdx = map[int32]int{}
	r.defs = append(r.defs[:0], nil)
	var entryDefs []int // for the owner's entry (parameter cell)
	if paramCell {
		for _, s := range g.spawns[owner] {
			entryDefs = append(entryDefs, r.def(s))
		}
	}
	for _, w := range r.region {
		for _, p := range r.predsOf(w) {
			if writes(p) {
				r.def(p)
			}
		}
		if w.Template.Entry == w && owner == nil && w.Template != mainT {
			for _, s := range g.spawns[w.Template] {
				if writes(s) {
					r.def(s)
				}
			}
		}
	}
	in, wds, err := r.dataflow(x, owner, paramCell, entryDefs)
	if err != nil {
		return err
	}

	// φ locations: a merge point reached by many definitions becomes a
	// pass-through definition of the cell (it tracks the cell, its action
	// leaves it unchanged, so its post is the join of those definitions).
	// The uses below it then get one edge instead of many, the way SSA's φ
	// functions avoid the quadratic def-use chains of switch-heavy code.
	var phis []*cfg.Loc
	for i, v := range r.region {
		if r.isW[v.ID] || len(r.predsOf(v)) < 2 {
			continue
		}
		n := 0
		for _, w := range in[i*wds : (i+1)*wds] {
			n += bits.OnesCount64(w)
		}
		if n >= phiThreshold {
			phis = append(phis, v)
		}
	}
	if len(phis) > 0 {
		for _, v := range phis {
			r.isW[v.ID] = true
			r.def(v)
			if i, ok := slices.BinarySearch(g.in[v.ID], x); !ok {
				g.in[v.ID] = slices.Insert(g.in[v.ID], i, x)
			}
		}
		defer func() {
			for _, v := range phis {
				r.isW[v.ID] = false
			}
		}()
		if in, wds, err = r.dataflow(x, owner, paramCell, entryDefs); err != nil {
			return err
		}
		usedAt = append(slices.Clone(usedAt), phis...)
	}

	// 4. Edges into the locations tracking the cell.
	for _, v := range usedAt {
		si := r.slot[v.ID]
		if si == 0 {
			continue // a local cell tracked outside its template cannot happen
		}
		set := in[int(si-1)*wds : int(si)*wds]
		for wi, word := range set {
			for word != 0 {
				b := bits.TrailingZeros64(word)
				word &^= 1 << b
				g.addEdge(Edge{Src: r.defs[wi*64+b], Cell: x, Dst: v})
			}
		}
	}
	return nil
}

// clearRegion resets the slots of the current region.
func (r *rdSolver) clearRegion() {
	for _, l := range r.region {
		r.slot[l.ID] = 0
	}
}

// bypassCell switches the call-to-return bypass (tests turn it off to see
// what it gains; it is on in every real run).
var bypassCell atomic.Bool

func init() { bypassCell.Store(true) }

// phiThreshold is the number of reaching definitions at a merge point from
// which it becomes a φ location of the cell (a variable for tests).
var phiThreshold = 8

// dataflow computes the in-sets (bitsets over r.defs) of the region, or
// returns ctx's error.
func (r *rdSolver) dataflow(x CellID, owner *cfg.Template, paramCell bool, entryDefs []int) ([]uint64, int, error) {
	g := r.g
	mainT := g.prog.Templates[0]
	writes := func(l *cfg.Loc) bool { return r.isW[l.ID] }
	wds := (len(r.defs) + 63) / 64
	need := len(r.region) * wds
	if cap(r.bitsBuf) < need {
		r.bitsBuf = make([]uint64, need)
	}
	in := r.bitsBuf[:need]
	clear(in)
	setBit := func(dst []uint64, d int) { dst[d/64] |= 1 << (d % 64) }
	// out(p) into dst: {p} for a writer, in(p) otherwise.
	orOut := func(dst []uint64, p *cfg.Loc) {
		if writes(p) {
			setBit(dst, r.defIdx[int32(p.ID)])
			return
		}
		si := r.slot[p.ID]
		if si == 0 {
			return // outside the template of a local cell
		}
		src := in[int(si-1)*wds : int(si)*wds]
		for i := range dst {
			dst[i] |= src[i]
		}
	}

	// Forward dataflow: one sweep in reverse postorder, then a worklist
	// for what back edges (and spawn edges to earlier entries) change.
	tmp := make([]uint64, wds)
	update := func(i int, v *cfg.Loc) bool {
		clear(tmp)
		if r.freshEntry(v) {
			setBit(tmp, 0)
		}
		if v.Template.Entry == v {
			switch {
			case v.Template == mainT:
				setBit(tmp, 0)
			case owner == nil:
				for _, s := range g.spawns[v.Template] {
					orOut(tmp, s)
				}
			case paramCell && len(entryDefs) > 0:
				for _, d := range entryDefs {
					setBit(tmp, d)
				}
			default:
				setBit(tmp, 0)
			}
		}
		for _, p := range r.predsOf(v) {
			orOut(tmp, p)
		}
		cur := in[i*wds : (i+1)*wds]
		changed := false
		for k := range cur {
			if tmp[k]|cur[k] != cur[k] {
				cur[k] |= tmp[k]
				changed = true
			}
		}
		return changed
	}
	var work []int32
	for i, v := range r.region {
		if err := r.step(); err != nil {
			return nil, 0, err
		}
		update(i, v)
		if v.Template.Entry == v && v.Template != mainT && owner == nil {
			work = append(work, int32(i))
			continue
		}
		for _, p := range r.predsOf(v) {
			if si := r.slot[p.ID]; si != 0 && int(si-1) >= i && !writes(p) {
				work = append(work, int32(i))
				break
			}
		}
	}
	queued := make([]bool, len(r.region))
	for _, i := range work {
		queued[i] = true
	}
	for len(work) > 0 {
		if err := r.step(); err != nil {
			return nil, 0, err
		}
		i := work[len(work)-1]
		work = work[:len(work)-1]
		queued[i] = false
		v := r.region[i]
		if !update(int(i), v) || writes(v) {
			continue
		}
		push := func(w *cfg.Loc) {
			if si := r.slot[w.ID]; si != 0 && !queued[si-1] {
				queued[si-1] = true
				work = append(work, si-1)
			}
		}
		for _, w := range v.Succs {
			if w.Return == nil || !r.bypass(w) {
				push(w)
			}
		}
		if ret := g.retOf[int32(v.ID)]; ret != nil && r.bypass(ret) {
			push(ret)
		}
		if sp, ok := v.Act.(*cfg.Spawn); ok && owner == nil {
			for _, t := range sp.Targets {
				if t.Entry != nil {
					push(t.Entry)
				}
			}
		}
	}

	return in, wds, nil
}
