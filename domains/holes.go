package domains

import (
	"math"
	"slices"
	"strconv"
	"sync/atomic"
)

// Disequalities ("holes"): both domains carry, next to their convex
// value, the excluded value 0 per variable, x ≠ 0. The value denotes the
// points of the convex part that satisfy every hole (the reduced product
// of the domain with one "x ≠ 0" flag per variable). It is what keeps
// `x != 0` through a join of [-∞, -1] and [1, +∞], an interference edge
// or a copy x := y, which neither intervals nor octagons can express
// (pthread-ext/39_rand_lock_p0_vs: seed != 0).
//
// The representation (a sorted list of (x, c)) admits any constant c,
// but only c = 0 is ever created (holeable). The reason is the join: the
// solver joins the values of many edges in trees of partial joins and
// skips a join whose argument is below the accumulator (dfg/solver.go
// joinInto, hubs), which is only correct for a semilattice join
// (associative, and a ⊔ b = b when a ⊑ b). A join exact on "x ≠ c" is
// one: x ≠ c holds in a ⊔ b iff it holds in a and in b. For c = 0 the
// join computes exactly that: if both exclude 0 (by their range or a
// hole), either the hull excludes it too or the ranges lie on both sides
// of 0 and the hole is created (the sign split). For other constants it
// cannot: [1, 5] ∖ {3} ⊔ [10, 10] ⊔ [-10, -10] keeps 3 grouped from the
// left and loses it from the right ([10] ⊔ [-10] has no reason to record
// 3), which dfg's CHORUS_CHECK_INCREMENTAL comparison of a tree of joins
// with a linear join catches.
//
// Soundness: every operation computes the convex part as before and
// keeps a hole only where the argument below shows that no point of the
// concrete result is 0 in that variable; dropping a hole is always sound
// (the set only grows), so an operation that does not know about holes
// returns none. In detail:
//   - join/widen: (x, 0) is kept only if both operands exclude 0 for x
//     (their range omits 0, or they have the hole); the join also creates
//     it when both ranges omit 0 and their hull holds it. Widening keeps
//     only what its left operand excludes (a hole, or x ≠ 0 where its
//     range omits 0: widenHoles), so the excluded sets of a widening
//     sequence shrink and the sequence still stabilizes;
//   - meet, assume: holes of either operand hold in the result; a hole
//     at an end of its variable's range cuts the end off (exact: the hole
//     says the end value is not a point of the set);
//   - assign x := ±y maps y's hole to x (x = 0 iff y = 0); any other
//     write to x drops x's hole; the other variables keep theirs; an
//     assume of x - y = 0 moves a hole between x and y likewise;
//   - assume(a·x + k ≠ 0), where the expression's other terms have
//     singleton values adding up to k, is x ≠ -k/a; it adds the hole
//     when that is 0 (k = 0).
// None of this depends on threads: holes are part of the value a cell
// carries along every edge, interference edges included, and each edge
// transfers it by the rules above.

// holesOff is a test hook: when set no hole is ever created (Assume of
// e ≠ 0 and the sign split of a join are the only sources), so both
// domains are exactly their convex parts. The test that octagons are at
// least as precise as intervals compares the convex domains with it:
// holes are not ordered between the domains (an octagon's tighter range
// can drop a hole that the box keeps and later uses).
var holesOff bool

// unsoundHoleJoin: SetUnsoundHoleJoin.
var unsoundHoleJoin atomic.Bool

// SetUnsoundHoleJoin is UNSOUND, for the soundness oracle's mutation test
// only (analysis.WithoutHoleJoinCheck): while on, a join keeps every hole
// of either operand that lies inside the joined range, without checking
// that the other operand excludes it.
func SetUnsoundHoleJoin(on bool) { unsoundHoleJoin.Store(on) }

// hole records x ≠ c.
type hole struct {
	x int
	c int64
}

func cmpHole(p, q hole) int {
	if p.x != q.x {
		return p.x - q.x
	}
	switch {
	case p.c < q.c:
		return -1
	case p.c > q.c:
		return 1
	}
	return 0
}

// hasHole reports whether hs (sorted) holds x ≠ c.
func hasHole(hs []hole, x int, c int64) bool {
	_, ok := slices.BinarySearchFunc(hs, hole{x, c}, cmpHole)
	return ok
}

// hasHoles reports whether x has a hole in hs.
func hasHoles(hs []hole, x int) bool {
	i, _ := slices.BinarySearchFunc(hs, hole{x, math.MinInt64}, cmpHole)
	return i < len(hs) && hs[i].x == x
}

// strictlyInside reports lo < c < hi.
func strictlyInside(iv Interval, c int64) bool {
	return iv.Lo.Cmp(Finite(c)) < 0 && Finite(c).Cmp(iv.Hi) < 0
}

// excludes reports that no point of (range iv, holes hs) has x = c.
func excludes(iv Interval, hs []hole, x int, c int64) bool {
	return !iv.Contains(c) || hasHole(hs, x, c)
}

// holeable reports whether c may be a hole: only 0 (see above; so c ± 1
// never overflows either).
func holeable(c int64) bool { return c == 0 }

