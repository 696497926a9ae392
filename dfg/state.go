package dfg

import (
	"fmt"
	"slices"
	"strings"

	"chorus/cfg"
	"chorus/domains"
)

// State is the invariant Φ(loc): the value of every cell tracked at loc,
// true of every thread standing at loc before act(loc) runs. A bottom
// State means loc is unreachable. States are immutable.
type State struct {
	s      *Solver
	loc    *cfg.Loc
	bottom bool
	cells  []CellID // sorted; shared with Graph.In (do not modify)
	vals   []domains.Value
	// id (0: none) names a state the solver made by evalCells or
	// joinAfter; such a state derived from another one (id baseID ≠ 0)
	// holds its very value objects except at the indexes in diff, so
	// equal and joinAfter compare only those (a location tracks hundreds
	// of cells of which an evaluation changes one or two). An id, not a
	// pointer: a chain of states must not be kept alive.
	id, baseID int64
	diff       []int32
	// unreach: a ⊥ evaluation because no control source was reachable
	// (evalIncr keeps it until a control edge changes).
	unreach bool
}

// At returns Φ(loc) of the last Solve.
func (s *Solver) At(loc *cfg.Loc) *State {
	if s.states == nil || loc.ID >= len(s.states) {
		return &State{s: s, loc: loc, bottom: true}
	}
	return s.state(int32(loc.ID))
}

// Loc returns the state's location.
func (st *State) Loc() *cfg.Loc { return st.loc }

// IsBottom reports whether the location is unreachable.
func (st *State) IsBottom() bool { return st.bottom }

// Cells returns the tracked cells (not ControlCell), sorted.
func (st *State) Cells() []CellID {
	if st.bottom {
		return nil
	}
	return st.cells
}

func (st *State) value(c CellID) (domains.Value, bool) {
	i, ok := slices.BinarySearch(st.cells, c)
	if !ok || st.bottom {
		return nil, false
	}
	return st.vals[i], true
}

// Cell returns the value of cell c, or nil when c is not tracked at the
// location (any value) or the state is bottom.
func (st *State) Cell(c CellID) domains.Value {
	v, _ := st.value(c)
	return v
}

// Interval returns the values v may hold at the location: empty when the
// state is bottom, the range of v's type when v is not tracked there (⊤
// for pointers, floats and mathematical integers).
func (st *State) Interval(v *cfg.Var) domains.Interval {
	if st.bottom {
		return botIv
	}
	if !v.Type.IsInt() {
		return topIv
	}
	val, ok := st.value(st.s.part.CellOf(v))
	if !ok {
		return typeRange(v.Type)
	}
	return ivMeet(val.Bounds(linVar(st.s.part.IndexInCell(v))), typeRange(v.Type))
}

// frameFor builds a frame over the tracked cells e's variables belong to.
func (st *State) frameFor(es ...cfg.Expr) (*frame, domains.Value) {
	var vars []*cfg.Var
	for _, e := range es {
		vars = exprVars(vars, e)
	}
	var cells []CellID
	for _, v := range vars {
		c := st.s.part.CellOf(v)
		if _, ok := st.value(c); ok {
			cells = append(cells, c)
		}
	}
	return st.s.frameOf(sortedSet(cells), func(c CellID) domains.Value {
		v, _ := st.value(c)
		return v
	})
}

// Eval returns a sound interval of the integer expression e at the
// location (variables not tracked there range over their types; ⊤ for
// pointers and floats; empty when bottom).
func (st *State) Eval(e cfg.Expr) domains.Interval {
	if st.bottom {
		return botIv
	}
	if !e.ExprType().IsInt() {
		return topIv
	}
	f, v := st.frameFor(e)
	v, fm := f.lin(v, e)
	if v.IsBottom() {
		return botIv
	}
	return fm.bounds(v)
}

// Truth is the value of a condition over a state.
type Truth uint8

const (
	Bottom  Truth = iota // the state is empty (unreachable)
	True                 // every state satisfies the condition
	False                // no state satisfies it
	Unknown              // some may, some may not
)

func (t Truth) String() string {
	return [...]string{"bottom", "true", "false", "unknown"}[t]
}

