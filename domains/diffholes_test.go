package domains

import (
	"testing"
)

// Tests of the octagons' difference holes (diffholes.go). Their soundness
// is also exercised by the property tests: randCons draws x - y + c ≠ 0
// (a hole when c = 0), and member evaluates the constraints a value
// exports, the holes included.

func nediff(x, y int) LinCons { // x - y ≠ 0
	return LinCons{Expr: LinExpr{Terms: []Term{{x, 1}, {y, -1}}}, Op: NeZero}
}

func eqdiff(x, y int) LinCons { // x - y = 0
	return LinCons{Expr: LinExpr{Terms: []Term{{x, 1}, {y, -1}}}, Op: EqZero}
}

func copyOf(y int) LinExpr { return LinExpr{Terms: []Term{{y, 1}}} }

func TestDiffHolesBasics(t *testing.T) {
	top := Octagons.Top(3)
	nd := top.Assume(nediff(0, 1))
	if !nd.Entails(nediff(0, 1)) || !nd.Entails(nediff(1, 0)) {
		t.Fatalf("assume x0 != x1 does not entail it: %s", nd.String(nil))
	}
	if nd.Entails(nediff(0, 2)) || nd.Entails(ne(0, 0)) {
		t.Fatalf("x0 != x1 entails more: %s", nd.String(nil))
	}
	if !nd.Assume(eqdiff(0, 1)).IsBottom() {
		t.Fatalf("x0 != x1 and x0 = x1 is not bottom")
	}
	// A hole at an end cuts it: x0 - x1 <= 0 gives x0 - x1 <= -1.
	le0 := LinCons{Expr: LinExpr{Terms: []Term{{0, 1}, {1, -1}}}, Op: LeZero}
	if b := nd.Assume(le0).Bounds(LinExpr{Terms: []Term{{0, 1}, {1, -1}}}); b.Hi.Cmp(Finite(-1)) != 0 {
		t.Fatalf("x0 != x1, x0 <= x1: x0 - x1 in %v, want upper bound -1", b)
	}
	// The sign split: x0 - x1 = -1 join x0 - x1 = 2 excludes x0 = x1.
	p := pointValue(Octagons, []int64{1, 2, 3})
	q := pointValue(Octagons, []int64{3, 1, 2})
	if j := p.Join(q); !j.Entails(nediff(0, 1)) {
		t.Fatalf("(1,2,3) join (3,1,2) does not exclude x0 = x1: %s", j.String(nil))
	}
	// A join with a value where x0 = x1 drops it.
	if j := nd.Join(pointValue(Octagons, []int64{2, 2, 0})); j.Entails(nediff(0, 1)) {
		t.Fatalf("x0 != x1 join (2,2,0) excludes x0 = x1: %s", j.String(nil))
	}
	// Copies: x2 := x0 gives x2 != x1; x2 := x0 + 1 does not.
	if v := nd.Assign(2, copyOf(0)); !v.Entails(nediff(2, 1)) || !v.Entails(nediff(0, 1)) {
		t.Fatalf("x2 := x0 over x0 != x1: %s", v.String(nil))
	}
	if v := nd.Assign(2, LinExpr{Terms: []Term{{0, 1}}, Const: 1}); v.Entails(nediff(2, 1)) {
		t.Fatalf("x2 := x0 + 1 over x0 != x1 excludes x2 = x1: %s", v.String(nil))
	}
	// x2 := x0 - x1 gives x2 != 0.
	if v := nd.Assign(2, LinExpr{Terms: []Term{{0, 1}, {1, -1}}}); !v.Entails(ne(2, 0)) {
		t.Fatalf("x2 := x0 - x1 over x0 != x1: %s", v.String(nil))
	}
	// Overwriting or forgetting x0 drops the hole; x1 := x0 too (x1 = x0).
	if v := nd.Assign(0, copyOf(2)); v.Entails(nediff(0, 1)) {
		t.Fatalf("x0 := x2 keeps x0 != x1: %s", v.String(nil))
	}
	if v := nd.Assign(1, copyOf(0)); v.Entails(nediff(0, 1)) || v.IsBottom() {
		t.Fatalf("x1 := x0 over x0 != x1: %s", v.String(nil))
	}
	if v := nd.Forget(1); v.Entails(nediff(0, 1)) {
		t.Fatalf("forget x1 keeps x0 != x1: %s", v.String(nil))
	}
	if v := nd.AssignInterval(0, NewInterval(-1, 1)); v.Entails(nediff(0, 1)) {
		t.Fatalf("x0 := [-1, 1] keeps x0 != x1: %s", v.String(nil))
	}
	// x2 = x0 moves the hole to x2.
	if v := nd.Assume(eqdiff(2, 0)); !v.Entails(nediff(2, 1)) {
		t.Fatalf("x0 != x1, x2 = x0: %s", v.String(nil))
	}
	// Singletons reduce: x0 - x1 + x2 != 0 with x2 = 0.
	v := top.Assume(le(1, 5)).Assume(eq(2, 0)).Assume(LinCons{Expr: LinExpr{Terms: []Term{{0, 1}, {1, -1}, {2, 1}}}, Op: NeZero})
	if !v.Entails(nediff(0, 1)) {
		t.Fatalf("x1 <= 5, x2 = 0, x0 - x1 + x2 != 0: %s", v.String(nil))
	}
	// Only a difference of 0: x0 - x1 != 1 records nothing.
	if v := top.Assume(LinCons{Expr: LinExpr{Terms: []Term{{0, 1}, {1, -1}}, Const: -1}, Op: NeZero}); !v.IsTop() {
		t.Fatalf("x0 - x1 != 1 recorded: %s", v.String(nil))
	}
	// Order.
	if !nd.Leq(top) || top.Leq(nd) || nd.Equal(top) {
		t.Fatalf("order with difference holes wrong")
	}
	// Project, AddDims and Concat carry the holes.
	if pv := nd.Project([]int{2, 1, 0}).AddDims(1); !pv.Entails(nediff(2, 1)) || pv.Entails(nediff(0, 1)) {
		t.Fatalf("project lost or moved the hole: %s", pv.String(nil))
	}
	if pv := nd.Project([]int{0, 0}); pv.IsBottom() {
		t.Fatalf("a variable kept twice got a hole with itself: %s", pv.String(nil))
	}
	if c := Concat(Octagons, top, nd); !c.Entails(nediff(3, 4)) {
		t.Fatalf("concat lost the hole: %s", c.String(nil))
	}
	// Widening keeps a pair both operands exclude, also by the left
	// operand's range only (the first iterate of the rotation), and
	// drops one the right operand holds.
	if w := p.Widen(p.Join(q), nil); !w.Entails(nediff(0, 1)) {
		t.Fatalf("widening lost a pair both exclude: %s", w.String(nil))
	}
	if w := nd.Widen(nd.Join(pointValue(Octagons, []int64{2, 2, 0})), nil); w.Entails(nediff(0, 1)) {
		t.Fatalf("widening kept a pair the right operand holds: %s", w.String(nil))
	}
}

