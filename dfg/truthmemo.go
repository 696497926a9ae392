package dfg

import (
	"encoding/binary"
	"slices"

	"chorus/cfg"
	"chorus/domains"
)

// TruthMemo answers State.Truth for many locations, remembering the part
// of each answer that depends only on values: refining a state by cond
// and by its negation, and the domain's Entails, read nothing but the
// values of the cells cond reads (frameFor builds its frame from them
// alone), so two states holding the very same value objects for those
// cells get the same answer there. Values are immutable and the solver
// passes one value object on through many locations (a post passes
// untouched cells through, a single edge's join is the value itself, an
// incremental evaluation keeps unchanged cells), so the interference
// engine's signatures, which ask every condition at every game position,
// mostly ask again what they asked before (pcwd: 300,000 questions, 45,000
// distinct). The location-dependent part (State.guarded) is evaluated on
// every call, as Truth does. The keys hold the value objects, so an
// address is never reused for another value while its entry lives.
//
// Results are those of State.Truth exactly. A TruthMemo is not safe for
// concurrent use; drop it (or Reset it) to free its entries.
//
// Generations: between the analysis's rounds most locations keep their
// value objects (the solver re-evaluates only what new edges reach), so
// the answers of the previous round are asked again; Age keeps them for
// one more round (old) while bounding the memo to the entries of the last
// two rounds, instead of Reset dropping them all (aztcd: every round asked
// its ~100,000 questions afresh). An entry of old that is asked again
// moves to m. Keys hold their value objects, so an old entry can never
// answer for a different value.
type TruthMemo struct {
	s     *Solver
	cells map[cfg.Expr][]CellID // per condition: frameFor's cells
	m     genMap[truthKey, valueTruth]
	// The guard's per-source question (State.guarded: does cond hold on
	// the value a source passes on?) reads nothing but that value object:
	// memoized the same way, in generations.
	excl genMap[exclKey, bool]
	// proj: per condition, answers keyed by the box projection of its
	// cells' values onto its variables (projKey), for the interval domain;
	// asked when the value objects miss.
	proj map[cfg.Expr]*projMemo
	buf  []byte
	// Counts of the answers: by value objects (Hits), by the projection
	// (ProjHits), evaluated (Evals).
	Hits, ProjHits, Evals int
}

type exclKey struct {
	cond cfg.Expr
	val  domains.Value
}

// truthMemoCells bounds the cells of a memoized condition (the key holds
// one value per cell); conditions over more cells are not memoized.
const truthMemoCells = 4

type truthKey struct {
	cond cfg.Expr
	vals [truthMemoCells]domains.Value // by frameFor's cell; nil: not tracked
}

// NewTruthMemo returns an empty memo for s's states.
func (s *Solver) NewTruthMemo() *TruthMemo {
	return &TruthMemo{s: s, cells: map[cfg.Expr][]CellID{}, m: newGenMap[truthKey, valueTruth](), excl: newGenMap[exclKey, bool](), proj: map[cfg.Expr]*projMemo{}}
}

// Reset forgets the memoized answers.
func (tm *TruthMemo) Reset() {
	clear(tm.m.m)
	clear(tm.excl.m)
	clear(tm.proj)
}

// Age starts a new generation: the answers asked since the previous Age
// stay available until the next one, older answers are dropped.
func (tm *TruthMemo) Age() {
	tm.m.age()
	tm.excl.age()
	for _, pm := range tm.proj {
		pm.age()
	}
}

// ageGeneration makes the current map the old generation and reuses the
// previous old map, emptied, as the new current one.
func ageGeneration[K comparable, V any](cur, old *map[K]V) {
	prev := *old
	*old = *cur
	if prev != nil {
		clear(prev)
		*cur = prev
	} else {
		*cur = map[K]V{}
	}
}

// genMap is a memo in generations, in one map: each entry carries the
// generation that last asked it, and age drops the entries not asked in
// the generation it ends. That keeps the entries of the last two
// generations, as a current and an old map did, at one lookup for a hit
// of either (and a write-back for an old one) where the two maps cost a
// miss, a hit and an insertion (aztcd: a third of TruthMemo.Truth).
type genMap[K comparable, V any] struct {
	m   map[K]genEntry[V]
	gen uint32
}

type genEntry[V any] struct {
	v   V
	gen uint32
}

func newGenMap[K comparable, V any]() genMap[K, V] {
	return genMap[K, V]{m: map[K]genEntry[V]{}}
}

