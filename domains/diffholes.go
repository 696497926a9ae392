package domains

import (
	"slices"
	"sync/atomic"
)

// Difference holes (octagons only): next to the one-variable holes x ≠ 0
// of holes.go, an octagon carries disequalities x - y ≠ 0 between two of
// its variables (a reduced product of the octagon with one "x - y ≠ 0"
// flag per pair; the value denotes the points of the octagon that satisfy
// every hole). x - y is an octagonal term, so its range is one entry pair
// of the matrix, and the hole behaves on that range exactly as a
// one-variable hole x ≠ 0 on x's range: only the constant 0 is recorded,
// which keeps the join a semilattice join (holes.go explains why other
// constants cannot be): x - y ≠ 0 holds in a ⊔ b iff it holds in a and
// in b, and the join computes exactly that: both exclude 0 from x - y
// (by their x - y range or a hole) and either the hull of their x - y
// ranges (the joined matrix's entries are the entrywise maxima) omits 0
// too or it holds the hole, created by the sign split when the ranges lie
// on both sides of 0.
//
// It keeps `a != b` where a rotation of three values under a lock moves
// them around (pthread-ext/31_simple_loop5_vs: temp = a; a = b; b = c;
// c = temp keeps a ≠ b, b ≠ c, c ≠ a: each copy x := y maps y's holes to
// x), and `x != y` past the join of `if (x == y) z = 0; else z = 1`
// (29_conditionals_vs, with the flag-infeasible edges of dfg/flagpath.go
// separating the two paths).
//
// Soundness (every rule keeps a hole only where no point of the concrete
// result has x = y; dropping a hole is always sound):
//   - join/widen: kept only if both operands exclude x = y; the join also
//     creates it on a sign split (above). Widening keeps only its left
//     operand's holes, so hole sets shrink along a widening sequence;
//   - meet, assume: the holes of either operand hold in the result; a
//     hole at an end of its x - y range cuts the end (x - y ≤ 0 with the
//     hole is x - y ≤ -1: exact);
//   - x := y (plain copy): x = y afterwards, so x - z = y - z for every
//     other z and y's holes become x's; x := y - z gives x ≠ 0 from the
//     hole y - z ≠ 0 (a one-variable hole); any other write of x drops
//     x's holes; the other pairs keep theirs (their variables did not
//     change);
//   - assume(a·(x - y) + k ≠ 0), where the expression's other terms have
//     singleton values adding up to -k (so k = 0 after them), adds the
//     hole; assume(x - y = 0) moves holes between x and y (x - z ≠ 0 iff
//     y - z ≠ 0 there);
//   - projection renumbers and drops pairs with a variable not kept.
// None of this depends on threads: holes are part of the value a cell
// carries along every edge, interference edges included.

// dhole records x - y ≠ 0 with x < y.
type dhole struct{ x, y int }

func cmpDhole(p, q dhole) int {
	if p.x != q.x {
		return p.x - q.x
	}
	return p.y - q.y
}

func mkDhole(x, y int) dhole {
	if x > y {
		x, y = y, x
	}
	return dhole{x, y}
}

// unsoundDiffKeep: SetUnsoundDiffHoleKeep.
var unsoundDiffKeep atomic.Bool

// SetUnsoundDiffHoleKeep is UNSOUND, for the soundness oracle's mutation
// test only (analysis.WithoutDiffHoleKill): while on, an assignment x := e
// keeps the difference holes of x that held before it.
func SetUnsoundDiffHoleKeep(on bool) { unsoundDiffKeep.Store(on) }

// assignedDiff returns the difference holes of ds that survive a write of
// x: those not involving x.
func assignedDiff(ds []dhole, x int) []dhole {
	if unsoundDiffKeep.Load() {
		return ds
	}
	return withoutDiff(ds, x)
}

// hasDhole reports whether ds (sorted) holds x - y ≠ 0.
func hasDhole(ds []dhole, x, y int) bool {
	_, ok := slices.BinarySearchFunc(ds, mkDhole(x, y), cmpDhole)
	return ok
}

