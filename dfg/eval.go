package dfg

import (
	"math"
	"slices"

	"chorus/cfg"
	"chorus/domains"
)

// frame is an abstract value over the variables of several cells, laid out
// one cell after the other; it is where a location's action is evaluated
// (so an action relating variables of two cells is evaluated relationally
// before the result is projected back onto each cell).
type frame struct {
	part  *Partition
	cells []CellID
	offs  []int
	// clamp enables the no-signed-overflow assumption (see clampsSigned);
	// it is only sound while evaluating the action of a location, where
	// the expression really is computed after its overflow check, never
	// for queries about arbitrary locations (State.Eval, State.Truth).
	clamp bool
	// sorted: cells is in increasing order (index may binary-search).
	sorted bool
}

// dim returns the dimension of v in the frame, or -1.
func (f *frame) dim(v *cfg.Var) int {
	c := f.part.CellOf(v)
	if i := f.index(c); i >= 0 {
		return f.offs[i] + f.part.IndexInCell(v)
	}
	return -1
}

// index returns the position of cell c in the frame, or -1. The frame's
// cells are sorted (frameOf keeps the order of its sorted argument) except
// in frames built by hand, which are searched linearly.
func (f *frame) index(c CellID) int {
	if f.sorted {
		if i, ok := slices.BinarySearch(f.cells, c); ok {
			return i
		}
		return -1
	}
	return slices.Index(f.cells, c)
}

// form is the result of linearizing an integer expression: an exact linear
// expression over the frame's dimensions, or an interval.
type form struct {
	lin   domains.LinExpr
	exact bool
	iv    domains.Interval
	// rng, when hasRng, is known to contain the value of an exact form
	// (a clamped signed operation): with a non-relational domain the
	// bounds of lin may be wider than what the no-overflow assumption
	// guarantees.
	rng    domains.Interval
	hasRng bool
}

func exactForm(e domains.LinExpr) form { return form{lin: e, exact: true} }
func ivForm(iv domains.Interval) form  { return form{iv: iv} }
func (fm form) bounds(v domains.Value) domains.Interval {
	if fm.exact {
		b := v.Bounds(fm.lin)
		if fm.hasRng {
			b = ivMeet(b, fm.rng)
		}
		return b
	}
	return fm.iv
}

// constValue is the set of values of an integer constant.
func constValue(c *cfg.Const) domains.Interval {
	if !c.Type.IsInt() {
		return topIv
	}
	if !c.Type.Signed && c.Type.Bits >= 64 && c.Value < 0 {
		// the bits of a value ≥ 2^63: not an int64
		return domains.Interval{Lo: fin(math.MaxInt64), Hi: posInf}
	}
	return point(c.Value)
}

// clampsSigned reports whether op on a signed type has undefined overflow
// guarded by an OverflowCheck placed before it (cfg's contract): on the
// paths that continue, its mathematical result fits the type, so the
// analysis may assume so (clamp) instead of wrapping.
//
// Shl is not among them: cfg puts no overflow check before a left shift
// (GCC defines a signed left shift into or past the sign bit: the bits
// shift and the value wraps; cfg's bit-field loads rely on it too), so it
// wraps. Clamping it proved `r > 0` after `r = 1 << n` with n = 31
// (fixture signed_shift_wraps.c) and misread every signed bit-field.
func clampsSigned(op cfg.BinOp, t cfg.Type) bool {
	if !t.Signed || t.Bits == 0 || t.Kind != cfg.IntType {
		return false
	}
	switch op {
	case cfg.Add, cfg.Sub, cfg.Mul, cfg.Div, cfg.Rem:
		return true
	}
	return false
}

// readsGlobal reports whether e reads a global variable or memory: such a
// value may change between the overflow check and the computation (another
// thread writes it), so the computation wraps instead of clamping.
func readsGlobal(e cfg.Expr) bool {
	for _, v := range exprVars(nil, e) {
		if v.Scope == cfg.Global || v.Mem != nil {
			return true
		}
	}
	return false
}