func (g *genMap[K, V]) get(k K) (V, bool) {
	e, ok := g.m[k]
	if ok && e.gen != g.gen {
		e.gen = g.gen
		g.m[k] = e
	}
	return e.v, ok
}

func (g *genMap[K, V]) put(k K, v V) { g.m[k] = genEntry[V]{v, g.gen} }

func (g *genMap[K, V]) age() {
	for k, e := range g.m {
		if e.gen != g.gen {
			delete(g.m, k)
		}
	}
	g.gen++
}

// excludes is Solver.negationExcluded(cond, cell, val), memoized: cell is
// a function of cond (the one cell it reads).
func (tm *TruthMemo) excludes(cond cfg.Expr, cell CellID, val domains.Value) bool {
	k := exclKey{cond, val}
	r, ok := tm.excl.get(k)
	if !ok {
		r = tm.s.negationExcluded(cond, cell, val)
		tm.excl.put(k, r)
	}
	return r
}

// Truth is st.Truth(cond).
func (tm *TruthMemo) Truth(st *State, cond cfg.Expr) Truth {
	if st.bottom {
		return Bottom
	}
	if st.s != tm.s {
		return st.Truth(cond)
	}
	cells, ok := tm.cells[cond]
	if !ok {
		var vars []*cfg.Var
		vars = exprVars(vars, cond)
		for _, v := range vars {
			cells = append(cells, tm.s.part.CellOf(v))
		}
		cells = sortedSet(cells)
		tm.cells[cond] = cells
	}
	if len(cells) > truthMemoCells {
		return st.Truth(cond)
	}
	k := truthKey{cond: cond}
	for i, c := range cells {
		if v, ok := st.value(c); ok {
			k.vals[i] = v
		}
	}
	vt, ok := tm.m.get(k)
	if !ok {
		vt = tm.projTruth(st, cond, cells)
		tm.m.put(k, vt)
	} else {
		tm.Hits++
	}
	return st.finishTruth(cond, vt, tm)
}

// TruthStamp identifies the inputs of State.Truth for a set of
// conditions at a location (TruthStamper): two stamps of one location from
// one stamper are equal only when Truth answers each of its conditions
// there as before, so a caller may keep its answers while the stamp stays
// (the interference engine's signatures).
//
// Truth(cond) at loc reads, of the cells cond reads (frameFor; guarded
// reads a subset): the values of the state Φ(loc) and its ⊥-ness
// (valueTruth), and the edges into loc of those cells with the post of
// each edge's source, its ⊥-ness and value of the edge's cell (guarded).
// Nothing else of it changes between Solves (the partition, the acts, a
// location's In and so the cells a state or post holds are fixed until
// the graph is rebuilt). So the stamp holds
//   - Gen: the Solves from scratch, which make every state and edge list
//     anew;
//   - Edges: the number of edges into loc of the conditions' cells
//     (between rebuilds edges are only appended to a location's list);
//   - Tick: the largest tick (Solver.stampSet) of the state at loc for
//     the conditions' cells, and of the posts of those edges' sources for
//     the edge's cell. A location's post is a function of its state: its
//     ⊥-ness and touched cells of the touched cells' values (touchTick),
//     an untouched cell passes its value through (valTick); a hub's is a
//     function of its sources' posts (postTick). Ticks come from a clock
//     that only grows, so any replacement since the last stamp carries a
//     tick larger than every tick it saw: an unchanged Tick means no value
//     object Truth reads was replaced.
//
// Conservative: a replaced value equal to the old one changes the stamp.
type TruthStamp struct {
	Gen, Tick int64
	Edges     int
}

// TruthStamper gives the TruthStamps of a fixed set of conditions.
type TruthStamper struct {
	s    *Solver
	cond []bool // by CellID: a cell some condition reads
	// CondStamps: slot by CellID (-1: no condition reads it), each
	// condition's slots, and per-slot scratch (ticks, edge counts).
	slot      []int32
	condSlots [][]int32
	ticks     []int64
	edges     []int
}

