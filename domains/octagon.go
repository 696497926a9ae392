package domains

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
)

// Octagons is the octagon domain (Miné, HOSC 2006) over the integers.
var Octagons Domain = octagonDomain{}

type octagonDomain struct{}

func (octagonDomain) Name() string { return "octagon" }

func (octagonDomain) Top(n int) Value {
	return &OctagonValue{n: n, m: newTopDBM(2 * n), closed: true}
}

func (octagonDomain) Bottom(n int) Value { return &OctagonValue{n: n} }

// DomainByName returns Intervals for "interval" and Octagons for
// "octagon".
func DomainByName(name string) (Domain, error) {
	switch name {
	case "interval", "intervals", "box":
		return Intervals, nil
	case "octagon", "octagons", "oct":
		return Octagons, nil
	}
	return nil, fmt.Errorf("unknown abstract domain %q (want interval or octagon)", name)
}

// OctagonValue is a conjunction of constraints ±x ±y ≤ c over n integer
// variables, held as a DBM (see dbm.go). Every value except the results
// of Widen and Narrow is kept tightly closed. Widen and Narrow return
// their raw matrix unclosed, as Miné prescribes: closing the left operand
// of a widening breaks its termination guarantee. Any other operation on
// such a value uses its closure, computed once and cached (the cache is
// an atomic pointer, so values stay safe to share between goroutines).
type OctagonValue struct {
	n      int
	m      []int64 // nil: ⊥
	closed bool
	cache  atomic.Pointer[[]int64] // closure of m when !closed (*nil slice: ⊥)
	// ne: the holes x ≠ c (holes.go), sorted by variable; unlike the
	// box's they need not lie strictly inside their variable's range.
	ne []hole
	// dne: the difference holes x - y ≠ 0 (diffholes.go), sorted.
	dne []dhole
}

func (o *OctagonValue) Dim() int { return o.n }

// cm returns the tightly closed matrix, nil when ⊥. Callers must not
// modify it.
func (o *OctagonValue) cm() []int64 {
	if o.m == nil || o.closed {
		return o.m
	}
	if p := o.cache.Load(); p != nil {
		return *p
	}
	c := slices.Clone(o.m)
	if !tightClose(c, 2*o.n) {
		c = nil
	}
	o.cache.Store(&c)
	return c
}

// closedCopy returns a modifiable copy of the closed matrix (nil: ⊥).
func (o *OctagonValue) closedCopy() []int64 { return slices.Clone(o.cm()) }

func (o *OctagonValue) bot() *OctagonValue { return &OctagonValue{n: o.n} }

// mkClosed wraps a matrix that is tightly closed (nil: ⊥).
func (o *OctagonValue) mkClosed(m []int64) *OctagonValue {
	return &OctagonValue{n: o.n, m: m, closed: m != nil}
}

// closeNew closes m and wraps it.
func (o *OctagonValue) closeNew(m []int64) *OctagonValue {
	if !tightClose(m, 2*o.n) {
		return o.bot()
	}
	return o.mkClosed(m)
}

func (o *OctagonValue) other(v Value) *OctagonValue {
	w, ok := v.(*OctagonValue)
	if !ok {
		panic(fmt.Sprintf("domains: octagon value combined with %T", v))
	}
	if w.n != o.n {
		panic(fmt.Sprintf("domains: dimension mismatch %d vs %d", o.n, w.n))
	}
	return w
}

func (o *OctagonValue) IsBottom() bool { return o.cm() == nil }

func (o *OctagonValue) IsTop() bool {
	m := o.cm()
	if m == nil || len(o.ne) > 0 || len(o.dne) > 0 {
		return false
	}
	N := 2 * o.n
	for i, v := range m {
		if i/N != i%N && v < octInf {
			return false
		}
	}
	return true
}