// TestDiffHolesRotation: the invariant of pthread-ext/31_simple_loop5_vs
// (a, b, c rotated through temp) is found by the join/widening iteration.
func TestDiffHolesRotation(t *testing.T) {
	const a, b, c, tmp = 0, 1, 2, 3
	rot := func(v Value) Value {
		v = v.Assign(tmp, copyOf(a))
		v = v.Assign(a, copyOf(b))
		v = v.Assign(b, copyOf(c))
		return v.Assign(c, copyOf(tmp))
	}
	v := pointValue(Octagons, []int64{1, 2, 3, 0})
	for i := 0; ; i++ {
		nv := v.Widen(v.Join(rot(v)), []int64{0, 1, 2, 3})
		if nv.Equal(v) {
			break
		}
		if i > 100 {
			t.Fatalf("no fixpoint: %s", nv.String(nil))
		}
		v = nv
	}
	for _, d := range [][2]int{{a, b}, {b, c}, {c, a}} {
		if !v.Entails(nediff(d[0], d[1])) {
			t.Fatalf("rotation invariant lacks x%d != x%d: %s", d[0], d[1], v.String(nil))
		}
	}
	// The broken rotation (c := b instead of c := temp) keeps none.
	brk := func(v Value) Value {
		v = v.Assign(tmp, copyOf(a))
		v = v.Assign(a, copyOf(b))
		v = v.Assign(b, copyOf(c))
		return v.Assign(c, copyOf(b))
	}
	v = pointValue(Octagons, []int64{1, 2, 3, 0})
	for i := 0; ; i++ {
		nv := v.Widen(v.Join(brk(v)), []int64{0, 1, 2, 3})
		if nv.Equal(v) {
			break
		}
		if i > 100 {
			t.Fatalf("no fixpoint: %s", nv.String(nil))
		}
		v = nv
	}
	for _, d := range [][2]int{{a, b}, {b, c}, {c, a}} {
		if v.Entails(nediff(d[0], d[1])) {
			t.Fatalf("broken rotation keeps x%d != x%d: %s", d[0], d[1], v.String(nil))
		}
	}
}

// TestDiffHolesJoinSemilattice: with difference holes the join is still
// associative and commutative and absorbs what is below the accumulator.
func TestDiffHolesJoinSemilattice(t *testing.T) {
	r := newRand(93)
	for iter := range 3000 {
		n := 2 + r.IntN(2)
		vals := make([]Value, 3)
		for i := range vals {
			vals[i], _ = randValue(r, Octagons, n, true)
			for range r.IntN(3) {
				x := r.IntN(n)
				y := (x + 1 + r.IntN(n-1)) % n
				vals[i] = vals[i].Assume(nediff(x, y))
			}
		}
		a, b, c := vals[0], vals[1], vals[2]
		l, rr := a.Join(b).Join(c), a.Join(b.Join(c))
		if !l.Equal(rr) {
			t.Fatalf("iter %d: (a⊔b)⊔c = %s, a⊔(b⊔c) = %s for %s; %s; %s", iter, l.String(nil), rr.String(nil), a.String(nil), b.String(nil), c.String(nil))
		}
		if !a.Join(b).Equal(b.Join(a)) {
			t.Fatalf("iter %d: join not commutative on %s; %s", iter, a.String(nil), b.String(nil))
		}
		if b.Leq(a) && !a.Join(b).Equal(a) {
			t.Fatalf("iter %d: b ⊑ a but a ⊔ b = %s for %s; %s", iter, a.Join(b).String(nil), a.String(nil), b.String(nil))
		}
	}
}

// TestDiffHolesWideningTerminates: a body that keeps creating holes on a
// growing set of pairs still stabilizes.
func TestDiffHolesWideningTerminates(t *testing.T) {
	r := newRand(5)
	for iter := range 200 {
		n := 3 + r.IntN(3)
		v, _ := randValue(r, Octagons, n, true)
		for i := range 1000 {
			x := r.IntN(n)
			y := (x + 1 + r.IntN(n-1)) % n
			body := v.Assume(nediff(x, y)).Assign(r.IntN(n), randExpr(r, n, true))
			nv := v.Widen(v.Join(body), []int64{0, 10})
			if nv.Leq(v) {
				break
			}
			if i == 999 {
				t.Fatalf("iter %d: no fixpoint after 1000 widenings: %s", iter, v.String(nil))
			}
			v = nv
		}
	}
}