// fit brings a mathematical result to type t. MathInt: unchanged. If the
// bounds fit t: unchanged (exact). Signed UB-guarded operations (clamp):
// the result is assumed to fit, which refines v (sound on the paths that
// continue, see clampsSigned). Otherwise: two's-complement wrap of the
// bounds.
func (f *frame) fit(v domains.Value, fm form, t cfg.Type, clamp bool) (domains.Value, form) {
	if t.Kind != cfg.IntType {
		return v, ivForm(topIv)
	}
	if t.Bits == 0 {
		return v, fm
	}
	r := typeRange(t)
	b := fm.bounds(v)
	if fitsType(b, t) {
		return v, fm
	}
	if clamp {
		if fm.exact {
			v = assumeInRange(v, fm.lin, r)
			fm.rng, fm.hasRng = r, true
			return v, fm
		}
		return v, ivForm(ivMeet(b, r))
	}
	return v, ivForm(wrapIv(b, t))
}

// assumeInRange assumes lo ≤ e ≤ hi for the finite bounds of r.
func assumeInRange(v domains.Value, e domains.LinExpr, r domains.Interval) domains.Value {
	if r.Hi.Inf == 0 {
		if c, ok := linLe(e, linConst(r.Hi.V)); ok {
			v = v.Assume(c)
		}
	}
	if r.Lo.Inf == 0 {
		if c, ok := linLe(linConst(r.Lo.V), e); ok {
			v = v.Assume(c)
		}
	}
	return v
}

// lin linearizes an integer expression at v; v may come back refined by
// facts that hold on every path that continues (no signed overflow).
// Pointer- and float-valued expressions give ⊤.
func (f *frame) lin(v domains.Value, e cfg.Expr) (domains.Value, form) {
	switch e := e.(type) {
	case *cfg.Const:
		iv := constValue(e)
		if c, ok := ivIsPoint(iv); ok {
			return v, exactForm(linConst(c))
		}
		return v, ivForm(iv)
	case *cfg.VarRef:
		if !e.Var.Type.IsInt() {
			return v, ivForm(topIv)
		}
		if d := f.dim(e.Var); d >= 0 {
			return v, exactForm(linVar(d))
		}
		return v, ivForm(typeRange(e.Var.Type))
	case *cfg.Deref:
		return v, f.derefRead(v, e)
	case *cfg.AddrOf:
		return v, ivForm(topIv)
	case *cfg.Unary:
		if !e.Type.IsInt() {
			return v, ivForm(topIv)
		}
		switch e.Op {
		case cfg.Neg:
			v, x := f.lin(v, e.X)
			return f.fit(v, negForm(v, x), e.Type, f.clamp && e.Type.Signed && e.Type.Bits > 0 && !readsGlobal(e))
		case cfg.BitNot: // ~x = -x - 1 (then wrapped)
			v, x := f.lin(v, e.X)
			fm := negForm(v, x)
			if fm.exact {
				if l, ok := linAddScaled(fm.lin, 1, linConst(-1)); ok {
					fm = exactForm(l)
				} else {
					fm = ivForm(ivAdd(fm.bounds(v), point(-1)))
				}
			} else {
				fm = ivForm(ivAdd(fm.iv, point(-1)))
			}
			return f.fit(v, fm, e.Type, false)
		case cfg.Not:
			return v, f.boolForm(v, e)
		}
		return v, ivForm(typeRange(e.Type))
	case *cfg.Binary:
		return f.linBinary(v, e)
	case *cfg.Cast:
		if !e.Type.IsInt() {
			return v, ivForm(topIv)
		}
		if !e.X.ExprType().IsInt() {
			return v, ivForm(typeRange(e.Type))
		}
		v, x := f.lin(v, e.X)
		return f.fit(v, x, e.Type, false) // casts always wrap (gcc)
	}
	return v, ivForm(topIv)
}

func negForm(v domains.Value, x form) form {
	if x.exact {
		if l, ok := linScale(x.lin, -1); ok {
			return exactForm(l)
		}
		return ivForm(ivNeg(x.bounds(v)))
	}
	return ivForm(ivNeg(x.iv))
}