// diffOn reads the range of x - y from a closed matrix.
func diffOn(m []int64, N, x, y int) Interval {
	lo, hi := MinusInf, PlusInf
	if v := m[(2*y)*N+2*x]; v < octInf { // x - y ≤ v
		hi = Finite(v)
	}
	if v := m[(2*x)*N+2*y]; v < octInf { // y - x ≤ v
		lo = Finite(-v)
	}
	return Interval{lo, hi}
}

// excludesDiff reports that no point of (closed m, holes ds) has x = y.
func excludesDiff(m []int64, N int, ds []dhole, d dhole) bool {
	return !diffOn(m, N, d.x, d.y).Contains(0) || hasDhole(ds, d.x, d.y)
}

// joinDiffHoles returns the difference holes of the join out of the
// closed matrices a and b (holes da, db): for every pair whose joined
// range holds 0 strictly inside, the hole is kept when both operands
// exclude x = y.
func joinDiffHoles(n int, a, b, out []int64, da, db []dhole) []dhole {
	if holesOff {
		return nil
	}
	N := 2 * n
	var res []dhole
	for x := 0; x < n; x++ {
		for y := x + 1; y < n; y++ {
			// Cheap test first: 0 strictly inside the joined range.
			hi, lo := out[(2*y)*N+2*x], out[(2*x)*N+2*y]
			if hi <= 0 || lo <= 0 { // x - y ≤ 0 or y - x ≤ 0 (also ≥ octInf fails below)
				continue
			}
			d := dhole{x, y}
			ea := excludesDiff(a, N, da, d)
			eb := excludesDiff(b, N, db, d)
			if ea && eb {
				res = append(res, d)
			}
		}
	}
	return res
}

// mergeDiff returns the union of a and b, sorted.
func mergeDiff(a, b []dhole) []dhole {
	if len(b) == 0 {
		return a
	}
	if len(a) == 0 {
		return b
	}
	out := make([]dhole, 0, len(a)+len(b))
	out = append(out, a...)
	out = append(out, b...)
	slices.SortFunc(out, cmpDhole)
	return slices.Compact(out)
}

// withoutDiff returns ds minus the holes that involve x (ds itself when
// none does).
func withoutDiff(ds []dhole, x int) []dhole {
	i := slices.IndexFunc(ds, func(d dhole) bool { return d.x == x || d.y == x })
	if i < 0 {
		return ds
	}
	out := slices.Clone(ds[:i])
	for _, d := range ds[i+1:] {
		if d.x != x && d.y != x {
			out = append(out, d)
		}
	}
	return out
}

// normAll gives the closed, fresh value r the candidate one-variable
// holes cands and difference holes dc (both sorted): normHoles for the
// first; a difference hole at an end of its x - y range cuts that end (a
// binary constraint, incremental closure), which may move other ends
// onto holes, so both steps repeat until nothing changes (each hole cuts
// each end at most once: ends only move inwards). Difference holes
// outside their range are dropped (the range already excludes x = y).
func (r *OctagonValue) normAll(cands []hole, dc []dhole) *OctagonValue {
	for {
		r = r.normHoles(cands)
		if len(dc) == 0 || r.m == nil {
			return r
		}
		N := 2 * r.n
		m := r.cm()
		var cs []octCons
		var kept []dhole
		for _, d := range dc {
			iv := diffOn(m, N, d.x, d.y)
			lo0 := iv.Lo.IsFinite() && iv.Lo.V == 0
			hi0 := iv.Hi.IsFinite() && iv.Hi.V == 0
			switch {
			case lo0 && hi0:
				return r.bot()
			case lo0: // y - x ≤ -1
				cs = append(cs, octCons{a: 2 * d.x, b: 2 * d.y, c: -1})
			case hi0: // x - y ≤ -1
				cs = append(cs, octCons{a: 2 * d.y, b: 2 * d.x, c: -1})
			case strictlyInside(iv, 0):
				kept = append(kept, d)
			}
		}
		if len(cs) == 0 {
			if len(kept) > 0 {
				r = &OctagonValue{n: r.n, m: m, closed: true, ne: r.ne, dne: saturateDiff(m, r.n, kept)}
			}
			return r
		}
		m = slices.Clone(m)
		if !addAll(m, N, cs) {
			return r.bot()
		}
		cands = r.ne
		dc = kept
		r = &OctagonValue{n: r.n, m: m, closed: true}
	}
}

