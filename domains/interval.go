package domains

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
)

// Intervals is the non-relational interval domain.
var Intervals Domain = intervalDomain{}

type intervalDomain struct{}

func (intervalDomain) Name() string { return "interval" }

func (intervalDomain) Top(dim int) Value {
	ivs := make([]Interval, dim)
	for i := range ivs {
		ivs[i] = TopInterval()
	}
	return &IntervalValue{ivs: ivs}
}

func (intervalDomain) Bottom(dim int) Value { return &IntervalValue{dim: dim, bottom: true} }

// IntervalValue is a box: one interval per variable. A box with an empty
// component is ⊥ and is stored as bottom (ivs nil).
type IntervalValue struct {
	ivs    []Interval
	dim    int // used when bottom
	bottom bool
	// ne: the holes x ≠ c (holes.go), sorted by variable, each strictly
	// inside its variable's interval; nil when none.
	ne []hole
}

// NewIntervalValue builds a box from per-variable intervals (⊥ if one is
// empty). The slice is copied.
func NewIntervalValue(ivs []Interval) *IntervalValue {
	for _, iv := range ivs {
		if iv.IsEmpty() {
			return &IntervalValue{dim: len(ivs), bottom: true}
		}
	}
	return &IntervalValue{ivs: slices.Clone(ivs)}
}

// Get returns the interval of variable x (empty when ⊥).
func (v *IntervalValue) Get(x int) Interval {
	if v.bottom {
		return EmptyInterval()
	}
	return v.ivs[x]
}

func (v *IntervalValue) Dim() int {
	if v.bottom {
		return v.dim
	}
	return len(v.ivs)
}

func (v *IntervalValue) IsBottom() bool { return v.bottom }

func (v *IntervalValue) IsTop() bool {
	if v.bottom || len(v.ne) > 0 {
		return false
	}
	for _, iv := range v.ivs {
		if !iv.IsTop() {
			return false
		}
	}
	return true
}

// other converts an argument, checking kind and dimension: mixing kinds
// or dimensions is a programming error in the client.
func (v *IntervalValue) other(o Value) *IntervalValue {
	w, ok := o.(*IntervalValue)
	if !ok {
		panic(fmt.Sprintf("domains: interval value combined with %T", o))
	}
	if w.Dim() != v.Dim() {
		panic(fmt.Sprintf("domains: dimension mismatch %d vs %d", v.Dim(), w.Dim()))
	}
	return w
}

func (v *IntervalValue) bot() *IntervalValue { return &IntervalValue{dim: v.Dim(), bottom: true} }

// zip applies f componentwise; an empty component makes the result ⊥.
func (v *IntervalValue) zip(w *IntervalValue, f func(a, b Interval) Interval) *IntervalValue {
	out := make([]Interval, len(v.ivs))
	for i := range out {
		if out[i] = f(v.ivs[i], w.ivs[i]); out[i].IsEmpty() {
			return v.bot()
		}
	}
	return &IntervalValue{ivs: out}
}

func (v *IntervalValue) Join(o Value) Value {
	w := v.other(o)
	if v.bottom {
		return w
	}
	if w.bottom {
		return v
	}
	return joinBoxHoles(v, w)
}

// joinBoxHoles is the join of two non-⊥ boxes with their holes.
func joinBoxHoles(v, w *IntervalValue) *IntervalValue {
	out := make([]Interval, len(v.ivs))
	split := false
	for i := range out {
		a, b := v.ivs[i], w.ivs[i]
		out[i] = a.Join(b)
		if !split && signSplit(a, b) {
			split = true
		}
	}
	r := &IntervalValue{ivs: out}
	if v.ne != nil || w.ne != nil || split {
		r.ne = joinHoles(len(out), v.ne, w.ne,
			func(x int) Interval { return v.ivs[x] },
			func(x int) Interval { return w.ivs[x] },
			func(x int) Interval { return out[x] }, split)
	}
	return r
}