// Join is the entrywise maximum of the closed matrices; the maximum of
// tightly closed matrices is tightly closed and is the best octagon
// containing both.
func (o *OctagonValue) Join(v Value) Value {
	w := o.other(v)
	a, b := o.cm(), w.cm()
	if a == nil {
		return w
	}
	if b == nil {
		return o
	}
	out := make([]int64, len(a))
	for i := range out {
		out[i] = max(a[i], b[i])
	}
	r := o.mkClosed(out)
	N := 2 * o.n
	r.ne = joinHoles(o.n, o.ne, w.ne,
		func(x int) Interval { return unaryOn(a, N, x) },
		func(x int) Interval { return unaryOn(b, N, x) },
		func(x int) Interval { return unaryOn(out, N, x) }, true)
	r.dne = joinDiffHoles(o.n, a, b, out, o.dne, w.dne)
	return r
}

// Meet is the entrywise minimum, closed (exact).
func (o *OctagonValue) Meet(v Value) Value {
	w := o.other(v)
	a, b := o.cm(), w.cm()
	if a == nil || b == nil {
		return o.bot()
	}
	out := make([]int64, len(a))
	for i := range out {
		out[i] = min(a[i], b[i])
	}
	return o.closeNew(out).normAll(mergeHoles(o.ne, w.ne), mergeDiff(o.dne, w.dne))
}

// normHoles gives the closed value r the candidate holes (sorted by
// variable): a candidate at an end of its variable's range cuts the end
// off (a unary constraint, incremental closure, repeated while a cut
// moves another end onto a hole); one candidate strictly inside the range
// is kept per variable. A cut the matrix cannot hold (beyond ±2^49)
// drops its hole instead (sound). r must be fresh (it is modified).
func (r *OctagonValue) normHoles(cands []hole) *OctagonValue {
	if len(cands) == 0 || r.m == nil {
		return r
	}
	N := 2 * r.n
	m := r.cm()
	owned := false
	for {
		box := make([]Interval, r.n)
		for _, h := range cands {
			box[h.x] = unaryOn(m, N, h.x)
		}
		old := slices.Clone(box)
		hs, empty := cutHoles(box, cands, true)
		if empty {
			return r.bot()
		}
		var cs []octCons
		for _, h := range cands {
			if box[h.x] != old[h.x] {
				cs = appendUnaryCons(cs, 2*h.x, box[h.x].Hi)
				cs = appendUnaryCons(cs, 2*h.x+1, box[h.x].Lo.Neg())
			}
		}
		changed := false
		for _, k := range cs {
			if clampEntry(k.c) < m[k.a*N+k.b] {
				changed = true
			}
		}
		if !changed {
			r.ne = hs
			break
		}
		if !owned {
			m, owned = slices.Clone(m), true
		}
		if !addAll(m, N, cs) {
			return r.bot()
		}
		r = &OctagonValue{n: r.n, m: m, closed: true}
		cands = hs
	}
	return r
}

// fresh returns a copy of r without holes, which normHoles may modify
// (r itself when ⊥: normHoles leaves ⊥ alone).
func (r *OctagonValue) fresh() *OctagonValue {
	m := r.cm()
	if m == nil {
		return r.bot()
	}
	return &OctagonValue{n: r.n, m: m, closed: true}
}

// Widen keeps the receiver's raw entries that are stable and moves the
// others to the next threshold, then to +∞; the argument is closed. The
// result is left unclosed. Entries only grow and each takes finitely many
// values, so every widening sequence stabilizes.
func (o *OctagonValue) Widen(v Value, thresholds []int64) Value {
	w := o.other(v)
	if o.IsBottom() {
		return w
	}
	b := w.cm()
	if b == nil {
		return o
	}
	a := o.m
	N := 2 * o.n
	out := make([]int64, len(a))
	for i := 0; i < N; i++ {
		for j := 0; j < N; j++ {
			p := i*N + j
			if b[p] <= a[p] {
				out[p] = a[p]
			} else {
				out[p] = octThreshold(b[p], i, j, thresholds)
			}
		}
	}
	// Only what the left operand excludes and the right one too
	// (holes.go, widenHoles): the excluded sets shrink along a widening
	// sequence.
	ac := o.cm()
	return &OctagonValue{n: o.n, m: out, ne: widenHoles(o.n, o.ne, w.ne,
		func(x int) Interval { return unaryOn(ac, N, x) }, func(x int) Interval { return unaryOn(b, N, x) },
		func(hole) bool { return true }), dne: widenDiff(o, b, w)}
}