// NewTruthStamper returns the stamper of conds.
func (s *Solver) NewTruthStamper(conds []cfg.Expr) *TruthStamper {
	ts := &TruthStamper{s: s, cond: make([]bool, s.part.NumCells()), slot: make([]int32, s.part.NumCells())}
	for i := range ts.slot {
		ts.slot[i] = -1
	}
	var vars []*cfg.Var
	ts.condSlots = make([][]int32, len(conds))
	for i, c := range conds {
		vars = exprVars(vars[:0], c)
		var slots []int32
		for _, v := range vars {
			x := s.part.CellOf(v)
			ts.cond[x] = true
			if ts.slot[x] < 0 {
				ts.slot[x] = int32(len(ts.ticks))
				ts.ticks = append(ts.ticks, 0)
				ts.edges = append(ts.edges, 0)
			}
			slots = append(slots, ts.slot[x])
		}
		slices.Sort(slots)
		ts.condSlots[i] = slices.Compact(slots)
	}
	return ts
}

func (ts *TruthStamper) reads(c CellID) bool {
	return c >= 0 && int(c) < len(ts.cond) && ts.cond[c]
}

// Stamp returns loc's stamp (see TruthStamp).
func (ts *TruthStamper) Stamp(loc *cfg.Loc) TruthStamp {
	s := ts.s
	st := TruthStamp{Gen: s.solveGen, Tick: -1}
	if s.states == nil || loc.ID >= len(s.states) || loc.ID >= len(s.wholeTick) {
		return st // (At: ⊥ until solved)
	}
	st.Tick = max(s.wholeTick[loc.ID], s.cellsTick(int32(loc.ID), ts, NoCell))
	for _, e := range s.g.edges[loc.ID] {
		if !ts.reads(e.Cell) {
			continue
		}
		st.Edges++
		if e.Src == nil {
			continue
		}
		u := int32(e.Src.ID)
		if int(u) >= len(s.g.prog.Locs) {
			st.Tick = max(st.Tick, s.postTick[u]) // a hub
			continue
		}
		st.Tick = max(st.Tick, s.wholeTick[u], s.touchTick[u], s.cellsTick(u, nil, e.Cell))
	}
	return st
}

// CondStamps sets out[i] to loc's stamp for the i-th condition alone:
// the stamp a TruthStamper of that one condition would give (tested:
// TestCondStampsAsSingleStampers), from one walk of loc's cells and edges
// for all conditions. A condition's stamp covers what Truth reads of it
// (see TruthStamp), so a caller may keep the answer of a condition whose
// stamp stays while the location's stamp moved with another condition's
// cells (aztcd: most positions get new edges of some condition's cell in
// a round, few of every one).
func (ts *TruthStamper) CondStamps(loc *cfg.Loc, out []TruthStamp) {
	s := ts.s
	if s.states == nil || loc.ID >= len(s.states) || loc.ID >= len(s.wholeTick) {
		for i := range out {
			out[i] = TruthStamp{Gen: s.solveGen, Tick: -1}
		}
		return
	}
	ticks, edges := ts.ticks, ts.edges
	clear(ticks)
	clear(edges)
	if vt, in := s.valTick[loc.ID], s.g.in[loc.ID]; len(vt) == len(in) {
		for i, x := range in {
			if k := ts.slotOf(x); k >= 0 {
				ticks[k] = max(ticks[k], vt[i])
			}
		}
	}
	for _, e := range s.g.edges[loc.ID] {
		k := ts.slotOf(e.Cell)
		if k < 0 {
			continue
		}
		edges[k]++
		if e.Src == nil {
			continue
		}
		u := int32(e.Src.ID)
		if int(u) >= len(s.g.prog.Locs) {
			ticks[k] = max(ticks[k], s.postTick[u]) // a hub
			continue
		}
		ticks[k] = max(ticks[k], s.wholeTick[u], s.touchTick[u], s.cellsTick(u, nil, e.Cell))
	}
	whole := s.wholeTick[loc.ID]
	for i, slots := range ts.condSlots {
		st := TruthStamp{Gen: s.solveGen, Tick: whole}
		for _, k := range slots {
			st.Tick = max(st.Tick, ticks[k])
			st.Edges += edges[k]
		}
		out[i] = st
	}
}

func (ts *TruthStamper) slotOf(c CellID) int32 {
	if c < 0 || int(c) >= len(ts.slot) {
		return -1
	}
	return ts.slot[c]
}