func (v *IntervalValue) Meet(o Value) Value {
	w := v.other(o)
	if v.bottom || w.bottom {
		return v.bot()
	}
	r := v.zip(w, Interval.Meet)
	return r.normHoles(mergeHoles(v.ne, w.ne))
}

// normHoles sets r's holes from candidates (cutHoles), r being a fresh
// value whose intervals may be modified; it returns r, or ⊥.
func (r *IntervalValue) normHoles(cands []hole) *IntervalValue {
	if r.bottom || len(cands) == 0 {
		return r
	}
	hs, empty := cutHoles(r.ivs, cands, false)
	if empty {
		return r.bot()
	}
	r.ne = hs
	return r
}

// Widen moves each unstable bound to the next threshold (thresholds are
// sorted ascending) and then to ±∞.
func (v *IntervalValue) Widen(o Value, thresholds []int64) Value {
	w := v.other(o)
	if v.bottom {
		return w
	}
	if w.bottom {
		return v
	}
	r := v.zip(w, func(a, b Interval) Interval { return widenInterval(a, b, thresholds) })
	if r.bottom {
		return r
	}
	// Only what the left operand excludes (holes.go, widenHoles): the
	// excluded sets shrink along a widening sequence.
	r.ne = widenHoles(len(r.ivs), v.ne, w.ne,
		func(x int) Interval { return v.ivs[x] }, func(x int) Interval { return w.ivs[x] },
		func(h hole) bool { return strictlyInside(r.ivs[h.x], h.c) })
	return r
}

func widenInterval(a, b Interval, thresholds []int64) Interval {
	r := a
	if b.Lo.Less(a.Lo) {
		r.Lo = thresholdBelow(b.Lo, thresholds)
	}
	if a.Hi.Less(b.Hi) {
		r.Hi = thresholdAbove(b.Hi, thresholds)
	}
	return r
}

// thresholdAbove is the least threshold ≥ b, or +∞.
func thresholdAbove(b Bound, ts []int64) Bound {
	if !b.IsFinite() {
		return b
	}
	i := sort.Search(len(ts), func(i int) bool { return ts[i] >= b.V })
	if i < len(ts) && ts[i] >= b.V { // re-checked: unsorted input stays sound
		return Finite(ts[i])
	}
	return PlusInf
}

// thresholdBelow is the greatest threshold ≤ b, or -∞.
func thresholdBelow(b Bound, ts []int64) Bound {
	if !b.IsFinite() {
		return b
	}
	i := sort.Search(len(ts), func(i int) bool { return ts[i] > b.V })
	if i > 0 && ts[i-1] <= b.V {
		return Finite(ts[i-1])
	}
	return MinusInf
}

// Narrow refines infinite bounds (standard narrowing) and also finite
// ones that o improves: a widening with thresholds lands on a finite
// bound (the threshold above the values, e.g. an array's length 27 for a
// loop counter that stops at 26), which standard narrowing keeps for
// good. Sound: the solver narrows only where o = F(v) ⊑ v for a
// post-fixpoint v, and any value between o and v is a post-fixpoint
// again (F monotone: F(c) ⊑ F(v) = o ⊑ c), as the plain descending step
// the solver takes at every other location. The solver runs a fixed
// number of narrowing passes, so the chain is finite without the
// standard operator's restriction.
func (v *IntervalValue) Narrow(o Value) Value {
	w := v.other(o)
	if v.bottom || w.bottom {
		return v.bot()
	}
	// v itself when no bound moves (the solver narrows every cell of a
	// head, most of which do not move; a fresh copy of each would stay in
	// the new state: 127 MB of pigz linked's peak live heap). Exact: the
	// zip below would give v's very intervals, and normHoles keeps each of
	// v's holes that is strictly inside its interval, unchanged.
	// (v narrowed by itself moves no bound, narrowInterval(a, a) being a:
	// the narrowing passes mostly narrow a head's cell by its own value
	// object, passed on unchanged around the loop.)
	moved := false
	for i := 0; i < len(v.ivs) && w != v; i++ {
		if a := v.ivs[i]; narrowInterval(a, w.ivs[i]) != a {
			moved = true
			break
		}
	}
	if !moved && !slices.ContainsFunc(v.ne, func(h hole) bool { return !strictlyInside(v.ivs[h.x], h.c) }) {
		return v
	}
	return v.zip(w, narrowInterval).normHoles(v.ne)
}