// derefRead gives the value read through d: the single faithful
// non-summary cell exactly; otherwise the join of the cells' bounds, where
// a cell that is not a faithful copy of the access (or a summary, whose
// relations with other variables do not hold for every element it stands
// for) contributes its interval or the access type's range.
func (f *frame) derefRead(v domains.Value, d *cfg.Deref) form {
	if !d.Type.IsInt() {
		return ivForm(topIv)
	}
	r := typeRange(d.Type)
	if len(d.Cells) == 0 {
		return ivForm(r)
	}
	if isStrong(d) && faithful(d, d.Cells[0]) {
		if dm := f.dim(d.Cells[0]); dm >= 0 {
			return exactForm(linVar(dm))
		}
	}
	acc := botIv
	for _, c := range d.Cells {
		dm := f.dim(c)
		if !faithful(d, c) || dm < 0 {
			acc = ivJoin(acc, r)
			continue
		}
		acc = ivJoin(acc, v.Bounds(linVar(dm)))
	}
	if ivEmpty(acc) && !v.IsBottom() {
		acc = r
	}
	return ivForm(acc)
}

// boolForm evaluates a condition-valued expression to 0, 1 or [0, 1] by
// refining v with it and with its negation.
func (f *frame) boolForm(v domains.Value, e cfg.Expr) form {
	t := f.assume(v, e, true)
	fl := f.assume(v, e, false)
	switch {
	case t.IsBottom() && fl.IsBottom():
		return ivForm(botIv)
	case t.IsBottom():
		return exactForm(linConst(0))
	case fl.IsBottom():
		return exactForm(linConst(1))
	}
	return ivForm(mkIv(0, 1))
}

func isComparison(op cfg.BinOp) bool {
	switch op {
	case cfg.Eq, cfg.Ne, cfg.Lt, cfg.Le, cfg.Gt, cfg.Ge:
		return true
	}
	return false
}

func (f *frame) linBinary(v domains.Value, e *cfg.Binary) (domains.Value, form) {
	if !e.Type.IsInt() {
		return v, ivForm(topIv)
	}
	if isComparison(e.Op) || e.Op == cfg.LAnd || e.Op == cfg.LOr {
		return v, f.boolForm(v, e)
	}
	if e.Op == cfg.PtrAdd || e.Op == cfg.PtrSub {
		return v, ivForm(typeRange(e.Type))
	}
	if !e.X.ExprType().IsInt() || !e.Y.ExprType().IsInt() {
		return v, ivForm(typeRange(e.Type))
	}
	v, x := f.lin(v, e.X)
	v, y := f.lin(v, e.Y)
	clamp := f.clamp && clampsSigned(e.Op, e.Type) && !readsGlobal(e)
	var res form
	switch e.Op {
	case cfg.Add, cfg.Sub:
		k := int64(1)
		if e.Op == cfg.Sub {
			k = -1
		}
		if x.exact && y.exact {
			if l, ok := linAddScaled(x.lin, k, y.lin); ok {
				res = exactForm(l)
				break
			}
		}
		yb := y.bounds(v)
		if k < 0 {
			yb = ivNeg(yb)
		}
		res = ivForm(ivAdd(x.bounds(v), yb))
	case cfg.Mul:
		xc, xconst := constOf(x)
		yc, yconst := constOf(y)
		if yconst && x.exact {
			if l, ok := linScale(x.lin, yc); ok {
				res = exactForm(l)
				break
			}
		}
		if xconst && y.exact {
			if l, ok := linScale(y.lin, xc); ok {
				res = exactForm(l)
				break
			}
		}
		res = ivForm(ivMul(x.bounds(v), y.bounds(v)))
	case cfg.Div:
		res = ivForm(ivDiv(x.bounds(v), y.bounds(v)))
	case cfg.Rem:
		res = ivForm(ivRem(x.bounds(v), y.bounds(v)))
	case cfg.Shl, cfg.Shr:
		res = ivForm(ivShift(e.Op, x.bounds(v), y.bounds(v)))
	case cfg.And, cfg.Or, cfg.Xor:
		res = ivForm(ivBitwise(e.Op, x.bounds(v), y.bounds(v)))
	default:
		res = ivForm(typeRange(e.Type))
	}
	return f.fit(v, res, e.Type, clamp)
}

func constOf(fm form) (int64, bool) {
	if fm.exact {
		if len(fm.lin.Terms) == 0 {
			return fm.lin.Const, true
		}
		return 0, false
	}
	return ivIsPoint(fm.iv)
}