// Truth evaluates cond over the state. True means: refining the state
// with ¬cond gives ⊥ (refinement is sound, so no concrete state satisfies
// ¬cond); for a single linear comparison the domain's Entails is asked as
// well. && and || are handled compositionally by the refinement (meet and
// join); a non-linear side of a comparison is replaced by its interval.
func (st *State) Truth(cond cfg.Expr) Truth {
	if st.bottom {
		return Bottom
	}
	return st.finishTruth(cond, st.valueTruth(cond), nil)
}

// valueTruth is the part of Truth that depends only on the values of the
// cells cond reads (frameFor): decided when refinement alone settles it
// (⊥, True, False), else t is what the domain's Entails says of a single
// linear comparison (True, False or Unknown).
type valueTruth struct {
	t       Truth
	decided bool
}

func (st *State) valueTruth(cond cfg.Expr) valueTruth {
	f, v := st.frameFor(cond)
	return valueTruthOf(f, v, cond)
}

func valueTruthOf(f *frame, v domains.Value, cond cfg.Expr) valueTruth {
	if v.IsBottom() {
		return valueTruth{Bottom, true}
	}
	tv := f.assume(v, cond, true)
	fv := f.assume(v, cond, false)
	switch {
	case tv.IsBottom() && fv.IsBottom():
		return valueTruth{Bottom, true}
	case fv.IsBottom():
		return valueTruth{True, true}
	case tv.IsBottom():
		return valueTruth{False, true}
	}
	if b, ok := cond.(*cfg.Binary); ok && isComparison(b.Op) && b.X.ExprType().IsInt() && b.Y.ExprType().IsInt() {
		v2, l := f.lin(v, b.X)
		v2, r := f.lin(v2, b.Y)
		if l.exact && r.exact {
			if cs, ok := cmpCons(b.Op, l.lin, r.lin); ok && entailsAll(v2, cs) {
				return valueTruth{True, false}
			}
			if cs, ok := cmpCons(b.Op.Negated(), l.lin, r.lin); ok && entailsAll(v2, cs) {
				return valueTruth{False, false}
			}
		}
	}
	return valueTruth{Unknown, false}
}

// finishTruth is Truth given valueTruth: an undecided condition is True
// when guarded at the location (checked before the domain's answer, as
// the source-by-source argument is independent of it), else what the
// domain entails.
func (st *State) finishTruth(cond cfg.Expr, vt valueTruth, tm *TruthMemo) Truth {
	if vt.decided {
		return vt.t
	}
	if st.guarded(cond, tm) {
		return True
	}
	return vt.t
}

// guarded reports whether cond holds at the location source by source:
// cond reads registers of one cell X only, and for every source u of X
// into the location, either act(u) is an Assume/CheckAct whose condition
// is cond or has cond as a conjunct, or cond is True on X's value after u.
// The DFG's meaning (the value of X at the location is the one some source
// produced) makes this sound; it recovers facts the joined value cannot
// represent (d != 0 in intervals; a disjunction of sources). tm, when not
// nil, memoizes the per-source refinement (TruthMemo.excludes).
func (st *State) guarded(cond cfg.Expr, tm *TruthMemo) bool {
	if st.loc == nil || st.s == nil || st.s.posts == nil {
		return false
	}
	cell := NoCell
	onlyRegs := true
	var walk func(e cfg.Expr)
	walk = func(e cfg.Expr) {
		switch e := e.(type) {
		case *cfg.VarRef:
			c := st.s.part.CellOf(e.Var)
			if cell != NoCell && c != cell {
				onlyRegs = false
			}
			cell = c
		case *cfg.Unary:
			walk(e.X)
		case *cfg.Binary:
			walk(e.X)
			walk(e.Y)
		case *cfg.Cast:
			walk(e.X)
		case *cfg.Const:
		default:
			onlyRegs = false
		}
	}
	walk(cond)
	if !onlyRegs || cell == NoCell || st.s.part.Cell(cell).Mixed() {
		return false // a mixed cell's value is not one source's (mixed.go)
	}
	n := 0
	for _, e := range st.s.g.edges[st.loc.ID] {
		if e.Cell != cell {
			continue
		}
		n++
		if e.Src == nil {
			return false
		}
		var c cfg.Expr
		switch a := e.Src.Act.(type) {
		case *cfg.Assume:
			c = a.Cond
		case *cfg.CheckAct:
			c = a.Cond
		}
		if c != nil && impliesSyntactically(c, cond) {
			continue
		}
		p := st.s.postOf(e.Src)
		if p.bottom {
			continue
		}
		val, ok := p.get(cell)
		if !ok {
			return false
		}
		if tm != nil {
			if !tm.excludes(cond, cell, val) {
				return false
			}
		} else if !st.s.negationExcluded(cond, cell, val) {
			return false
		}
	}
	return n > 0
}