// narrowInterval is Narrow on one variable: a's infinite bounds, and those
// b tightens, take b's.
func narrowInterval(a, b Interval) Interval {
	if a.Lo.IsMinusInf() || (b.Lo.IsFinite() && a.Lo.IsFinite() && b.Lo.V > a.Lo.V) {
		a.Lo = b.Lo
	}
	if a.Hi.IsPlusInf() || (b.Hi.IsFinite() && a.Hi.IsFinite() && b.Hi.V < a.Hi.V) {
		a.Hi = b.Hi
	}
	return a
}

func (v *IntervalValue) Leq(o Value) bool {
	w := v.other(o)
	if v.bottom {
		return true
	}
	if w.bottom {
		return false
	}
	for i, iv := range v.ivs {
		if !w.ivs[i].Includes(iv) {
			return false
		}
	}
	for _, h := range w.ne {
		if !excludes(v.ivs[h.x], v.ne, h.x, h.c) {
			return false
		}
	}
	return true
}

func (v *IntervalValue) Equal(o Value) bool {
	w := v.other(o)
	if v.bottom || w.bottom {
		return v.bottom == w.bottom
	}
	for i, iv := range v.ivs {
		if !w.ivs[i].Equal(iv) {
			return false
		}
	}
	return slices.Equal(v.ne, w.ne)
}

// evalLin evaluates Σ coef·get(var) + const in interval arithmetic. It is
// sound for any term list (duplicates included).
func evalLin(e LinExpr, get func(int) Interval) Interval {
	r := Point(e.Const)
	for _, t := range e.Terms {
		r = r.Add(get(t.Var).Scale(t.Coef))
	}
	return r
}

func (v *IntervalValue) Bounds(e LinExpr) Interval {
	if v.bottom {
		return EmptyInterval()
	}
	if n, ok := e.normal(); ok {
		e = n
	}
	return evalLin(e, func(i int) Interval { return v.ivs[i] })
}

func (v *IntervalValue) with(x int, iv Interval) *IntervalValue {
	if iv.IsEmpty() {
		return v.bot()
	}
	out := slices.Clone(v.ivs)
	out[x] = iv
	return &IntervalValue{ivs: out, ne: withoutHole(v.ne, x)}
}

// Assign x := e. For a normalized e the interval evaluation is the exact
// hull of e over the box.
func (v *IntervalValue) Assign(x int, e LinExpr) Value {
	if v.bottom {
		return v
	}
	r := v.with(x, v.Bounds(e))
	if n, ok := e.normal(); ok && !r.bottom {
		if hs := copyHoles(v.ne, x, n); hs != nil {
			return r.normHoles(mergeHoles(r.ne, hs))
		}
	}
	return r
}

func (v *IntervalValue) AssignInterval(x int, iv Interval) Value {
	if v.bottom {
		return v
	}
	return v.with(x, iv)
}

func (v *IntervalValue) Forget(x int) Value { return v.AssignInterval(x, TopInterval()) }