// saturateDiff adds to ds (sorted, each strictly inside its range in the
// closed m) the holes equalities imply: x - y ≠ 0 and z - y = 0 give
// x - z ≠ 0 (with the same x - z range, so strictly inside too). A
// closed octagon holds every equality z = y its constraints imply, so
// one pass finds them all. Without it a hole recorded on a copy (the
// parameter s2 := read of an inlined call, then assume(ret != s2)) would
// not be known of the original.
func saturateDiff(m []int64, n int, ds []dhole) []dhole {
	N := 2 * n
	var add []dhole
	for _, d := range ds {
		for z := 0; z < n; z++ {
			if z == d.x || z == d.y {
				continue
			}
			for _, p := range [2][2]int{{d.x, d.y}, {d.y, d.x}} {
				// z = p[1]: then p[0] - z ≠ 0.
				if m[(2*z)*N+2*p[1]] == 0 && m[(2*p[1])*N+2*z] == 0 && !hasDhole(ds, p[0], z) {
					add = append(add, mkDhole(p[0], z))
				}
			}
		}
	}
	if len(add) == 0 {
		return ds
	}
	return mergeDiff(ds, add)
}

// withAll returns a copy of r with holes hs and ds (r itself when ⊥ or
// when it has none and gets none).
func (r *OctagonValue) withAll(hs []hole, ds []dhole) *OctagonValue {
	if r.m == nil || (len(hs) == 0 && len(ds) == 0 && len(r.ne) == 0 && len(r.dne) == 0) {
		return r
	}
	return &OctagonValue{n: r.n, m: r.m, closed: r.closed, ne: hs, dne: ds}
}

// copyDiff returns the difference holes x gets from x := e (e
// normalized, ds the holes before the assignment): for e = y (y ≠ x),
// (y, z) gives (x, z) for every z ≠ x.
func copyDiff(ds []dhole, x int, e LinExpr) []dhole {
	if len(ds) == 0 || len(e.Terms) != 1 || e.Terms[0].Coef != 1 || e.Const != 0 || e.Terms[0].Var == x {
		return nil
	}
	y := e.Terms[0].Var
	var out []dhole
	for _, d := range ds {
		z := -1
		switch y {
		case d.x:
			z = d.y
		case d.y:
			z = d.x
		}
		if z >= 0 && z != x {
			out = append(out, mkDhole(x, z))
		}
	}
	slices.SortFunc(out, cmpDhole)
	return slices.Compact(out)
}

// diffToUnary returns x ≠ 0 for x := y - z (e normalized, y ≠ z) when ds
// (before the assignment) has y - z ≠ 0.
func diffToUnary(ds []dhole, x int, e LinExpr) []hole {
	if len(ds) == 0 || len(e.Terms) != 2 || e.Const != 0 || e.Terms[0].Coef != -e.Terms[1].Coef ||
		(e.Terms[0].Coef != 1 && e.Terms[0].Coef != -1) {
		return nil
	}
	if hasDhole(ds, e.Terms[0].Var, e.Terms[1].Var) {
		return []hole{{x, 0}}
	}
	return nil
}

// eqDiff returns the difference holes implied by e = 0 (e normalized)
// when e is ±(x - y): x = y, so (y, z) gives (x, z) and (x, z) gives
// (y, z).
func eqDiff(ds []dhole, e LinExpr) []dhole {
	if len(ds) == 0 || len(e.Terms) != 2 || e.Const != 0 || e.Terms[0].Coef != -e.Terms[1].Coef ||
		(e.Terms[0].Coef != 1 && e.Terms[0].Coef != -1) {
		return nil
	}
	x, y := e.Terms[0].Var, e.Terms[1].Var
	var out []dhole
	for _, d := range ds {
		for _, p := range [2][2]int{{x, y}, {y, x}} {
			from, to := p[0], p[1]
			z := -1
			switch from {
			case d.x:
				z = d.y
			case d.y:
				z = d.x
			}
			if z >= 0 && z != to {
				out = append(out, mkDhole(to, z))
			}
		}
	}
	slices.SortFunc(out, cmpDhole)
	return slices.Compact(out)
}