// octThreshold is the least value ≥ v that the entry (i, j) may take
// from the thresholds. Unary entries store 2·bound: an upper bound of x
// moves like the interval widening's upper bound (to the least t ≥ x's
// bound), a lower bound like its lower bound (to the greatest t ≤), so
// octagons widen no worse than intervals. Binary entries use T ∪ -T.
func octThreshold(v int64, i, j int, ts []int64) int64 {
	r := octInf
	if j == i^1 {
		if j%2 == 0 { // 2x ≤ v: least t ≥ ⌈v/2⌉
			if t := thresholdAbove(Finite(ceilHalf(v)), ts); t.IsFinite() && t.V <= octBig/2 {
				r = 2 * t.V
			}
		} else { // -2x ≤ v, i.e. x ≥ -v/2: greatest t ≤ -⌈v/2⌉
			if t := thresholdBelow(Finite(-ceilHalf(v)), ts); t.IsFinite() && t.V >= -octBig/2 {
				r = -2 * t.V
			}
		}
		return clampEntry(r)
	}
	if t := thresholdAbove(Finite(v), ts); t.IsFinite() && t.V <= octBig {
		r = min(r, clampEntry(t.V))
	}
	if t := thresholdBelow(Finite(-v), ts); t.IsFinite() && t.V >= -octBig {
		r = min(r, clampEntry(-t.V))
	}
	return r
}

func ceilHalf(v int64) int64 { return -((-v) >> 1) }

// Narrow refines only the receiver's +∞ entries (Miné's narrowing).
func (o *OctagonValue) Narrow(v Value) Value {
	w := o.other(v)
	if o.IsBottom() || w.IsBottom() {
		return o.bot()
	}
	a, b := o.m, w.cm()
	out := make([]int64, len(a))
	for p := range out {
		if out[p] = a[p]; a[p] >= octInf {
			out[p] = b[p]
		}
	}
	return &OctagonValue{n: o.n, m: out, ne: o.ne, dne: o.dne}
}

// Leq: with the receiver tightly closed, inclusion is the entrywise order
// against the other's raw matrix.
func (o *OctagonValue) Leq(v Value) bool {
	w := o.other(v)
	a := o.cm()
	if a == nil {
		return true
	}
	b := w.m
	if w.closed {
		b = w.cm()
	}
	if b == nil {
		return false
	}
	for p := range a {
		if a[p] > b[p] {
			return false
		}
	}
	for _, h := range w.ne {
		if !excludes(unaryOn(a, 2*o.n, h.x), o.ne, h.x, h.c) {
			return false
		}
	}
	return o.diffLeq(a, w)
}

func (o *OctagonValue) Equal(v Value) bool { return o.Leq(v) && v.Leq(o) }

// Forget drops every constraint on x; on a closed matrix this keeps the
// matrix closed (the projection of a closed octagon is its submatrix).
func (o *OctagonValue) Forget(x int) Value {
	m := o.closedCopy()
	if m == nil {
		return o.bot()
	}
	forgetIn(m, 2*o.n, x)
	r := o.mkClosed(m)
	r.ne = withoutHole(o.ne, x)
	r.dne = withoutDiff(o.dne, x)
	return r
}

func forgetIn(m []int64, N, x int) {
	for _, r := range [2]int{2 * x, 2*x + 1} {
		for j := 0; j < N; j++ {
			m[r*N+j] = octInf
			m[j*N+r] = octInf
		}
		m[r*N+r] = 0
	}
}

// AssignInterval forgets x then adds lo ≤ x ≤ hi (two incremental
// closures).
func (o *OctagonValue) AssignInterval(x int, iv Interval) Value {
	return o.assignInterval(x, iv).withAll(withoutHole(o.ne, x), withoutDiff(o.dne, x))
}