// negationExcluded reports whether refining val, the value of cell (the
// only cell cond reads), by cond's negation gives ⊥: cond holds on val.
func (s *Solver) negationExcluded(cond cfg.Expr, cell CellID, val domains.Value) bool {
	f, v := s.frameOf([]CellID{cell}, func(CellID) domains.Value { return val })
	return f.assume(v, cond, false).IsBottom()
}

// impliesSyntactically: c is cond or a conjunction with cond as a conjunct.
func impliesSyntactically(c, cond cfg.Expr) bool {
	if exprEqual(c, cond) {
		return true
	}
	if b, ok := c.(*cfg.Binary); ok && b.Op == cfg.LAnd {
		return impliesSyntactically(b.X, cond) || impliesSyntactically(b.Y, cond)
	}
	return false
}

// exprEqual is structural equality of expressions.
func exprEqual(a, b cfg.Expr) bool {
	switch a := a.(type) {
	case *cfg.Const:
		b, ok := b.(*cfg.Const)
		return ok && *a == *b
	case *cfg.VarRef:
		b, ok := b.(*cfg.VarRef)
		return ok && a.Var == b.Var
	case *cfg.Unary:
		b, ok := b.(*cfg.Unary)
		return ok && a.Op == b.Op && a.Type == b.Type && exprEqual(a.X, b.X)
	case *cfg.Binary:
		b, ok := b.(*cfg.Binary)
		return ok && a.Op == b.Op && a.Type == b.Type && exprEqual(a.X, b.X) && exprEqual(a.Y, b.Y)
	case *cfg.Cast:
		b, ok := b.(*cfg.Cast)
		return ok && a.Type == b.Type && exprEqual(a.X, b.X)
	}
	return false
}

func entailsAll(v domains.Value, cs []domains.LinCons) bool {
	for _, c := range cs {
		if !v.Entails(c) {
			return false
		}
	}
	return true
}

// Constraints returns constraints over vars whose conjunction is the
// state (each tracked cell's constraints, renumbered: Term.Var indexes
// vars). A bottom state gives one unsatisfiable constraint and no vars.
func (st *State) Constraints() (cons []domains.LinCons, vars []*cfg.Var) {
	if st.bottom {
		return []domains.LinCons{{Expr: linConst(1), Op: domains.LeZero}}, nil
	}
	for i, c := range st.cells {
		off := len(vars)
		vars = append(vars, st.s.part.Cell(c).Vars...)
		for _, k := range st.vals[i].Constraints() {
			e := domains.LinExpr{Const: k.Expr.Const, Terms: make([]domains.Term, len(k.Expr.Terms))}
			for j, t := range k.Expr.Terms {
				e.Terms[j] = domains.Term{Var: t.Var + off, Coef: t.Coef}
			}
			cons = append(cons, domains.LinCons{Expr: e, Op: k.Op})
		}
	}
	return cons, vars
}

func (st *State) String() string {
	if st.bottom {
		return "⊥"
	}
	var parts []string
	for i, c := range st.cells {
		cell := st.s.part.Cell(c)
		if st.vals[i].IsTop() {
			continue
		}
		s := st.vals[i].String(func(k int) string { return cell.Vars[k].Name })
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		return "⊤"
	}
	return strings.Join(parts, " ∧ ")
}

// Lattice operations on states of one location (same cells).

func (st *State) equal(o *State) bool {
	if st == o {
		return true
	}
	if st.bottom || o.bottom {
		return st.bottom == o.bottom
	}
	d, ok := st.diffFrom(o)
	if !ok {
		d, ok = o.diffFrom(st)
	}
	if ok {
		for _, i := range d {
			if a, b := st.vals[i], o.vals[i]; a != b && !a.Equal(b) {
				return false
			}
		}
		return true
	}
	for i, a := range st.vals {
		// (the same value object: most cells of a re-evaluated state are
		// the previous state's own)
		if b := o.vals[i]; a != b && !a.Equal(b) {
			return false
		}
	}
	return true
}