// assume refines v with cond (pos) or its negation (!pos). Sound: every
// concrete state of v satisfying the (negated) condition is kept. && and ||
// are handled compositionally (meet, join); comparisons of linear sides go
// to the domain exactly; a non-linear side is replaced by its interval.
func (f *frame) assume(v domains.Value, cond cfg.Expr, pos bool) domains.Value {
	if v.IsBottom() {
		return v
	}
	switch c := cond.(type) {
	case *cfg.Const:
		var feasible bool
		switch c.Type.Kind {
		case cfg.FloatType:
			feasible = (math.Float64frombits(uint64(c.Value)) != 0) == pos
		case cfg.PtrType:
			feasible = (c.Value != 0) == pos
		default:
			iv := constValue(c)
			if pos {
				feasible = !ivIsZero(iv)
			} else {
				feasible = ivContains(iv, 0)
			}
		}
		if feasible {
			return v
		}
		return v.Meet(bottomLike(v))
	case *cfg.Unary:
		if c.Op == cfg.Not {
			return f.assume(v, c.X, !pos)
		}
	case *cfg.Cast:
		// A widening (or same-width) integer cast keeps zero-ness.
		xt := c.X.ExprType()
		if xt.IsInt() && c.Type.IsInt() && (c.Type.Bits == 0 || (xt.Bits != 0 && c.Type.Bits >= xt.Bits)) {
			return f.assume(v, c.X, pos)
		}
	case *cfg.Binary:
		switch {
		case c.Op == cfg.LAnd && pos, c.Op == cfg.LOr && !pos:
			return f.assume(f.assume(v, c.X, pos), c.Y, pos)
		case c.Op == cfg.LOr && pos, c.Op == cfg.LAnd && !pos:
			a := f.assume(v, c.X, pos)
			b := f.assume(v, c.Y, pos)
			return joinVals(a, b)
		case isComparison(c.Op):
			op := c.Op
			if !pos {
				op = op.Negated()
			}
			return f.compare(v, op, c.X, c.Y)
		}
	}
	// Generic: cond != 0 (pos) or cond == 0.
	if !cond.ExprType().IsInt() {
		return v // pointer / float truth: not tracked
	}
	v, fm := f.lin(v, cond)
	if fm.exact {
		op := domains.NeZero
		if !pos {
			op = domains.EqZero
		}
		return v.Assume(domains.LinCons{Expr: fm.lin, Op: op})
	}
	if ivEmpty(fm.iv) || (pos && ivIsZero(fm.iv)) || (!pos && !ivContains(fm.iv, 0)) {
		return v.Meet(bottomLike(v))
	}
	return v
}

func ivIsZero(iv domains.Interval) bool {
	c, ok := ivIsPoint(iv)
	return ok && c == 0
}

// bottomLike returns an unsatisfiable value of v's dimension (via an
// unsatisfiable constraint, so no Domain is needed here).
func bottomLike(v domains.Value) domains.Value {
	return v.Assume(domains.LinCons{Expr: linConst(1), Op: domains.LeZero})
}

func joinVals(a, b domains.Value) domains.Value {
	if a.IsBottom() {
		return b
	}
	if b.IsBottom() {
		return a
	}
	return a.Join(b)
}