// cellsTick is the largest valTick of location id over the cells of In(id)
// that ts reads (ts not nil) or over cell c.
func (s *Solver) cellsTick(id int32, ts *TruthStamper, c CellID) int64 {
	vt := s.valTick[id]
	in := s.g.in[id]
	if len(vt) != len(in) {
		return 0 // no per-cell ticks yet: wholeTick covers every change
	}
	if ts == nil {
		if i, ok := slices.BinarySearch(in, c); ok {
			return vt[i]
		}
		return 0 // not tracked at id: its post holds it only if act(id) writes it (touchTick)
	}
	var t int64
	for i, x := range in {
		if ts.reads(x) {
			t = max(t, vt[i])
		}
	}
	return t
}

// projMemo holds one condition's answers keyed by the projection of its
// cells' boxes onto its variables (TruthMemo.projTruth).
//
// Why a projection determines the answer (interval domain only): for a
// box, valueTruth reads of the frame nothing but (1) whether a cell's value
// is ⊥ (the frame is then ⊥) and (2) of every variable the condition
// mentions (exprVars: its registers and the cells a dereference may read,
// the only dimensions frame.lin/assume/derefRead ever name), the
// interval and whether 0 is a hole (holes.go: a box keeps only holes
// x ≠ 0, strictly inside x's interval). A box's Assume, Bounds and Entails
// of a constraint read and refine only the constraint's variables; the
// other variables' intervals are untouched and non-empty, so they never
// make a result ⊥ and never enter an answer. Cells without integer
// variables are left out of the frame (frameOf) and so of the key. Two
// states agreeing on the key therefore give the same valueTruth; the key
// holds the bounds verbatim (infinite ones with their V too), so it is
// never coarser than that. An octagon's answer depends on relations
// through variables outside the condition: octagons keep the value-object
// key alone.
type projMemo struct {
	vars   []projVar
	m, old map[string]valueTruth
}

// projVar is a variable of the condition: its cell's position in the
// condition's cells, its index in the cell, and x ≠ 0 over the cell.
type projVar struct {
	cell, idx int
	ne        domains.LinCons
}

func (pm *projMemo) age() { ageGeneration(&pm.m, &pm.old) }

// projTruth is st.valueTruth(cond), looked up by the projection key
// (projMemo) when every tracked integer cell of cond holds a box; cells are
// cond's cells, sorted.
func (tm *TruthMemo) projTruth(st *State, cond cfg.Expr, cells []CellID) valueTruth {
	if tm.s.dom != domains.Intervals {
		tm.Evals++
		return st.valueTruth(cond)
	}
	pm := tm.proj[cond]
	if pm == nil {
		pm = &projMemo{m: map[string]valueTruth{}}
		var vars []*cfg.Var
		vars = exprVars(vars, cond)
		seen := map[*cfg.Var]bool{}
		for _, v := range vars {
			if seen[v] {
				continue
			}
			seen[v] = true
			i, _ := slices.BinarySearch(cells, tm.s.part.CellOf(v))
			x := tm.s.part.IndexInCell(v)
			pm.vars = append(pm.vars, projVar{cell: i, idx: x, ne: domains.LinCons{
				Expr: domains.LinExpr{Terms: []domains.Term{{Var: x, Coef: 1}}}, Op: domains.NeZero}})
		}
		tm.proj[cond] = pm
	}
	buf := tm.buf[:0]
	for i, c := range cells {
		if !tm.s.part.hasInt[c] {
			continue // not in the frame (frameOf)
		}
		v, ok := st.value(c)
		if !ok {
			buf = append(buf, 0)
			continue
		}
		b, isBox := v.(*domains.IntervalValue)
		if !isBox {
			tm.Evals++
			return st.valueTruth(cond)
		}
		if b.IsBottom() {
			buf = append(buf, 1)
			continue
		}
		buf = append(buf, 2)
		for _, pv := range pm.vars {
			if pv.cell != i {
				continue
			}
			iv := b.Get(pv.idx)
			buf = appendBound(buf, iv.Lo)
			buf = appendBound(buf, iv.Hi)
			if b.Entails(pv.ne) {
				buf = append(buf, 1)
			} else {
				buf = append(buf, 0)
			}
		}
	}
	tm.buf = buf
	if vt, ok := pm.m[string(buf)]; ok {
		tm.ProjHits++
		return vt
	}
	vt, ok := pm.old[string(buf)]
	if ok {
		tm.ProjHits++
	} else {
		tm.Evals++
		vt = st.valueTruth(cond)
	}
	pm.m[string(buf)] = vt
	return vt
}

func appendBound(buf []byte, b domains.Bound) []byte {
	buf = append(buf, byte(b.Inf))
	return binary.LittleEndian.AppendUint64(buf, uint64(b.V))
}