// diffTarget analyses e ≠ 0 (e normalized) over the ranges get gives:
// when every term but two, a·x and -a·y, has a singleton range and the
// constant plus those terms is 0, e ≠ 0 is exactly x - y ≠ 0.
func diffTarget(e LinExpr, get func(int) Interval) (d dhole, ok bool) {
	if holesOff || len(e.Terms) < 2 {
		return dhole{}, false
	}
	if t := e.Terms; len(t) == 2 && e.Const == 0 && t[0].Coef != 0 && t[0].Coef == -t[1].Coef && t[0].Var != t[1].Var {
		return mkDhole(t[0].Var, t[1].Var), true // also when one side is a singleton
	}
	k := e.Const
	var rest []Term
	for _, t := range e.Terms {
		if s, single := get(t.Var).Singleton(); single {
			p, okm := mulOK64(s, t.Coef)
			if !okm {
				return dhole{}, false
			}
			if k, okm = addOK64(k, p); !okm {
				return dhole{}, false
			}
			continue
		}
		if len(rest) == 2 {
			return dhole{}, false
		}
		rest = append(rest, t)
	}
	if k != 0 || len(rest) != 2 || rest[0].Coef == 0 || rest[0].Coef != -rest[1].Coef || rest[0].Var == rest[1].Var {
		return dhole{}, false
	}
	return mkDhole(rest[0].Var, rest[1].Var), true
}

// projectDiff renumbers ds for Project(keep); a variable kept twice keeps
// its holes with each copy (never with itself).
func projectDiff(ds []dhole, keep []int) []dhole {
	if len(ds) == 0 {
		return nil
	}
	var out []dhole
	for i, a := range keep {
		for j := i + 1; j < len(keep); j++ {
			if b := keep[j]; a != b && hasDhole(ds, a, b) {
				out = append(out, dhole{i, j})
			}
		}
	}
	return out
}

// shiftDiff appends ds with variables moved by off.
func shiftDiff(out, ds []dhole, off int) []dhole {
	for _, d := range ds {
		out = append(out, dhole{d.x + off, d.y + off})
	}
	return out
}

// diffCons appends x - y ≠ 0 for each difference hole.
func diffCons(cs []LinCons, ds []dhole) []LinCons {
	for _, d := range ds {
		cs = append(cs, LinCons{Expr: LinExpr{Terms: []Term{{d.x, 1}, {d.y, -1}}}, Op: NeZero})
	}
	return cs
}

// diffStrings prints the holes as "x != y".
func diffStrings(ds []dhole, names func(int) string) []string {
	var out []string
	for _, d := range ds {
		out = append(out, names(d.x)+" != "+names(d.y))
	}
	return out
}

// diffEntailed reports whether the difference holes decide e ≠ 0.
func (o *OctagonValue) diffEntailed(e LinExpr) bool {
	m := o.cm()
	if len(o.dne) == 0 || m == nil {
		return false
	}
	N := 2 * o.n
	d, ok := diffTarget(e, func(i int) Interval { return unaryOn(m, N, i) })
	return ok && hasDhole(o.dne, d.x, d.y)
}

// diffLeq reports that o (closed matrix a) excludes every difference
// hole of w.
func (o *OctagonValue) diffLeq(a []int64, w *OctagonValue) bool {
	for _, d := range w.dne {
		if !excludesDiff(a, 2*o.n, o.dne, d) {
			return false
		}
	}
	return true
}

// widenDiff returns the difference holes of o ∇ w (b: w's closed
// matrix): the pairs that both operands exclude, by a hole or by their
// range. Unlike the one-variable holes, a pair whose left range excludes
// 0 is a candidate too (the first iterate of a loop usually excludes
// x = y by its range only: a = 1, b = 2). The sequence still stabilizes:
// the set of pairs a value excludes only shrinks as the value grows, a
// widening step keeps only pairs its left operand excludes, and once the
// matrix is stable (finitely many steps) the excluded set of each iterate
// is contained in the previous one's.
func widenDiff(o *OctagonValue, b []int64, w *OctagonValue) []dhole {
	a := o.cm()
	if a == nil || holesOff {
		return nil
	}
	N := 2 * o.n
	var out []dhole
	for x := 0; x < o.n; x++ {
		for y := x + 1; y < o.n; y++ {
			d := dhole{x, y}
			if excludesDiff(a, N, o.dne, d) && excludesDiff(b, N, w.dne, d) {
				out = append(out, d)
			}
		}
	}
	return out
}