func (o *OctagonValue) assignInterval(x int, iv Interval) *OctagonValue {
	if iv.IsEmpty() {
		return o.bot()
	}
	m := o.closedCopy()
	if m == nil {
		return o.bot()
	}
	N := 2 * o.n
	forgetIn(m, N, x)
	var cs []octCons
	cs = appendUnaryCons(cs, 2*x, iv.Hi)         // x ≤ hi
	cs = appendUnaryCons(cs, 2*x+1, iv.Lo.Neg()) // -x ≤ -lo
	if !addAll(m, N, cs) {
		return o.bot()
	}
	return o.mkClosed(m)
}

// appendUnaryCons appends v_p ≤ u (nothing if u is too large).
func appendUnaryCons(cs []octCons, p int, u Bound) []octCons {
	if !u.IsFinite() || u.V > octBig/2 {
		return cs
	}
	return append(cs, sumCons(p, p, 2*max(u.V, -octBig/2)))
}

// Assign x := e. Exact for x := c, x := x + c, x := -x + c and
// x := ±y + c; other linear forms are linearized: the new x is bounded,
// and so are x - y and x + y for every other y, by the range of e - y and
// e + y in the old value (Miné 2006, §4.4), which is sound and at least
// as precise as the interval domain; only x's rows change, so the matrix
// is re-closed in O(n²) (closeVar).
func (o *OctagonValue) Assign(x int, e LinExpr) Value {
	r := o.assign(x, e)
	if r.IsBottom() {
		return r
	}
	hs := withoutHole(o.ne, x)
	ds := assignedDiff(o.dne, x)
	if ne, ok := e.normal(); ok {
		xs := mergeHoles(copyHoles(o.ne, x, ne), diffToUnary(o.dne, x, ne))
		xd := copyDiff(o.dne, x, ne)
		if xs != nil || xd != nil || unsoundDiffKeep.Load() {
			return r.fresh().normAll(mergeHoles(hs, xs), mergeDiff(ds, xd))
		}
	}
	return r.withAll(hs, ds)
}

// assign is Assign without holes (the result has none).
func (o *OctagonValue) assign(x int, e LinExpr) *OctagonValue {
	cm := o.cm()
	if cm == nil {
		return o.bot()
	}
	ne, ok := e.normal()
	if !ok {
		return o.assignInterval(x, o.Bounds(e))
	}
	e = ne
	small := e.Const <= octBig/4 && e.Const >= -octBig/4
	if len(e.Terms) == 1 && small {
		t := e.Terms[0]
		switch {
		case t.Var == x && t.Coef == 1:
			return o.shift(x, e.Const, false)
		case t.Var == x && t.Coef == -1:
			return o.shift(x, e.Const, true)
		case t.Var != x && (t.Coef == 1 || t.Coef == -1):
			m := slices.Clone(cm)
			N := 2 * o.n
			forgetIn(m, N, x)
			q := node(t.Var, t.Coef)
			// x - v_q ≤ c and v_q - x ≤ -c
			cs := []octCons{{a: q, b: 2 * x, c: e.Const}, {a: 2 * x, b: q, c: -e.Const}}
			if !addAll(m, N, cs) {
				return o.bot()
			}
			return o.mkClosed(m)
		}
	}
	if len(e.Terms) == 0 {
		return o.assignInterval(x, Point(e.Const))
	}
	return o.assignLinearized(x, e)
}

// shift applies x := x + c (negate: x := -x + c), an exact translation
// (after swapping the nodes of x) that keeps the matrix closed.
func (o *OctagonValue) shift(x int, c int64, negate bool) *OctagonValue {
	m := o.closedCopy()
	N := 2 * o.n
	px, nx := 2*x, 2*x+1
	if negate {
		for j := 0; j < N; j++ { // swap rows then columns px, nx
			m[px*N+j], m[nx*N+j] = m[nx*N+j], m[px*N+j]
		}
		for i := 0; i < N; i++ {
			m[i*N+px], m[i*N+nx] = m[i*N+nx], m[i*N+px]
		}
	}
	delta := func(i int) int64 {
		switch i {
		case px:
			return c
		case nx:
			return -c
		}
		return 0
	}
	upd := func(i, j int) {
		if p := i*N + j; m[p] < octInf {
			m[p] = clampEntry(m[p] + delta(j) - delta(i))
		}
	}
	for k := 0; k < N; k++ {
		upd(px, k)
		upd(nx, k)
		if k != px && k != nx {
			upd(k, px)
			upd(k, nx)
		}
	}
	return o.mkClosed(m)
}