// signSplit reports that neither a nor b contains 0 while their hull
// does (a join creates the hole x ≠ 0 there).
func signSplit(a, b Interval) bool {
	z := Finite(0)
	return (a.Hi.Cmp(z) < 0 && b.Lo.Cmp(z) > 0) || (b.Hi.Cmp(z) < 0 && a.Lo.Cmp(z) > 0)
}

// joinHoles returns the holes of the join of (ia, ha) and (ib, hb) whose
// convex part gives x the range ij(x): the candidates are both operands'
// holes and, when zero is set, 0 for every variable of 0..n-1; a
// candidate is kept when both operands exclude it and it lies strictly
// inside the joined range.
func joinHoles(n int, ha, hb []hole, ia, ib, ij func(int) Interval, zero bool) []hole {
	var out []hole
	unsound := unsoundHoleJoin.Load()
	for _, h := range mergeHoles(ha, hb) {
		if strictlyInside(ij(h.x), h.c) && (unsound || excludes(ia(h.x), ha, h.x, h.c) && excludes(ib(h.x), hb, h.x, h.c)) {
			out = append(out, h)
		}
	}
	if !zero || holesOff {
		return out
	}
	added := false
	for x := range n {
		if signSplit(ia(x), ib(x)) && strictlyInside(ij(x), 0) && !hasHole(out, x, 0) {
			out = append(out, hole{x, 0})
			added = true
		}
	}
	if added {
		slices.SortFunc(out, cmpHole)
	}
	return out
}

// widenHoles returns the holes of a widening's result over n variables:
// the candidates are the left operand's holes ha and, when its range ia(x)
// excludes 0, x ≠ 0 (a loop's first iterate often excludes 0 by its range
// only: seed = 1), kept when the right operand (ib, hb) excludes them too
// and ok accepts them. The sequence still stabilizes: the set of (x, c) a
// value excludes (by range or hole) only shrinks as the value grows, a
// widening step keeps only candidates its left operand excludes, and once
// the ranges are stable (finitely many steps) each iterate excludes a
// subset of what the previous one did.
func widenHoles(n int, ha, hb []hole, ia, ib func(int) Interval, ok func(hole) bool) []hole {
	var out []hole
	for _, h := range ha {
		if excludes(ib(h.x), hb, h.x, h.c) && ok(h) {
			out = append(out, h)
		}
	}
	if holesOff {
		return out
	}
	added := false
	for x := range n {
		h := hole{x, 0}
		if !hasHole(ha, x, 0) && !ia(x).Contains(0) && excludes(ib(x), hb, x, 0) && ok(h) {
			out = append(out, h)
			added = true
		}
	}
	if added {
		slices.SortFunc(out, cmpHole)
	}
	return out
}

// keptHoles returns the holes of hs that ok accepts (nil when none).
func keptHoles(hs []hole, ok func(h hole) bool) []hole {
	var out []hole
	for _, h := range hs {
		if ok(h) {
			out = append(out, h)
		}
	}
	return out
}

// withoutHole returns hs minus the holes of x (hs itself when x has none).
func withoutHole(hs []hole, x int) []hole {
	if !hasHoles(hs, x) {
		return hs
	}
	return keptHoles(hs, func(h hole) bool { return h.x != x })
}

// mergeHoles returns the union of a and b, sorted (a or b itself when
// the other is empty).
func mergeHoles(a, b []hole) []hole {
	if len(b) == 0 {
		return a
	}
	if len(a) == 0 {
		return b
	}
	out := make([]hole, 0, len(a)+len(b))
	out = append(out, a...)
	out = append(out, b...)
	slices.SortFunc(out, cmpHole)
	return slices.Compact(out)
}

// cutHoles normalizes candidate holes (sorted) against a box it may
// modify: a candidate at an end of its variable's range cuts that end
// off (repeatedly: candidates may be adjacent); the candidates strictly
// inside the range are kept, and with outside also those outside the
// range (an octagon keeps them: a relation may have moved the range past
// a hole that a later join brings back inside). It reports whether the
// box became empty.
func cutHoles(ivs []Interval, cands []hole, outside bool) ([]hole, bool) {
	var out []hole
	for i := 0; i < len(cands); {
		j := i
		for j < len(cands) && cands[j].x == cands[i].x {
			j++
		}
		x := cands[i].x
		iv := ivs[x]
		for changed := true; changed; {
			changed = false
			for _, h := range cands[i:j] {
				if iv.Lo.IsFinite() && iv.Lo.V == h.c {
					if iv.Hi.IsFinite() && iv.Hi.V == h.c {
						return nil, true
					}
					iv.Lo, changed = Finite(h.c+1), true
				} else if iv.Hi.IsFinite() && iv.Hi.V == h.c {
					iv.Hi, changed = Finite(h.c-1), true
				}
			}
		}
		ivs[x] = iv
		for _, h := range cands[i:j] {
			if strictlyInside(iv, h.c) || (outside && !iv.Contains(h.c)) {
				out = append(out, h)
			}
		}
		i = j
	}
	return out, false
}