func (st *State) leq(o *State) bool {
	if st.bottom {
		return true
	}
	if o.bottom {
		return false
	}
	// When one state was derived from the other (State.id), every cell
	// outside the diff holds the very same value object in both (a value
	// is below itself): only the diff is compared, as in equal.
	d, ok := st.diffFrom(o)
	if !ok {
		d, ok = o.diffFrom(st)
	}
	if ok {
		for _, i := range d {
			if a, b := st.vals[i], o.vals[i]; a != b && !a.Leq(b) {
				return false
			}
		}
		return true
	}
	for i, a := range st.vals {
		if b := o.vals[i]; a != b && !a.Leq(b) {
			return false
		}
	}
	return true
}

// leqAfter is st.leq(o) where st is the evaluation of a location whose
// last evaluation before it was prev (nil: none) and o is the location's
// state, which is above prev (the invariant joinAfter relies on: a state
// is set to an evaluation, a join or widening above it, or a narrowing
// above it, and the solver forgets a last evaluation it finds not below
// the state). Where st holds prev's own value object (st is prev, or was
// derived from it outside its diff) the cell is below o's: only the other
// cells are compared. CHORUS_CHECK_INCREMENTAL compares with leq.
func (st *State) leqAfter(o, prev *State) bool {
	if prev == nil || prev.bottom || st.bottom || o.bottom || len(prev.vals) != len(st.vals) || len(o.vals) != len(st.vals) {
		return st.leq(o)
	}
	var r bool
	if st == prev {
		r = true
	} else if d, ok := st.diffFrom(prev); ok {
		r = true
		for _, i := range d {
			if a, b := st.vals[i], o.vals[i]; a != b && !a.Leq(b) {
				r = false
				break
			}
		}
	} else {
		return st.leq(o)
	}
	if checkIncremental && r != st.leq(o) {
		panic(fmt.Sprintf("dfg: the state of location %d is not above its last evaluation", st.loc.ID))
	}
	return r
}

func (st *State) join(o *State) *State {
	if st.bottom {
		return o
	}
	if o.bottom {
		return st
	}
	// Cell by cell with joinInto, which keeps st's value (no allocation)
	// where o's is below it; when that holds for every cell the result is
	// st itself (a head whose new evaluation adds nothing).
	var r *State
	for i, a := range st.vals {
		j := joinInto(a, o.vals[i])
		if j == a && r == nil {
			continue
		}
		if r == nil {
			r = &State{s: st.s, loc: st.loc, cells: st.cells, vals: make([]domains.Value, len(st.vals))}
			copy(r.vals[:i], st.vals[:i])
		}
		r.vals[i] = j
	}
	if r == nil {
		return st
	}
	return r
}

// joinAfter is st ⊔ o where st is a location's state and o its evaluation
// following prev, its previous evaluation (nil: none), with st ⊒ prev: a
// state is only ever set to an evaluation or to something above one (a
// join, widening or narrowing of the old state with it), and the solver
// forgets prev where that fails (the post-fixpoint verification). A cell
// of o that is prev's own value object (evalIncr reuses it for the cells
// none of whose edges changed) is then below st's, and joinInto would
// return st's value: it is skipped without comparing (at the heads of
// memcached.c's giant components that comparison, over every tracked
// cell, was a fifth of the solver's time).
func (st *State) joinAfter(o, prev *State) *State {
	if st.bottom || o.bottom || prev == nil || prev.bottom || len(prev.vals) != len(o.vals) || len(st.vals) != len(o.vals) {
		return st.join(o)
	}
	if checkIncremental {
		for i, a := range st.vals {
			if b := o.vals[i]; b == prev.vals[i] && joinInto(a, b) != a && !joinInto(a, b).Equal(a) {
				panic(fmt.Sprintf("dfg: the state of location %d is not above its last evaluation", st.loc.ID))
			}
		}
	}
	if o == prev {
		return st // (evalIncr found no cell to recompute)
	}
	idx, ok := o.diffFrom(prev) // the cells of o that may not be prev's
	var r *State
	for n := range len(st.vals) {
		i := n
		if ok {
			if n >= len(idx) {
				break
			}
			i = int(idx[n])
		}
		a, b := st.vals[i], o.vals[i]
		if b == prev.vals[i] {
			continue
		}
		if j := joinInto(a, b); j != a {
			r = st.derivedWith(r, i, j)
		}
	}
	if r == nil {
		return st
	}
	return r
}