// assignLinearized implements the general case of Assign.
func (o *OctagonValue) assignLinearized(x int, e LinExpr) *OctagonValue {
	cm := o.cm()
	N := 2 * o.n
	bx := boundsOn(cm, N, e)
	if bx.IsEmpty() {
		return o.bot()
	}
	var cs []octCons
	cs = appendUnaryCons(cs, 2*x, bx.Hi)
	cs = appendUnaryCons(cs, 2*x+1, bx.Lo.Neg())
	for y := 0; y < o.n; y++ {
		if y == x {
			continue
		}
		for _, s := range [2]int64{1, -1} { // x + s·y
			ey, ok := e.Add(LinExpr{Terms: []Term{{y, s}}})
			if !ok {
				continue
			}
			b := boundsOn(cm, N, ey)
			q := node(y, s)
			if b.Hi.IsFinite() { // x + v_q ≤ hi
				cs = append(cs, sumCons(2*x, q, b.Hi.V))
			}
			if nlo := b.Lo.Neg(); nlo.IsFinite() { // -x - v_q ≤ -lo
				cs = append(cs, sumCons(2*x+1, q^1, nlo.V))
			}
		}
	}
	m := slices.Clone(cm)
	forgetIn(m, N, x)
	for _, k := range cs { // all constraints are on x: O(N²) closure
		if k.c <= octBig {
			c := clampEntry(k.c)
			m[k.a*N+k.b] = min(m[k.a*N+k.b], c)
			m[(k.b^1)*N+(k.a^1)] = min(m[(k.b^1)*N+(k.a^1)], c)
		}
	}
	if !closeVar(m, N, x) {
		return o.bot()
	}
	return o.mkClosed(m)
}

// Assume adds a linear constraint. Octagonal constraints (one variable,
// or two with coefficients of equal magnitude) are added exactly, with an
// O(n²) incremental closure. Others are linearized: every variable and
// every pair of variables with equal-magnitude coefficients is bounded
// by what the remaining terms allow in the current value; in addition the
// interval domain's propagation is run on the octagon's box (so the
// octagon is never less precise than intervals); the whole is repeated
// for up to propagationRounds rounds. e = 0 is e ≤ 0 and -e ≤ 0 handled
// together; e ≠ 0 only cuts the ends of e's range.
func (o *OctagonValue) Assume(c LinCons) Value {
	if o.IsBottom() {
		return o.bot()
	}
	e, ok := c.Expr.normal()
	if !ok {
		return o
	}
	switch c.Op {
	case NeZero:
		r := assumeNe(o, e, o.bot()).(*OctagonValue)
		m := r.cm()
		if m == nil {
			return r
		}
		N := 2 * o.n
		// Both kinds when both apply (x - y ≠ 0 with y = 0 now: the
		// difference hole still holds when a join widens y).
		var hs []hole
		var ds []dhole
		if x, k, ok := neTarget(e, func(i int) Interval { return unaryOn(m, N, i) }); ok && strictlyInside(unaryOn(m, N, x), k) && !hasHole(r.ne, x, k) {
			hs = []hole{{x, k}}
		}
		if d, ok := diffTarget(e, func(i int) Interval { return unaryOn(m, N, i) }); ok && strictlyInside(diffOn(m, N, d.x, d.y), 0) && !hasDhole(r.dne, d.x, d.y) {
			ds = []dhole{d}
		}
		if hs != nil || ds != nil {
			return r.fresh().normAll(mergeHoles(r.ne, hs), mergeDiff(r.dne, ds))
		}
		return r
	case EqZero:
		if n, ok := e.Neg(); ok {
			if len(o.ne) == 0 && len(o.dne) == 0 {
				return o.assumeLe(e, n)
			}
			return o.assumeLe(e, n).fresh().normAll(mergeHoles(o.ne, eqHoles(o.ne, e)), mergeDiff(o.dne, eqDiff(o.dne, e)))
		}
	}
	if len(o.ne) == 0 && len(o.dne) == 0 {
		return o.assumeLe(e)
	}
	return o.assumeLe(e).fresh().normAll(o.ne, o.dne)
}