// compare assumes l op r. Operands are values of their own (integer) types;
// comparisons are mathematical on those values.
func (f *frame) compare(v domains.Value, op cfg.BinOp, l, r cfg.Expr) domains.Value {
	if !l.ExprType().IsInt() || !r.ExprType().IsInt() {
		return v
	}
	v, fl := f.lin(v, l)
	v, fr := f.lin(v, r)
	if v.IsBottom() {
		return v
	}
	if !fl.exact && fr.exact {
		fl, fr = fr, fl
		op = op.Swapped()
	}
	if fl.exact && fr.exact {
		cs, ok := cmpCons(op, fl.lin, fr.lin)
		if !ok {
			return f.compareIntervals(v, op, fl.bounds(v), fr.bounds(v))
		}
		for _, c := range cs {
			v = v.Assume(c)
		}
		return v
	}
	rb := fr.bounds(v)
	if ivEmpty(rb) {
		return v.Meet(bottomLike(v))
	}
	if fl.exact {
		// Replace r by the bound of its interval that makes l op r weakest.
		var cs []domains.LinCons
		add := func(c domains.LinCons, ok bool) {
			if ok {
				cs = append(cs, c)
			}
		}
		switch op {
		case cfg.Lt:
			if rb.Hi.Inf == 0 && rb.Hi.V > math.MinInt64 {
				add(linLe(fl.lin, linConst(rb.Hi.V-1)))
			}
		case cfg.Le:
			if rb.Hi.Inf == 0 {
				add(linLe(fl.lin, linConst(rb.Hi.V)))
			}
		case cfg.Gt:
			if rb.Lo.Inf == 0 && rb.Lo.V < math.MaxInt64 {
				add(linLe(linConst(rb.Lo.V+1), fl.lin))
			}
		case cfg.Ge:
			if rb.Lo.Inf == 0 {
				add(linLe(linConst(rb.Lo.V), fl.lin))
			}
		case cfg.Eq:
			if rb.Hi.Inf == 0 {
				add(linLe(fl.lin, linConst(rb.Hi.V)))
			}
			if rb.Lo.Inf == 0 {
				add(linLe(linConst(rb.Lo.V), fl.lin))
			}
		case cfg.Ne:
			if c, ok := ivIsPoint(rb); ok {
				if d, ok := linAddScaled(fl.lin, -1, linConst(c)); ok {
					cs = append(cs, domains.LinCons{Expr: d, Op: domains.NeZero})
				}
			}
		}
		for _, c := range cs {
			v = v.Assume(c)
		}
		return v
	}
	return f.compareIntervals(v, op, fl.iv, rb)
}

// compareIntervals keeps v unless l op r is impossible for the intervals.
func (f *frame) compareIntervals(v domains.Value, op cfg.BinOp, a, b domains.Interval) domains.Value {
	if ivEmpty(a) || ivEmpty(b) || !cmpPossible(op, a, b) {
		return v.Meet(bottomLike(v))
	}
	return v
}

// cmpPossible reports whether some x ∈ a, y ∈ b satisfy x op y.
func cmpPossible(op cfg.BinOp, a, b domains.Interval) bool {
	switch op {
	case cfg.Lt:
		return cmpB(a.Lo, b.Hi) < 0
	case cfg.Le:
		return cmpB(a.Lo, b.Hi) <= 0
	case cfg.Gt:
		return cmpB(a.Hi, b.Lo) > 0
	case cfg.Ge:
		return cmpB(a.Hi, b.Lo) >= 0
	case cfg.Eq:
		return !ivEmpty(ivMeet(a, b))
	case cfg.Ne:
		ca, oka := ivIsPoint(a)
		cb, okb := ivIsPoint(b)
		return !(oka && okb && ca == cb)
	}
	return true
}

// cmpCons builds the linear constraints of l op r.
func cmpCons(op cfg.BinOp, l, r domains.LinExpr) ([]domains.LinCons, bool) {
	d, ok := linAddScaled(l, -1, r) // l - r
	if !ok {
		return nil, false
	}
	switch op {
	case cfg.Lt: // l - r + 1 ≤ 0
		e, ok := linAddScaled(d, 1, linConst(1))
		return []domains.LinCons{{Expr: e, Op: domains.LeZero}}, ok
	case cfg.Le:
		return []domains.LinCons{{Expr: d, Op: domains.LeZero}}, true
	case cfg.Gt: // r - l + 1 ≤ 0
		n, ok := linScale(d, -1)
		if !ok {
			return nil, false
		}
		e, ok := linAddScaled(n, 1, linConst(1))
		return []domains.LinCons{{Expr: e, Op: domains.LeZero}}, ok
	case cfg.Ge:
		n, ok := linScale(d, -1)
		return []domains.LinCons{{Expr: n, Op: domains.LeZero}}, ok
	case cfg.Eq:
		return []domains.LinCons{{Expr: d, Op: domains.EqZero}}, true
	case cfg.Ne:
		return []domains.LinCons{{Expr: d, Op: domains.NeZero}}, true
	}
	return nil, false
}