// neTarget analyses e ≠ 0 (e normalized) over the ranges get gives: when
// every term but one, a·x, has a singleton range, with k the sum of
// the constant and of those terms, it returns x and c = -k/a (e ≠ 0 is
// then exactly x ≠ c); ok is false otherwise, or when a does not divide
// k (then e ≠ 0 holds for every x), or on overflow.
func neTarget(e LinExpr, get func(int) Interval) (x int, c int64, ok bool) {
	if holesOff {
		return 0, 0, false
	}
	k := e.Const
	x = -1
	var a int64
	for _, t := range e.Terms {
		if s, single := get(t.Var).Singleton(); single {
			p, okm := mulOK64(s, t.Coef)
			if !okm {
				return 0, 0, false
			}
			if k, okm = addOK64(k, p); !okm {
				return 0, 0, false
			}
			continue
		}
		if x >= 0 {
			return 0, 0, false
		}
		x, a = t.Var, t.Coef
	}
	if x < 0 || a == 0 || k == math.MinInt64 || k%a != 0 {
		return 0, 0, false
	}
	c = -k / a
	return x, c, holeable(c)
}

func addOK64(a, b int64) (int64, bool) {
	s := a + b
	if (s > a) != (b > 0) {
		return 0, false
	}
	return s, true
}

func mulOK64(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	p := a * b
	if p/b != a || (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64) {
		return 0, false
	}
	return p, true
}

// copyHoles returns the holes x gets from x := e (e normalized) when e
// is ±y + k: the image of y's holes that are holeable (a bijection maps
// excluded values to excluded values); y may be x itself (hs is the
// value before the assignment).
func copyHoles(hs []hole, x int, e LinExpr) []hole {
	if len(hs) == 0 || len(e.Terms) != 1 {
		return nil
	}
	t := e.Terms[0]
	if t.Coef != 1 && t.Coef != -1 {
		return nil
	}
	var out []hole
	for _, h := range hs {
		if h.x != t.Var {
			continue
		}
		c := h.c * t.Coef // h.c is not MinInt64 (holeable)
		if r, ok := addOK64(c, e.Const); ok && holeable(r) {
			out = append(out, hole{x, r})
		}
	}
	slices.SortFunc(out, cmpHole)
	return out
}

// eqHoles returns the holes implied by e = 0 (e normalized) when e is
// x - y + k (or -x + y + k): x = y - k, so the holes of y shift to x and
// those of x to y.
func eqHoles(hs []hole, e LinExpr) []hole {
	if len(hs) == 0 || len(e.Terms) != 2 || e.Terms[0].Coef != -e.Terms[1].Coef ||
		(e.Terms[0].Coef != 1 && e.Terms[0].Coef != -1) || e.Const == math.MinInt64 {
		return nil
	}
	// Make it x - y + k = 0 with x the first term.
	x, y, k := e.Terms[0].Var, e.Terms[1].Var, e.Const
	if e.Terms[0].Coef == -1 {
		k = -k
	}
	var out []hole
	for _, h := range hs {
		switch h.x {
		case y: // x = y - k
			if r, ok := addOK64(h.c, -k); ok && holeable(r) {
				out = append(out, hole{x, r})
			}
		case x: // y = x + k
			if r, ok := addOK64(h.c, k); ok && holeable(r) {
				out = append(out, hole{y, r})
			}
		}
	}
	slices.SortFunc(out, cmpHole)
	return out
}

// neEntailed reports whether the holes decide e ≠ 0: e reduces to
// a·x + k over the singleton ranges and x has the hole -k/a.
func neEntailed(e LinExpr, hs []hole, get func(int) Interval) bool {
	if len(hs) == 0 {
		return false
	}
	x, c, ok := neTarget(e, get)
	return ok && hasHole(hs, x, c)
}

// holeCons appends x - c ≠ 0 for each hole.
func holeCons(cs []LinCons, hs []hole) []LinCons {
	for _, h := range hs {
		cs = append(cs, LinCons{Expr: LinExpr{Terms: []Term{{h.x, 1}}, Const: -h.c}, Op: NeZero})
	}
	return cs
}

// projectHoles renumbers hs for Project(keep).
func projectHoles(hs []hole, keep []int) []hole {
	if len(hs) == 0 {
		return nil
	}
	var out []hole
	for i, k := range keep {
		j, _ := slices.BinarySearchFunc(hs, hole{k, math.MinInt64}, cmpHole)
		for ; j < len(hs) && hs[j].x == k; j++ {
			out = append(out, hole{i, hs[j].c})
		}
	}
	return out
}

// shiftHoles appends hs with variables moved by off.
func shiftHoles(out, hs []hole, off int) []hole {
	for _, h := range hs {
		out = append(out, hole{h.x + off, h.c})
	}
	return out
}

// holeStrings prints the holes as "x != c".
func holeStrings(hs []hole, names func(int) string) []string {
	var out []string
	for _, h := range hs {
		out = append(out, names(h.x)+" != "+strconv.FormatInt(h.c, 10))
	}
	return out
}