// assumeLe adds e ≤ 0 for every e of es (normalized, same variables).
// The result may be o itself (with its holes); callers set them.
func (o *OctagonValue) assumeLe(es ...LinExpr) *OctagonValue {
	if len(es[0].Terms) == 0 {
		for _, e := range es {
			if e.Const > 0 {
				return o.bot()
			}
		}
		return o
	}
	N := 2 * o.n
	ts := es[0].Terms
	octagonal := len(ts) == 1 || (len(ts) == 2 && abs64(ts[0].Coef) == abs64(ts[1].Coef))
	rounds := propagationRounds
	if octagonal {
		rounds = 1
	}
	cur := o
	for range rounds {
		cm := cur.cm()
		var cs []octCons
		for _, e := range es {
			cs = append(cs, deriveOctCons(cm, N, e)...)
		}
		if !octagonal {
			box := make([]Interval, o.n)
			for _, t := range ts {
				box[t.Var] = unaryOn(cm, N, t.Var)
			}
			for range propagationRounds {
				ch := false
				for _, e := range es {
					c, empty := refineLe(box, e)
					if empty {
						return o.bot()
					}
					ch = ch || c
				}
				if !ch {
					break
				}
			}
			for _, t := range ts {
				cs = appendUnaryCons(cs, 2*t.Var, box[t.Var].Hi)
				cs = appendUnaryCons(cs, 2*t.Var+1, box[t.Var].Lo.Neg())
			}
		}
		changed := false
		for _, k := range cs {
			if k.c <= octBig && clampEntry(k.c) < cm[k.a*N+k.b] {
				changed = true
			}
		}
		if !changed {
			break
		}
		nm := slices.Clone(cm)
		if !addAll(nm, N, cs) {
			return o.bot()
		}
		cur = o.mkClosed(nm)
	}
	return cur
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// deriveOctCons returns octagonal consequences of e ≤ 0 (e normalized,
// m closed): a_j·x_j ≤ -c - Σ_{i≠j} min(a_i·x_i), and for pairs with
// |a_j| = |a_k| = A, A·(±x_j ±x_k) ≤ -c - Σ_{i≠j,k} min(a_i·x_i); the
// right-hand sides are divided by the coefficient rounding down, exact
// on integers. For octagonal e this is the constraint itself.
func deriveOctCons(m []int64, N int, e LinExpr) []octCons {
	ts := e.Terms
	lows := make([]Bound, len(ts))
	for i, t := range ts {
		lows[i] = clampLo(unaryOn(m, N, t.Var).Scale(t.Coef).Lo)
	}
	negC := Finite(e.Const).Neg()
	rhs := func(skip1, skip2 int) Bound { // -c - Σ_{i∉skip} lows
		rest := Finite(0)
		for i := range ts {
			if i != skip1 && i != skip2 {
				rest = clampLo(rest.Add(lows[i]))
			}
		}
		return clampHi(negC.Add(rest.Neg()))
	}
	var cs []octCons
	for j, t := range ts {
		u := rhs(j, j)
		if !u.IsFinite() || t.Coef == minInt64 {
			continue
		}
		q, _ := floorDiv(u.V, abs64(t.Coef)) // s·x ≤ q
		p := node(t.Var, t.Coef)
		cs = appendUnaryCons(cs, p, Finite(q))
	}
	for j := range ts {
		for k := j + 1; k < len(ts); k++ {
			a := abs64(ts[j].Coef)
			if a != abs64(ts[k].Coef) || ts[j].Coef == minInt64 {
				continue
			}
			u := rhs(j, k)
			if !u.IsFinite() {
				continue
			}
			q, _ := floorDiv(u.V, a)
			if q > octBig {
				continue
			}
			cs = append(cs, sumCons(node(ts[j].Var, ts[j].Coef), node(ts[k].Var, ts[k].Coef), q))
		}
	}
	return cs
}

const minInt64 = -1 << 63

// unaryOn reads the interval of x from a closed matrix.
func unaryOn(m []int64, N, x int) Interval {
	lo, hi := MinusInf, PlusInf
	if v := m[(2*x+1)*N+2*x]; v < octInf { // 2x ≤ v
		hi = Finite(v >> 1)
	}
	if v := m[(2*x)*N+2*x+1]; v < octInf { // -2x ≤ v
		lo = Finite(-(v >> 1))
	}
	return Interval{lo, hi}
}

// boundsOn bounds e over a closed matrix: terms with coefficients of
// equal magnitude are paired greedily and each pair is read from the
// matrix (exact for octagonal e); the remaining terms use their
// intervals. Any partition into pairs and singletons is sound.
func boundsOn(m []int64, N int, e LinExpr) Interval {
	if ne, ok := e.normal(); ok {
		e = ne
	} else {
		return evalLin(e, func(x int) Interval { return unaryOn(m, N, x) })
	}
	r := Point(e.Const)
	used := make([]bool, len(e.Terms))
	for i, t := range e.Terms {
		if used[i] {
			continue
		}
		paired := false
		if t.Coef != minInt64 {
			for j := i + 1; j < len(e.Terms); j++ {
				u := e.Terms[j]
				if used[j] || abs64(u.Coef) != abs64(t.Coef) {
					continue
				}
				p, q := node(t.Var, t.Coef), node(u.Var, u.Coef)
				hi := upperSum(m, N, p, q)
				lo := upperSum(m, N, p^1, q^1).Neg()
				r = r.Add(Interval{lo, hi}.Scale(abs64(t.Coef)))
				used[j], paired = true, true
				break
			}
		}
		if !paired {
			r = r.Add(unaryOn(m, N, t.Var).Scale(t.Coef))
		}
	}
	return r
}

func (o *OctagonValue) Bounds(e LinExpr) Interval {
	m := o.cm()
	if m == nil {
		return EmptyInterval()
	}
	return boundsOn(m, 2*o.n, e)
}

func (o *OctagonValue) Entails(c LinCons) bool {
	if entailsByBounds(o, c) {
		return true
	}
	if c.Op != NeZero || (len(o.ne) == 0 && len(o.dne) == 0) {
		return false
	}
	e, ok := c.Expr.normal()
	m := o.cm()
	return ok && (neEntailed(e, o.ne, func(i int) Interval { return unaryOn(m, 2*o.n, i) }) || o.diffEntailed(e))
}

// Constraints lists the finite entries of the closed matrix, one per
// coherent pair: unary ones as ±x ≤ c, binary ones as ±x ±y ≤ c.
func (o *OctagonValue) Constraints() []LinCons {
	m := o.cm()
	if m == nil {
		return []LinCons{unsat()}
	}
	N := 2 * o.n
	var cs []LinCons
	for i := 0; i < N; i++ {
		for j := 0; j < N; j++ {
			v := m[i*N+j]
			if i == j || v >= octInf || (j^1)*N+(i^1) < i*N+j {
				continue
			}
			sj := int64(1 - 2*(j&1))
			if j == i^1 { // 2·v_j ≤ v
				cs = append(cs, LinCons{Expr: LinExpr{Terms: []Term{{j / 2, sj}}, Const: -(v >> 1)}, Op: LeZero})
				continue
			}
			si := int64(1 - 2*((i^1)&1)) // -v_i = v_bar(i)
			ts := []Term{{j / 2, sj}, {i / 2, si}}
			if ts[0].Var > ts[1].Var {
				ts[0], ts[1] = ts[1], ts[0]
			}
			cs = append(cs, LinCons{Expr: LinExpr{Terms: ts, Const: -v}, Op: LeZero})
		}
	}
	return diffCons(holeCons(cs, o.ne), o.dne)
}

func (o *OctagonValue) AddDims(k int) Value {
	nn := o.n + k
	m := o.cm()
	if m == nil {
		return &OctagonValue{n: nn}
	}
	N, NN := 2*o.n, 2*nn
	out := newTopDBM(NN)
	for i := 0; i < N; i++ {
		copy(out[i*NN:i*NN+N], m[i*N:i*N+N])
	}
	return &OctagonValue{n: nn, m: out, closed: true, ne: o.ne, dne: o.dne}
}

// Project keeps the listed variables in that order; the submatrix of a
// closed matrix is closed.
func (o *OctagonValue) Project(keep []int) Value {
	m := o.cm()
	if m == nil {
		return &OctagonValue{n: len(keep)}
	}
	N, K := 2*o.n, 2*len(keep)
	out := make([]int64, K*K)
	for a := 0; a < K; a++ {
		ia := 2*keep[a/2] + a%2
		for b := 0; b < K; b++ {
			out[a*K+b] = m[ia*N+2*keep[b/2]+b%2]
		}
	}
	for a := 0; a < K; a++ { // a variable kept twice: its diagonal is 0
		out[a*K+a] = 0
	}
	return &OctagonValue{n: len(keep), m: out, closed: true, ne: projectHoles(o.ne, keep), dne: projectDiff(o.dne, keep)}
}

// Box returns the interval projection.
func (o *OctagonValue) Box() *IntervalValue {
	m := o.cm()
	if m == nil {
		return &IntervalValue{dim: o.n, bottom: true}
	}
	ivs := make([]Interval, o.n)
	for x := range ivs {
		ivs[x] = unaryOn(m, 2*o.n, x)
	}
	return (&IntervalValue{ivs: ivs}).normHoles(o.ne)
}

// OctagonFromBox returns the octagon of a box (constants beyond ±2^49
// are dropped, see dbm.go).
func OctagonFromBox(b *IntervalValue) *OctagonValue {
	o := Octagons.Top(b.Dim()).(*OctagonValue)
	if b.IsBottom() {
		return o.bot()
	}
	var cs []octCons
	for x, iv := range b.ivs {
		cs = appendUnaryCons(cs, 2*x, iv.Hi)
		cs = appendUnaryCons(cs, 2*x+1, iv.Lo.Neg())
	}
	m := o.m
	if !addAll(m, 2*o.n, cs) {
		return o.bot()
	}
	r := o.mkClosed(m)
	r.ne = b.ne
	return r
}

// String prints the closed constraints sorted, merging e ≤ 0 and -e ≤ 0
// into e = 0.
func (o *OctagonValue) String(names func(int) string) string {
	if o.IsBottom() {
		return "bottom"
	}
	cs := o.Constraints()
	cs = cs[:len(cs)-len(o.ne)-len(o.dne)] // the holes are printed last
	if len(cs) == 0 && len(o.ne) == 0 && len(o.dne) == 0 {
		return "top"
	}
	key := func(e LinExpr) string { return LinExpr{Terms: e.Terms}.String(nil) }
	upper := map[string]int64{} // terms -> constant of "terms + c ≤ 0"
	for _, c := range cs {
		upper[key(c.Expr)] = c.Expr.Const
	}
	var parts []string
	done := map[string]bool{}
	for _, c := range cs {
		k := key(c.Expr)
		if done[k] {
			continue
		}
		neg, ok := c.Expr.Neg()
		if ok {
			if nc, found := upper[key(neg)]; found && nc == neg.Const {
				done[key(neg)] = true
				c.Op = EqZero
				if c.Expr.Terms[0].Coef < 0 {
					c.Expr = neg
				}
			}
		}
		parts = append(parts, c.String(names))
	}
	sort.Strings(parts)
	if names == nil {
		names = defaultName
	}
	parts = append(parts, holeStrings(o.ne, names)...)
	parts = append(parts, diffStrings(o.dne, names)...)
	return strings.Join(parts, ", ")
}