// Assume refines the box by a linear constraint. For e ≤ 0 each variable
// is bounded by what the other terms allow (constraint propagation,
// repeated for propagationRounds rounds or until stable). e = 0 is e ≤ 0
// and -e ≤ 0. e ≠ 0 cuts an end of e's range (if e ≤ 0 is implied it
// becomes e ≤ -1) and, when it says x ≠ 0 for one variable, adds that
// hole (holes.go); a hole inside a range is the only one a box keeps.
func (v *IntervalValue) Assume(c LinCons) Value {
	if v.bottom {
		return v
	}
	e, ok := c.Expr.normal()
	if !ok {
		return v // constraint not representable: ignoring it is sound
	}
	switch c.Op {
	case NeZero:
		r := assumeNe(v, e, v.bot()).(*IntervalValue)
		if r.bottom {
			return r
		}
		if x, k, ok := neTarget(e, func(i int) Interval { return r.ivs[i] }); ok && strictlyInside(r.ivs[x], k) {
			if !hasHole(r.ne, x, k) {
				out := &IntervalValue{ivs: slices.Clone(r.ivs)}
				return out.normHoles(mergeHoles(r.ne, []hole{{x, k}}))
			}
		}
		return r
	case EqZero:
		out := slices.Clone(v.ivs)
		ne, okNeg := e.Neg()
		for range propagationRounds {
			ch1, empty := refineLe(out, e)
			if empty {
				return v.bot()
			}
			ch2 := false
			if okNeg {
				if ch2, empty = refineLe(out, ne); empty {
					return v.bot()
				}
			}
			if !ch1 && !ch2 {
				break
			}
		}
		return (&IntervalValue{ivs: out}).normHoles(mergeHoles(v.ne, eqHoles(v.ne, e)))
	}
	out := slices.Clone(v.ivs)
	for range propagationRounds {
		ch, empty := refineLe(out, e)
		if empty {
			return v.bot()
		}
		if !ch {
			break
		}
	}
	return (&IntervalValue{ivs: out}).normHoles(v.ne)
}

// propagationRounds bounds the constraint propagation of one Assume.
const propagationRounds = 3

// assumeNe handles e ≠ 0 for any Value through Bounds and Assume: it is
// exact at the ends of e's range and ignores holes inside it.
func assumeNe(v Value, e LinExpr, bottom Value) Value {
	b := v.Bounds(e)
	if s, ok := b.Singleton(); ok && s == 0 {
		return bottom
	}
	// Also when e's range already excludes 0 at that end (b.Hi < 0): for
	// a relational value the box need not reflect e ≤ -1 yet.
	if b.Hi.Cmp(Finite(0)) <= 0 {
		if e1, ok := e.AddConst(1); ok {
			return v.Assume(LinCons{Expr: e1, Op: LeZero})
		}
	}
	if b.Lo.Cmp(Finite(0)) >= 0 {
		if n, ok := e.Neg(); ok {
			if n1, ok := n.AddConst(1); ok {
				return v.Assume(LinCons{Expr: n1, Op: LeZero})
			}
		}
	}
	return v
}

// refineLe tightens ivs with Σ a_j x_j + c ≤ 0 (e normalized): for each j,
// a_j·x_j ≤ -c - Σ_{i≠j} min(a_i·x_i). It reports whether a bound changed
// and whether a variable became empty.
func refineLe(ivs []Interval, e LinExpr) (changed, empty bool) {
	if len(e.Terms) == 0 {
		return false, e.Const > 0
	}
	lows := make([]Bound, len(e.Terms))
	for i, t := range e.Terms {
		lows[i] = clampLo(ivs[t.Var].Scale(t.Coef).Lo)
	}
	negC := Finite(e.Const).Neg()
	for j, t := range e.Terms {
		rest := Finite(0)
		for i := range e.Terms {
			if i != j {
				rest = clampLo(rest.Add(lows[i]))
			}
		}
		u := clampHi(negC.Add(rest.Neg())) // a_j·x_j ≤ u
		if !u.IsFinite() {
			continue
		}
		nv := ivs[t.Var]
		if t.Coef > 0 {
			nv.Hi = nv.Hi.Min(floorDivBound(u, t.Coef))
		} else if q, ok := ceilDiv(u.V, t.Coef); ok {
			nv.Lo = nv.Lo.Max(Finite(q))
		} else {
			nv.Lo = nv.Lo.Max(Finite(1<<63 - 1)) // ⌈MinInt64 / -1⌉ = 2^63
		}
		if nv.IsEmpty() {
			return true, true
		}
		if !nv.Equal(ivs[t.Var]) {
			ivs[t.Var] = nv
			changed = true
			lows[j] = clampLo(nv.Scale(t.Coef).Lo)
		}
	}
	return changed, false
}

