package dfg

import (
	"context"
	"fmt"
	"math"
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
	posTmp  []int32 // radixSort's scratch
	defIdx  []int32 // by Loc.ID: index in defs + 1 (0: not a definition)
	defs    []*cfg.Loc
	bitsBuf []uint64
	// bitsDirty: the spans of bitsBuf (up to its capacity) that may be
	// nonzero; the rest is zero (takeBits).
	bitsDirty []bitsSpan
	writers   [][]*cfg.Loc // by cell: the locations writing it along the CFG
	isW       []bool       // by Loc.ID: writes the current cell
	x         CellID       // the current cell
	one       [1]*cfg.Loc
	oneID     [1]int32
	nearDef   []uint32 // by Loc.ID: == stamp when an input of the location writes the current cell
	stamp     uint32
	cfg       *rdCFG
	// bodiesOf and freshOf list, by cell, the shared bodies whose Mod
	// holds it and the body entries where it is made of Fresh registers
	// (sorted); modBody (by Body.ID) and freshHere (by Loc.ID) mark the
	// current cell's, so predsOf answers without a search per location.
	bodiesOf  [][]int32
	freshOf   [][]int32
	modBody   []bool
	freshHere []bool
	isUse     []bool // by Loc.ID: tracks the current cell (scratch for its φ locations)
	bypassOn  bool   // the bypass applies to the current cell
	df        rdBuffers
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

// predIDs is predsOf by Loc.ID (the same locations, in the same order):
// the region search and dataflow then read only dense arrays by ID
// instead of each predecessor's Loc (floppy's cells each walk a hundred
// thousand locations).
func (r *rdSolver) predIDs(id int32) []int32 {
	if r.freshHere[id] {
		return nil
	}
	if b := r.cfg.landBody[id]; b >= 0 && r.bypassOn && !r.modBody[b] {
		r.oneID[0] = r.cfg.landCall[id]
		return r.oneID[:]
	}
	return r.cfg.predList[r.cfg.predStart[id]:r.cfg.predStart[id+1]]
}

// rdCFG is the CFG by Loc.ID as reaching definitions walk it (shared by
// the solvers of one build).
type rdCFG struct {
	predStart, predList []int32 // g.preds
	landBody            []int32 // by Loc.ID: the Body.ID of a landing location, else -1
	landCall            []int32 // by Loc.ID: a landing location's call site
	tmpl                []int32 // by Loc.ID: its Template.ID
}

func newRDCFG(g *Graph) *rdCFG {
	n := len(g.prog.Locs)
	c := &rdCFG{predStart: make([]int32, n+1), landBody: make([]int32, n), landCall: make([]int32, n), tmpl: make([]int32, n)}
	for _, l := range g.prog.Locs {
		c.predStart[l.ID+1] = c.predStart[l.ID] + int32(len(g.preds[l.ID]))
		c.landBody[l.ID], c.landCall[l.ID] = -1, -1
		if l.Return != nil {
			c.landBody[l.ID], c.landCall[l.ID] = int32(l.Return.Body.ID), int32(l.Return.Call.ID)
		}
		c.tmpl[l.ID] = int32(l.Template.ID)
	}
	c.predList = make([]int32, 0, c.predStart[n])
	for _, l := range g.prog.Locs {
		for _, p := range g.preds[l.ID] {
			c.predList = append(c.predList, int32(p.ID))
		}
	}
	return c
}

// freshEntry reports whether v is the entry of a shared body whose Fresh
// registers make up the current cell: its definition there is ⊥ (any
// value), and its liveness region stops there instead of running back
// through every call site.
func (r *rdSolver) freshEntry(v *cfg.Loc) bool { return r.freshHere[v.ID] }

// bypass reports whether the current cell skips the body at landing v.
func (r *rdSolver) bypass(v *cfg.Loc) bool {
	return r.bypassOn && !r.modBody[v.Return.Body.ID]
}

// setCell makes x the current cell: its writers marked in isW, its bodies
// in modBody, its fresh entries in freshHere. The returned function undoes
// the marks.
func (r *rdSolver) setCell(x CellID) (unset func()) {
	r.x = x
	r.bypassOn = bypassCell.Load() && x != ControlCell
	r.markCell(x, true)
	return func() { r.markCell(x, false) }
}

// markCell sets (on) or clears x's marks in isW, modBody and freshHere.
func (r *rdSolver) markCell(x CellID, on bool) {
	for _, w := range r.writers[x] {
		r.isW[w.ID] = on
	}
	for _, b := range r.bodiesOf[x] {
		r.modBody[b] = on
	}
	for _, l := range r.freshOf[x] {
		r.freshHere[l] = on
	}
}

func newRDSolver(g *Graph) *rdSolver {
	n := len(g.prog.Locs)
	nc := g.part.NumCells()
	r := &rdSolver{g: g, slot: make([]int32, n), isW: make([]bool, n), defIdx: make([]int32, n),
		freshHere: make([]bool, n), isUse: make([]bool, n), modBody: make([]bool, len(g.bodyMod)), nearDef: make([]uint32, n)}
	r.cfg = newRDCFG(g)
	r.writers = make([][]*cfg.Loc, nc)
	for _, l := range g.prog.Locs {
		for _, c := range g.gen[l.ID] {
			r.writers[c] = append(r.writers[c], l)
		}
	}
	r.bodiesOf = make([][]int32, nc)
	for id, cs := range g.bodyMod {
		for _, c := range cs {
			r.bodiesOf[c] = append(r.bodiesOf[c], int32(id))
		}
	}
	r.freshOf = make([][]int32, nc)
	fe := make([]int32, 0, len(g.freshAt))
	for l := range g.freshAt {
		fe = append(fe, l)
	}
	slices.Sort(fe)
	for _, l := range fe {
		for _, c := range g.freshAt[l] {
			r.freshOf[c] = append(r.freshOf[c], l)
		}
	}
	return r
}

// fork returns a solver of the same graph with scratch state of its own
// (sharing the per-cell lists, which no solver changes).
func (r *rdSolver) fork() *rdSolver {
	n := len(r.g.prog.Locs)
	return &rdSolver{g: r.g, ctx: r.ctx, slot: make([]int32, n), isW: make([]bool, n), defIdx: make([]int32, n),
		freshHere: make([]bool, n), isUse: make([]bool, n), modBody: make([]bool, len(r.modBody)), nearDef: make([]uint32, n),
		writers: r.writers, bodiesOf: r.bodiesOf, freshOf: r.freshOf, cfg: r.cfg}
}

func has(set []CellID, c CellID) bool {
	_, ok := slices.BinarySearch(set, c)
	return ok
}

// defIndex returns the index in defs of l, a definition.
func (r *rdSolver) defIndex(l *cfg.Loc) int { return int(r.defIdx[l.ID] - 1) }

func (r *rdSolver) def(l *cfg.Loc) int {
	if l == nil {
		return 0
	}
	if d := r.defIdx[l.ID]; d != 0 {
		return int(d - 1)
	}
	d := len(r.defs)
	r.defIdx[l.ID] = int32(d + 1)
	r.defs = append(r.defs, l)
	return d
}

// solve adds the edges of cell x into the locations usedAt that track it.
// It returns ctx's error (the cell's edges incomplete) when ctx is done.
func (r *rdSolver) solve(x CellID, usedAt []*cfg.Loc) error {
	rec, err := r.compute(x, usedAt)
	if err != nil {
		return err
	}
	rec.apply(r.g, x)
	return nil
}

// compute returns what solve adds for cell x: its φ locations and its
// edges, in order, or ctx's error. It reads the graph's CFG (preds,
// spawns, rpo, the partition) and writes only r, so solvers of their own
// may compute cells concurrently while one goroutine applies the
// records in cell order (rdGroups.solveAll).
func (r *rdSolver) compute(x CellID, usedAt []*cfg.Loc) (*rdRecord, error) {
	g := r.g
	if r.ctx != nil {
		if err := r.ctx.Err(); err != nil {
			return nil, err
		}
	}
	rec := &rdRecord{}
	cell := g.part.Cell(x)
	var owner *cfg.Template // nil for a global cell
	if !cell.Global {
		owner = cell.Vars[0].Template
	}
	paramCell := owner != nil && owner.Param != nil && g.part.CellOf(owner.Param) == x
	mainT := g.prog.Templates[0]
	defer r.setCell(x)()
	writes := func(l *cfg.Loc) bool { return r.isW[l.ID] }

	// 1. The region: locations whose in-set is needed; nearDef marks
	// those with an input writing the cell (this call's stamp).
	r.stamp++
	r.region = r.region[:0]
	locs := g.prog.Locs
	ownerID := int32(-1)
	if owner != nil {
		ownerID = int32(owner.ID)
	}
	addID := func(id int32) {
		if r.slot[id] == 0 && (ownerID < 0 || r.cfg.tmpl[id] == ownerID) {
			r.region = append(r.region, locs[id])
			r.slot[id] = int32(len(r.region))
		}
	}
	add := func(l *cfg.Loc) { addID(int32(l.ID)) }
	for _, v := range usedAt {
		add(v)
	}
	for i := 0; i < len(r.region); i++ {
		if err := r.step(); err != nil {
			r.clearRegion()
			return nil, err
		}
		w := r.region[i]
		for _, p := range r.predIDs(int32(w.ID)) {
			if !r.isW[p] {
				addID(p)
			} else {
				r.nearDef[w.ID] = r.stamp
			}
		}
		if owner == nil && w.Template.Entry == w && w.Template != mainT {
			for _, s := range g.spawns[w.Template] {
				if !writes(s) {
					add(s)
				} else {
					r.nearDef[w.ID] = r.stamp
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
		r.pos, r.posTmp = radixSort(r.pos, r.posTmp)
		for i, ix := range r.pos {
			r.region[i] = g.rpo[ix]
		}
	}
	for i, l := range r.region {
		r.slot[l.ID] = int32(i + 1)
	}

	// 2. Definitions: ⊥, the writers adjacent to the region, spawn sites.
	for _, l := range r.defs {
		if l != nil {
			r.defIdx[l.ID] = 0 // (the previous cell's)
		}
	}
	r.defs = append(r.defs[:0], nil)
	var entryDefs []int // for the owner's entry (parameter cell)
	if paramCell {
		for _, s := range g.spawns[owner] {
			entryDefs = append(entryDefs, r.def(s))
		}
	}
	for _, w := range r.region {
		if r.nearDef[w.ID] != r.stamp {
			continue // (no input writes the cell: the search saw them all)
		}
		for _, p := range r.predIDs(int32(w.ID)) {
			if r.isW[p] {
				r.def(locs[p])
			}
		}
		if owner == nil && w.Template.Entry == w && w.Template != mainT {
			for _, s := range g.spawns[w.Template] {
				if writes(s) {
					r.def(s)
				}
			}
		}
	}

	// φ locations: a merge point reached by many definitions becomes a
	// pass-through definition of the cell (it tracks the cell, its action
	// leaves it unchanged, so its post is the join of those definitions).
	// The uses below it then get one edge instead of many, the way SSA's φ
	// functions avoid the quadratic def-use chains of switch-heavy code.
	// A spawned template's entry is a merge point too, of the
	// definitions at its spawn sites (for a global cell; not for a mixed
	// one, whose entry edges forget the parent's locals): without its φ,
	// each use at the start of the thread got an edge from every
	// definition reaching any spawn site (ddverify/floppy.c: hundreds per
	// use for each of three hundred cells). Its action does not write the
	// cell (isW), so it passes the cell through like any φ location.
	spawnMerge := func(v *cfg.Loc) bool {
		return phiAtSpawnEntry && owner == nil && v.Template.Entry == v && v.Template != mainT && !cell.Mixed()
	}
	// (A location with two inputs or more, and an entry, stores its set:
	// the others are no φ candidates.)
	candidate := func(i int, v *cfg.Loc, rep []int32) bool {
		return rep[i] == int32(i) && !r.isW[v.ID] && (len(r.predIDs(int32(v.ID))) >= 2 || spawnMerge(v))
	}
	exactPhis := func(sets *rdSets) []*cfg.Loc {
		var phis []*cfg.Loc
		for i, v := range r.region {
			if !candidate(i, v, sets.rep) {
				continue
			}
			n := 0
			for _, w := range sets.at(i) {
				n += bits.OnesCount64(w)
			}
			if n >= phiThreshold {
				phis = append(phis, v)
			}
		}
		return phis
	}
	// A cell with many definitions (a global written in every handler
	// of a driver) has wide sets wherever its definitions meet, and
	// after its φ locations mostly narrow ones: the capped sets find
	// the same φ locations (cappedMany) without the wide sets, which
	// are then computed only once the φ locations cut them (drivergen
	// at 4500 handlers: five device cells of 49k storing locations ×
	// 4.5k definitions each).
	var sets *rdSets
	var phis []*cfg.Loc
	var err error
	capped := false
	if wds := (len(r.defs) + 63) / 64; !denseRD && phiThreshold >= 1 && phiThreshold <= 64 && wds >= capMinWords {
		capped = true
		d, many, err := r.cappedMany(owner, paramCell, entryDefs, phiThreshold)
		if err != nil {
			return nil, err
		}
		for i, v := range r.region {
			if candidate(i, v, d.rep) && many[d.slot[i]] {
				phis = append(phis, v)
			}
		}
		if checkIncremental && len(phis) > 0 {
			exact, err := r.inSets(x, owner, paramCell, entryDefs)
			if err != nil {
				return nil, err
			}
			if want := exactPhis(exact); !slices.Equal(phis, want) {
				panic(fmt.Sprintf("dfg: reaching definitions of cell %d: capped sets give %d φ locations, the exact sets %d", x, len(phis), len(want)))
			}
		}
	}
	if len(phis) == 0 {
		if sets, err = r.inSets(x, owner, paramCell, entryDefs); err != nil {
			return nil, err
		}
		phis = exactPhis(sets)
		if checkIncremental && capped && len(phis) > 0 {
			panic(fmt.Sprintf("dfg: reaching definitions of cell %d: capped sets give no φ location, the exact sets %d", x, len(phis)))
		}
	}
	if len(phis) > 0 {
		// The φ locations not tracking x yet (those tracking it are in
		// usedAt: listing them twice would add their edges twice).
		for _, v := range usedAt {
			r.isUse[v.ID] = true
		}
		var newUses []*cfg.Loc
		for _, v := range phis {
			r.isW[v.ID] = true
			r.def(v)
			if !r.isUse[v.ID] {
				newUses = append(newUses, v)
			}
		}
		for _, v := range usedAt {
			r.isUse[v.ID] = false
		}
		defer func() {
			for _, v := range phis {
				r.isW[v.ID] = false
			}
		}()
		if sets, err = r.inSets(x, owner, paramCell, entryDefs); err != nil {
			return nil, err
		}
		usedAt = append(slices.Clone(usedAt), newUses...)
		rec.phis = phis
	}

	// 4. Edges into the locations tracking the cell.
	for _, v := range usedAt {
		si := r.slot[v.ID]
		if si == 0 {
			continue // a local cell tracked outside its template cannot happen
		}
		for wi, word := range sets.at(int(si - 1)) {
			for word != 0 {
				b := bits.TrailingZeros64(word)
				word &^= 1 << b
				// Unique: one cell, each target once, each definition
				// once (addSeqEdge's premise).
				rec.src = append(rec.src, r.defs[wi*64+b])
				rec.dst = append(rec.dst, v)
			}
		}
	}
	return rec, nil
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

// phiAtSpawnEntry lets a spawned template's entry be a φ location of a
// global cell (a test switch: on in every real run).
var phiAtSpawnEntry = true

// dataflowDense computes the in-sets (bitsets over r.defs) of every
// location of the region, or returns ctx's error: the plain algorithm,
// which dataflow must agree with (TestSparseReachingDefinitions).
func (r *rdSolver) dataflowDense(x CellID, owner *cfg.Template, paramCell bool, entryDefs []int) ([]uint64, int, error) {
	g := r.g
	mainT := g.prog.Templates[0]
	writes := func(l *cfg.Loc) bool { return r.isW[l.ID] }
	wds := (len(r.defs) + 63) / 64
	need := len(r.region) * wds
	in := r.takeBits(need)
	r.bitsDirty = append(r.bitsDirty, bitsSpan{0, need}) // (written anywhere)
	setBit := func(dst []uint64, d int) { dst[d/64] |= 1 << (d % 64) }
	// out(p) into dst: {p} for a writer, in(p) otherwise.
	orOut := func(dst []uint64, p *cfg.Loc) {
		if writes(p) {
			setBit(dst, r.defIndex(p))
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

// denseRD makes reaching definitions use dataflowDense (tests compare).
var denseRD bool

// inSets computes the region's in-sets with dataflow (dataflowDense when
// denseRD is set).
func (r *rdSolver) inSets(x CellID, owner *cfg.Template, paramCell bool, entryDefs []int) (*rdSets, error) {
	if !denseRD {
		return r.dataflow(owner, paramCell, entryDefs)
	}
	in, wds, err := r.dataflowDense(x, owner, paramCell, entryDefs)
	if err != nil {
		return nil, err
	}
	n := len(r.region)
	sets := &rdSets{wds: wds, rep: make([]int32, n), slot: make([]int32, n), store: in, buf: make([]uint64, wds)}
	for i := range n {
		sets.rep[i], sets.slot[i] = int32(i), int32(i)
	}
	return sets, nil
}

// rdSets are the in-sets of a region computed by dataflow. Most locations
// have one predecessor: their in-set is their predecessor's out-set, so
// only the others (merge points, template and body entries, and one
// location per cycle of single predecessors) store a bitset; a location
// with one predecessor refers to the location whose set it shares, or
// holds the one definition its writing predecessor makes.
type rdSets struct {
	wds int
	// rep by region index: ≥ 0, the region index of the location storing
	// the set; repEmpty; or -1-d, the set {d}.
	rep   []int32
	slot  []int32 // by region index of a storing location: its set's index in store
	store []uint64
	buf   []uint64
}

const repEmpty = math.MinInt32

// at returns the in-set of the location at region index i (valid until
// the next call).
func (s *rdSets) at(i int) []uint64 {
	r := s.rep[i]
	if r >= 0 {
		k := int(s.slot[r])
		return s.store[k*s.wds : (k+1)*s.wds]
	}
	clear(s.buf)
	if r != repEmpty {
		d := int(-1 - r)
		s.buf[d/64] |= 1 << (d % 64)
	}
	return s.buf
}

// dataflow computes the in-sets (bitsets over r.defs) of the region, or
// returns ctx's error. The sets are the least solution of
//
//	in(v) = entry(v) ∪ ⋃ over inputs p of v of out(p),  out(p) = {p} if p
//	writes the cell, else in(p)
//
// (inputs: predsOf(v), and for a spawned template's entry and a global
// cell the spawn sites), as in dataflowDense, but stored only at the
// locations that are not a copy of one predecessor (rdSets): a location
// whose only input is p, that is no entry, shares out(p). The worklist runs
// over the storing locations only, along their dependences. On floppy the
// dense sets (region × definitions bits, one OR per predecessor) took over
// half an hour.
func (r *rdSolver) dataflow(owner *cfg.Template, paramCell bool, entryDefs []int) (*rdSets, error) {
	wds := (len(r.defs) + 63) / 64
	d, err := r.regionReps()
	if err != nil {
		return nil, err
	}
	sets := &rdSets{wds: wds, rep: d.rep, slot: d.slot, buf: make([]uint64, wds)}
	sets.store = r.takeBits(len(d.stores) * wds)
	// setBit records each word it makes nonzero, and orRow each row it
	// grows (once), so that the next takeBits clears only those: most
	// storing locations hold a bit or two of constant part, and clearing
	// every row of every cell cost ten times the sweeps' ORs (drivergen
	// at 4500 handlers: 1.2 s of memclr for 0.13 s of ORs).
	r.regionInputs(d, owner, paramCell, entryDefs, func(k, d int) {
		w := &sets.store[k*wds+d/64]
		if *w == 0 {
			r.bitsDirty = append(r.bitsDirty, bitsSpan{k*wds + d/64, 1})
		}
		*w |= 1 << (d % 64)
	})
	store := func(k int32) []uint64 { return sets.store[int(k)*wds : int(k+1)*wds] }
	grown := grow(&r.df.grown, len(d.stores)) // the rows recorded in bitsDirty whole
	clear(grown)
	err = r.sweep(d, func(k, j int32) bool {
		cur, src := store(k), store(j)
		var grew uint64
		for i, w := range src {
			grew |= w &^ cur[i]
			cur[i] |= w
		}
		if grew != 0 && !grown[k] {
			grown[k] = true
			r.bitsDirty = append(r.bitsDirty, bitsSpan{int(k) * wds, wds})
		}
		return grew != 0
	})
	if err != nil {
		return nil, err
	}
	return sets, nil
}

// rdDeps is the dependence structure of a region's in-sets (dataflow's
// steps 1 and 2), which the bitsets of dataflow and the capped sets of
// cappedMany share: rep and slot as in rdSets, stores (the region indices
// of the storing locations, in region order), and by storing location the
// stored sets it reads (inStart, inList) and those reading it (depStart,
// depList).
type rdDeps struct {
	rep, slot, stores                  []int32
	inStart, inList, depStart, depList []int32
}

// regionReps is dataflow's step 1: the representatives of the region's
// locations and the storing locations.
func (r *rdSolver) regionReps() (*rdDeps, error) {
	n := len(r.region)
	isEntry := func(v *cfg.Loc) bool { return v.Template.Entry == v || r.freshEntry(v) }
	const unresolved = math.MinInt32 + 1
	b := &r.df
	rep := grow(&b.rep, n)
	next := grow(&b.next, n) // a copying location's input's region index (-1: none)
	for i, v := range r.region {
		rep[i] = unresolved
		next[i] = -1
		ps := r.predIDs(int32(v.ID))
		switch {
		case isEntry(v) || len(ps) != 1:
			rep[i] = int32(i)
		case r.isW[ps[0]]:
			rep[i] = -r.defIdx[ps[0]] // -1 - its index in defs
		case r.slot[ps[0]] == 0:
			rep[i] = repEmpty // outside the template of a local cell
		default:
			next[i] = r.slot[ps[0]] - 1
		}
	}
	mark := grow(&b.mark, n)
	clear(mark)
	path := b.path[:0]
	defer func() { b.path = path }()
	for i := range n {
		if rep[i] != unresolved {
			continue
		}
		path = path[:0]
		j := int32(i)
		var res int32
		for {
			if err := r.step(); err != nil {
				return nil, err
			}
			if rep[j] != unresolved {
				res = rep[j]
				break
			}
			if mark[j] == int32(i+1) {
				// A cycle of single inputs: j stores its set (the
				// least solution makes it empty unless some location
				// of the cycle is an entry, which it is not).
				rep[j] = j
				res = j
				break
			}
			mark[j] = int32(i + 1)
			path = append(path, j)
			j = next[j]
		}
		for _, k := range path {
			rep[k] = res
		}
	}
	d := &rdDeps{rep: rep, slot: grow(&b.slot, n)}
	stores := b.stores[:0]
	for i := range n {
		if rep[i] == int32(i) {
			d.slot[i] = int32(len(stores))
			stores = append(stores, int32(i))
		}
	}
	b.stores = stores
	d.stores = stores
	return d, nil
}

// regionInputs is dataflow's step 2: the constant part of each storing
// location's set goes to constBit(k, def) (what its entry brings, and
// each input whose out-set is one definition); the inputs whose out-set
// is a stored set are listed, each once (inStart, inList: by storing
// location), and inverted into deps (depStart, depList: the storing
// locations reading each stored set). An input's out-set: {p} when p
// writes the cell, nothing outside the region (the template of a local
// cell), else p's in-set.
func (r *rdSolver) regionInputs(d *rdDeps, owner *cfg.Template, paramCell bool, entryDefs []int, constBit func(k, def int)) {
	g := r.g
	b := &r.df
	mainT := g.prog.Templates[0]
	rep, stores := d.rep, d.stores
	// spawnIn: the spawn sites are inputs of v (a spawned template's
	// entry, for a global cell).
	spawnIn := func(v *cfg.Loc) bool {
		return v.Template.Entry == v && v.Template != mainT && owner == nil
	}
	inStart := grow(&b.inStart, len(stores)+1)
	inList := b.inList[:0]
	seen := grow(&b.seen, len(stores))
	clear(seen)
	inputs := func(v *cfg.Loc, f func(p int32)) {
		for _, p := range r.predIDs(int32(v.ID)) {
			f(p)
		}
		if spawnIn(v) {
			for _, s := range g.spawns[v.Template] {
				f(int32(s.ID))
			}
		}
	}
	for k, i := range stores {
		inStart[k] = int32(len(inList))
		v := r.region[i]
		if r.freshEntry(v) {
			constBit(k, 0)
		}
		if v.Template.Entry == v {
			switch {
			case v.Template == mainT:
				constBit(k, 0)
			case owner == nil:
				// (the spawn sites are inputs)
			case paramCell && len(entryDefs) > 0:
				for _, e := range entryDefs {
					constBit(k, e)
				}
			default:
				constBit(k, 0)
			}
		}
		inputs(v, func(p int32) {
			if r.isW[p] {
				constBit(k, int(r.defIdx[p]-1))
				return
			}
			si := r.slot[p]
			if si == 0 {
				return
			}
			switch q := rep[si-1]; {
			case q == repEmpty:
			case q < 0:
				constBit(k, int(-1-q))
			default:
				// (k's own set as an input adds nothing)
				if j := d.slot[q]; int(j) != k && seen[j] != int32(k+1) {
					seen[j] = int32(k + 1)
					inList = append(inList, j)
				}
			}
		})
	}
	inStart[len(stores)] = int32(len(inList))
	b.inList = inList
	depStart := grow(&b.depStart, len(stores)+1)
	clear(depStart)
	for _, j := range inList {
		depStart[j+1]++
	}
	for k := range stores {
		depStart[k+1] += depStart[k]
	}
	depList := grow(&b.depList, len(inList))
	fill := grow(&b.fill, len(stores))
	copy(fill, depStart[:len(stores)])
	for k := range stores {
		for _, j := range inList[inStart[k]:inStart[k+1]] {
			depList[fill[j]] = int32(k)
			fill[j]++
		}
	}
	d.inStart, d.inList, d.depStart, d.depList = inStart, inList, depStart, depList
}

// sweep is dataflow's step 3: sweeps in region (reverse post-)order over
// the queued storing locations until none is: each joins its listed
// inputs' sets into its own (orRow(k, j): j's set into k's, reporting
// whether k's grew); a dependence forward is handled in the same sweep,
// one backward (a loop) in the next, so the sweeps are about the loop
// nesting depth plus one. (A LIFO worklist re-ORed the wide sets of
// floppy's globals many times over.) Every set starts with its constant
// part and only grows, and a storing location is queued again whenever
// an input's set grows, so the sweeps end at the least solution, as
// dataflowDense.
func (r *rdSolver) sweep(d *rdDeps, orRow func(k, j int32) bool) error {
	queued := grow(&r.df.queued, len(d.stores))
	for k := range queued {
		queued[k] = true
	}
	for more := true; more; {
		more = false
		for k := range d.stores {
			if !queued[k] {
				continue
			}
			if err := r.step(); err != nil {
				return err
			}
			queued[k] = false
			grew := false
			for _, j := range d.inList[d.inStart[k]:d.inStart[k+1]] {
				if orRow(int32(k), j) {
					grew = true
				}
			}
			if !grew {
				continue
			}
			for _, dep := range d.depList[d.depStart[k]:d.depStart[k+1]] {
				if !queued[dep] {
					queued[dep] = true
					more = more || int(dep) <= k
				}
			}
		}
	}
	return nil
}

// cappedMany returns, by storing location of the region (rdDeps.slot),
// whether its in-set holds at least k definitions (k ≥ 1), or ctx's
// error: dataflow's equations over sets capped at k elements (a set of k
// or more is "many"). Capping maps union to union (a set with k elements
// or more stays so in any union; below that the union is exact) and the
// empty set to itself, so the least solution of the capped equations is
// the capped least solution of dataflow's: "many" exactly where dataflow's
// set has k definitions or more. compute uses it to find the φ locations
// of a cell with many definitions without the region × definitions
// bitsets, which its φ locations then make unnecessary.
func (r *rdSolver) cappedMany(owner *cfg.Template, paramCell bool, entryDefs []int, k int) (*rdDeps, []bool, error) {
	d, err := r.regionReps()
	if err != nil {
		return nil, nil, err
	}
	ns := len(d.stores)
	b := &r.df
	// set s: elems[s*(k-1):][:cnt[s]] while cnt[s] < k; cnt[s] == k: many.
	elems := grow(&b.capElems, ns*(k-1))
	cnt := grow(&b.capCnt, ns)
	clear(cnt)
	add := func(s int32, def int32) bool {
		c := cnt[s]
		if int(c) >= k {
			return false
		}
		row := elems[int(s)*(k-1) : int(s)*(k-1)+int(c)]
		if slices.Contains(row, def) {
			return false
		}
		if int(c) == k-1 {
			cnt[s] = int32(k)
		} else {
			elems[int(s)*(k-1)+int(c)] = def
			cnt[s] = c + 1
		}
		return true
	}
	r.regionInputs(d, owner, paramCell, entryDefs, func(s, def int) { add(int32(s), int32(def)) })
	err = r.sweep(d, func(s, j int32) bool {
		if int(cnt[j]) >= k {
			if int(cnt[s]) >= k {
				return false
			}
			cnt[s] = int32(k)
			return true
		}
		grew := false
		for _, def := range elems[int(j)*(k-1) : int(j)*(k-1)+int(cnt[j])] {
			if add(s, def) {
				grew = true
			}
		}
		return grew
	})
	if err != nil {
		return nil, nil, err
	}
	many := grow(&b.capMany, ns)
	for s := range many {
		many[s] = int(cnt[s]) >= k
	}
	return d, many, nil
}

// capMinWords is the width of a cell's definition bitsets (in words)
// from which compute looks for its φ locations with cappedMany first (a
// variable for the tests, which use it everywhere; a phiThreshold over 64
// makes the capped sets no smaller, and compute does without them).
var capMinWords = 4

// rdBuffers are dataflow's scratch slices, kept from one call to the next
// (one cell after another) instead of allocated per call.
type rdBuffers struct {
	rep, next, mark, path, slot, stores []int32
	inStart, inList, depStart, depList  []int32
	seen, fill                          []int32
	queued, grown                       []bool
	capElems, capCnt                    []int32 // cappedMany's sets
	capMany                             []bool
}

// bitsSpan is a span of rdSolver.bitsBuf: offset and length in words.
type bitsSpan struct{ off, n int }

// takeBits returns bitsBuf resized to n words, all zero: it clears the
// spans recorded dirty since the last call (the callers record what they
// write), or allocates a larger (zero) buffer. The words past the dirty
// spans are zero already, so the result equals a cleared buffer.
func (r *rdSolver) takeBits(n int) []uint64 {
	if cap(r.bitsBuf) < n {
		r.bitsBuf = make([]uint64, n)
	} else {
		all := r.bitsBuf[:cap(r.bitsBuf)]
		for _, sp := range r.bitsDirty {
			clear(all[sp.off : sp.off+sp.n])
		}
		r.bitsBuf = r.bitsBuf[:n]
		if checkIncremental {
			for i, w := range all {
				if w != 0 {
					panic(fmt.Sprintf("dfg: reaching definitions: word %d of the bit buffer not recorded dirty", i))
				}
			}
		}
	}
	r.bitsDirty = r.bitsDirty[:0]
	return r.bitsBuf
}

// grow returns *buf resized to n (contents unspecified), reallocating only
// when its capacity is too small.
func grow[T any](buf *[]T, n int) []T {
	if cap(*buf) < n {
		*buf = make([]T, n)
	}
	*buf = (*buf)[:n]
	return *buf
}

// radixSort sorts xs, distinct non-negative positions, and returns the
// sorted slice and the other buffer (tmp, grown to len(xs), is scratch):
// least significant 11 bits first, three passes. The regions of a large
// program's cells are sorted once each, tens of thousands of positions
// for thousands of cells (drivergen at 4500 handlers, octagon: pdqsort
// was a seventh of the run).
func radixSort(xs, tmp []int32) (sorted, scratch []int32) {
	if len(xs) < 256 {
		slices.Sort(xs)
		return xs, tmp
	}
	tmp = grow(&tmp, len(xs))
	var count [1 << 11]int32
	for shift := 0; shift < 33; shift += 11 {
		clear(count[:])
		for _, x := range xs {
			count[(x>>shift)&(1<<11-1)]++
		}
		sum := int32(0)
		for i, c := range count {
			count[i] = sum
			sum += c
		}
		for _, x := range xs {
			d := (x >> shift) & (1<<11 - 1)
			tmp[count[d]] = x
			count[d]++
		}
		xs, tmp = tmp, xs
	}
	return xs, tmp
}