// derivedWith sets cell i of r, a state derived from st (nil: derive it
// now, copying st's values), to v and records i in r's diff.
func (st *State) derivedWith(r *State, i int, v domains.Value) *State {
	if r == nil {
		r = &State{s: st.s, loc: st.loc, cells: st.cells, vals: slices.Clone(st.vals)}
		st.s.derive(r, st)
	}
	r.vals[i] = v
	r.diff = append(r.diff, int32(i))
	return r
}

// diffFrom returns, when st was derived from o (see State.id), the
// indexes where st's values may not be o's own.
func (st *State) diffFrom(o *State) ([]int32, bool) {
	if st.baseID != 0 && st.baseID == o.id && len(st.vals) == len(o.vals) {
		return st.diff, true
	}
	return nil, false
}

// widen: o ⊒ st (o is a join with st); only the cells in back are widened,
// the others keep o's value.
func (st *State) widen(o *State, ths []int64, back []CellID) *State {
	if st.bottom || o.bottom {
		return o
	}
	r := &State{s: st.s, loc: st.loc, cells: st.cells, vals: make([]domains.Value, len(st.vals))}
	for i, c := range st.cells {
		if a, b := st.vals[i], o.vals[i]; a == b {
			r.vals[i] = a // (widening a value with itself gives it)
		} else if has(back, c) {
			r.vals[i] = a.Widen(b, ths)
		} else {
			r.vals[i] = o.vals[i]
		}
	}
	return r
}

// narrow: o ⊑ st. Cell by cell; where Narrow returns st's own value
// object (no bound moves: most cells of a head) the result holds it, as
// before, but st itself is returned when that holds for every cell, and
// otherwise a state derived from st (diff: the moved cells), so that the
// narrowing pass's equal compares no cell (or only the moved ones)
// instead of every cell of a fresh copy. Same value objects as a
// cell-by-cell copy: exact.
func (st *State) narrow(o *State) *State {
	if st.bottom || o.bottom {
		return o
	}
	var r *State
	for i, a := range st.vals {
		if v := a.Narrow(o.vals[i]); v != a {
			r = st.derivedWith(r, i, v)
		}
	}
	if r == nil {
		return st
	}
	return r
}

// Status is the result for a check site.
type Status uint8

const (
	Proven      Status = iota // the condition holds at every reachable state
	Unreachable               // no execution reaches the check
	Unproven                  // the analysis could not prove it (a warning)
)

func (s Status) String() string {
	return [...]string{"proven", "unreachable", "unproven"}[s]
}

// CheckStatus decides check c from the invariant at c.Loc and the
// condition of its CheckAct; the message gives the intervals of the
// condition's variables there.
func (s *Solver) CheckStatus(c *cfg.Check) (Status, string) {
	if c.Loc == nil {
		return Unproven, "check has no location"
	}
	act, ok := c.Loc.Act.(*cfg.CheckAct)
	if !ok {
		return Unproven, "check location has no check action"
	}
	st := s.At(c.Loc)
	switch st.Truth(act.Cond) {
	case Bottom:
		return Unreachable, "unreachable"
	case True:
		return Proven, st.describe(act.Cond)
	case False:
		return Unproven, "fails whenever reached: " + st.describe(act.Cond)
	}
	return Unproven, st.describe(act.Cond)
}

// describe lists the intervals of the integer variables of e.
func (st *State) describe(e cfg.Expr) string {
	vars := dedupVars(exprVars(nil, e))
	var parts []string
	for _, v := range vars {
		if !v.Type.IsInt() {
			continue
		}
		parts = append(parts, fmt.Sprintf("%s in %s", v.Name, ivString(st.Interval(v))))
	}
	return strings.Join(parts, ", ")
}

func ivString(iv domains.Interval) string {
	if ivEmpty(iv) {
		return "∅"
	}
	b := func(x domains.Bound) string {
		switch x.Inf {
		case -1:
			return "-oo"
		case 1:
			return "+oo"
		}
		return fmt.Sprint(x.V)
	}
	return "[" + b(iv.Lo) + ", " + b(iv.Hi) + "]"
}