func (v *IntervalValue) Entails(c LinCons) bool {
	if entailsByBounds(v, c) {
		return true
	}
	if c.Op != NeZero || len(v.ne) == 0 {
		return false
	}
	e, ok := c.Expr.normal()
	return ok && neEntailed(e, v.ne, func(i int) Interval { return v.ivs[i] })
}

// entailsByBounds decides c from the range of its expression.
func entailsByBounds(v Value, c LinCons) bool {
	if v.IsBottom() {
		return true
	}
	b := v.Bounds(c.Expr)
	switch c.Op {
	case LeZero:
		return b.Hi.Cmp(Finite(0)) <= 0
	case EqZero:
		s, ok := b.Singleton()
		return ok && s == 0
	}
	return !b.Contains(0)
}

func (v *IntervalValue) Constraints() []LinCons {
	if v.bottom {
		return []LinCons{unsat()}
	}
	var cs []LinCons
	for i, iv := range v.ivs {
		cs = appendUnary(cs, i, iv)
	}
	return holeCons(cs, v.ne)
}

// appendUnary appends lo ≤ x ≤ hi (or x = s) as linear constraints. The
// upper bound MinInt64 has no representable negation; it is written as
// x ≤ MinInt64+1, a sound weakening.
func appendUnary(cs []LinCons, x int, iv Interval) []LinCons {
	if s, ok := iv.Singleton(); ok && s != math.MinInt64 {
		return append(cs, LinCons{Expr: LinExpr{Terms: []Term{{x, 1}}, Const: -s}, Op: EqZero})
	}
	if iv.Lo.IsFinite() { // -x + lo ≤ 0
		cs = append(cs, LinCons{Expr: LinExpr{Terms: []Term{{x, -1}}, Const: iv.Lo.V}, Op: LeZero})
	}
	if iv.Hi.IsFinite() { // x - hi ≤ 0
		cs = append(cs, LinCons{Expr: LinExpr{Terms: []Term{{x, 1}}, Const: -max(iv.Hi.V, math.MinInt64+1)}, Op: LeZero})
	}
	return cs
}

func (v *IntervalValue) AddDims(n int) Value {
	if v.bottom {
		return &IntervalValue{dim: v.dim + n, bottom: true}
	}
	out := slices.Grow(slices.Clone(v.ivs), n)
	for range n {
		out = append(out, TopInterval())
	}
	return &IntervalValue{ivs: out, ne: v.ne}
}

func (v *IntervalValue) Project(keep []int) Value {
	if v.bottom {
		return &IntervalValue{dim: len(keep), bottom: true}
	}
	out := make([]Interval, len(keep))
	for i, k := range keep {
		out[i] = v.ivs[k]
	}
	return &IntervalValue{ivs: out, ne: projectHoles(v.ne, keep)}
}

func (v *IntervalValue) String(names func(int) string) string {
	if v.bottom {
		return "bottom"
	}
	if names == nil {
		names = defaultName
	}
	var parts []string
	for i, iv := range v.ivs {
		if !iv.IsTop() {
			parts = append(parts, names(i)+" in "+iv.String())
		}
	}
	parts = append(parts, holeStrings(v.ne, names)...)
	if len(parts) == 0 {
		return "top"
	}
	return strings.Join(parts, ", ")
}

// JoinAt returns v with the interval of each variable xs[i] joined with
// ivs[i] (one copy of v however many variables change): the weak update
// of several variables at once. An empty ivs[i] leaves xs[i] unchanged.
func (v *IntervalValue) JoinAt(xs []int, ivs []Interval) *IntervalValue {
	if v.bottom || len(xs) == 0 {
		return v
	}
	out := slices.Clone(v.ivs)
	for i, x := range xs {
		if !ivs[i].IsEmpty() {
			out[x] = out[x].Join(ivs[i])
		}
	}
	r := &IntervalValue{ivs: out}
	if v.ne != nil {
		// A hole of a written variable survives when the stored value
		// excludes it.
		r.ne = keptHoles(v.ne, func(h hole) bool {
			for i, x := range xs {
				if x == h.x && ivs[i].Contains(h.c) {
					return false
				}
			}
			return strictlyInside(out[h.x], h.c)
		})
	}
	return r
}

// ConcatIntervals lays boxes side by side (their product): the variables
// of vs[0], then those of vs[1], and so on; ⊥ when one of them is.
func ConcatIntervals(vs []*IntervalValue) *IntervalValue {
	n, bottom := 0, false
	for _, v := range vs {
		n += v.Dim()
		bottom = bottom || v.bottom
	}
	if bottom {
		return &IntervalValue{dim: n, bottom: true}
	}
	out := make([]Interval, 0, n)
	var hs []hole
	for _, v := range vs {
		hs = shiftHoles(hs, v.ne, len(out))
		out = append(out, v.ivs...)
	}
	return &IntervalValue{ivs: out, ne: hs}
}

// Identical reports whether v and w are the very same box: ⊥ of the same
// dimension, or the same intervals bound for bound (infinite ones too) and
// the same holes (nil alike). A caller may use either for the other: every operation
// gives the same result on both.
func (v *IntervalValue) Identical(w *IntervalValue) bool {
	if v.bottom || w.bottom {
		return v.bottom == w.bottom && v.dim == w.dim
	}
	return slices.Equal(v.ivs, w.ivs) && (v.ne == nil) == (w.ne == nil) && slices.Equal(v.ne, w.ne)
}

// Slice returns the box of the n variables from off on (renumbered from
// 0): Project onto a contiguous range. The result shares v's intervals
// (capacity cut at the range, so no append can reach past it): an
// IntervalValue's intervals are never written once it is built (every
// operation writes a fresh array: zip, with, the clones of Assume), and
// the solver slices every post it computes into its cells (pigz linked:
// 48 MB of copies at its peak, and their allocation).
func (v *IntervalValue) Slice(off, n int) *IntervalValue {
	if v.bottom {
		return &IntervalValue{dim: n, bottom: true}
	}
	var hs []hole
	for _, h := range v.ne {
		if h.x >= off && h.x < off+n {
			hs = append(hs, hole{h.x - off, h.c})
		}
	}
	return &IntervalValue{ivs: v.ivs[off : off+n : off+n], ne: hs}
}

// JoinBoxes is a.Join(b), returning a itself when b ⊑ a (and b when a is
// ⊥), with no allocation then: the solver joins many edges' values into
// one cell, most of which add nothing.
func JoinBoxes(a, b *IntervalValue) *IntervalValue {
	if a == b || b.bottom {
		return a
	}
	if a.bottom {
		return b
	}
	if len(a.ivs) != len(b.ivs) {
		panic(fmt.Sprintf("domains: dimension mismatch %d vs %d", len(a.ivs), len(b.ivs)))
	}
	for i, iv := range b.ivs {
		if !a.ivs[i].Includes(iv) {
			return joinBoxHoles(a, b)
		}
	}
	for _, h := range a.ne {
		if !excludes(b.ivs[h.x], b.ne, h.x, h.c) {
			return joinBoxHoles(a, b)
		}
	}
	return a
}
