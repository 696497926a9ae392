package domains

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// randOctCons returns a random coherent DBM constraint over n variables
// with a constant in [-R, R].
func randOctCons(r *rand.Rand, n int, R int64) octCons {
	p := r.IntN(2 * n)
	q := r.IntN(2 * n)
	c := r.Int64N(2*R+1) - R
	if p == q { // unary: 2·v_p ≤ 2c
		return sumCons(p, p, 2*c)
	}
	return sumCons(p, q, c)
}

// setCons adds a constraint to a raw matrix (both coherent entries).
func setCons(m []int64, N int, k octCons) {
	c := clampEntry(k.c)
	m[k.a*N+k.b] = min(m[k.a*N+k.b], c)
	m[(k.b^1)*N+(k.a^1)] = min(m[(k.b^1)*N+(k.a^1)], c)
}

// randRawDBM returns a raw matrix with k random constraints; with
// feasible set, every constraint is satisfied by a hidden random point so
// the octagon is non-empty.
func randRawDBM(r *rand.Rand, n, k int, feasible bool) []int64 {
	N := 2 * n
	m := newTopDBM(N)
	pt := randPoint(r, n)
	val := func(p int) int64 { // value of node p at pt
		if p%2 == 0 {
			return pt[p/2]
		}
		return -pt[p/2]
	}
	for range k {
		c := randOctCons(r, n, 10)
		if feasible { // v_b - v_a ≤ c must hold at pt: raise c if needed
			c.c = max(c.c, val(c.b)-val(c.a)+r.Int64N(3))
		}
		setCons(m, N, c)
	}
	return m
}

// bruteEntries enumerates the integer points of the octagon given by raw
// matrix m intersected with the box [-B, B]^n, and returns the exact
// maximum of v_j - v_i for every (i, j) (nil if there is no point).
func bruteEntries(m []int64, n int, B int64) []int64 {
	N := 2 * n
	best := make([]int64, N*N)
	found := false
	p := make([]int64, n)
	var rec func(k int)
	val := func(i int) int64 {
		if i%2 == 0 {
			return p[i/2]
		}
		return -p[i/2]
	}
	rec = func(k int) {
		if k == n {
			for i := range N {
				for j := range N {
					if m[i*N+j] < octInf && val(j)-val(i) > m[i*N+j] {
						return
					}
				}
			}
			for i := range N {
				for j := range N {
					d := val(j) - val(i)
					if !found || d > best[i*N+j] {
						best[i*N+j] = max(best[i*N+j], d)
						if !found {
							best[i*N+j] = d
						}
					}
				}
			}
			if !found {
				found = true
				for i := range N {
					for j := range N {
						best[i*N+j] = val(j) - val(i)
					}
				}
			}
			return
		}
		for v := -B; v <= B; v++ {
			p[k] = v
			rec(k + 1)
		}
	}
	rec(0)
	if !found {
		return nil
	}
	return best
}

// TestTightClosureExact: the tight closure of an integer octagon (inside
// a box, so that every entry is finite) has, entry by entry, the exact
// maximum over its integer points, and is empty exactly when there is no
// integer point. This is what makes the closed form canonical.
func TestTightClosureExact(t *testing.T) {
	r := newRand(51)
	const B = 5
	for iter := range 1500 {
		n := 1 + r.IntN(3)
		N := 2 * n
		m := randRawDBM(r, n, 1+r.IntN(5), r.IntN(3) != 0)
		for x := range n { // the box
			setCons(m, N, sumCons(2*x, 2*x, 2*B))
			setCons(m, N, sumCons(2*x+1, 2*x+1, 2*B))
		}
		want := bruteEntries(m, n, B)
		got := slices.Clone(m)
		ok := tightClose(got, N)
		if (want != nil) != ok {
			t.Fatalf("iter %d: closure says non-empty=%v, brute force %v; m=%v", iter, ok, want != nil, m)
		}
		if ok && !slices.Equal(got, want) {
			t.Fatalf("iter %d: closure\n%v\nwant\n%v\nfrom %v", iter, got, want, m)
		}
	}
}

// TestClosureIdempotentAndPathsAgree: closing twice changes nothing, the
// fast and the checked Floyd–Warshall agree, and adding one constraint
// incrementally equals adding it and closing from scratch.
func TestClosureIdempotentAndPathsAgree(t *testing.T) {
	r := newRand(52)
	for iter := range 6000 {
		n := 1 + r.IntN(6)
		N := 2 * n
		m := randRawDBM(r, n, r.IntN(3*n+1), r.IntN(4) != 0)
		fast := slices.Clone(m)
		okFast := tightClose(fast, N)
		checked := slices.Clone(m)
		okChecked := floydWarshallChecked(checked, N) && tightenStrengthen(checked, N)
		if okFast != okChecked || (okFast && !slices.Equal(fast, checked)) {
			t.Fatalf("iter %d: fast and checked closures differ", iter)
		}
		if !okFast {
			continue
		}
		again := slices.Clone(fast)
		if !tightClose(again, N) || !slices.Equal(again, fast) {
			t.Fatalf("iter %d: closure not idempotent", iter)
		}
		k := randOctCons(r, n, 12)
		inc := slices.Clone(fast)
		okInc := addConstraintClosed(inc, N, k.a, k.b, k.c, nil)
		full := slices.Clone(fast)
		setCons(full, N, k)
		okFull := tightClose(full, N)
		if okInc != okFull || (okInc && !slices.Equal(inc, full)) {
			t.Fatalf("iter %d: incremental closure after %+v differs:\n%v\n%v", iter, k, inc, full)
		}
	}
}

// TestCloseVar: re-closing after changing one variable's constraints
// equals a full closure.
func TestCloseVar(t *testing.T) {
	r := newRand(53)
	for iter := range 4000 {
		n := 1 + r.IntN(6)
		N := 2 * n
		m := randRawDBM(r, n, r.IntN(3*n+1), true)
		if !tightClose(m, N) {
			continue
		}
		x := r.IntN(n)
		forgetIn(m, N, x)
		for range r.IntN(2 * n) { // constraints touching x
			k := randOctCons(r, n, 12)
			if r.IntN(2) == 0 {
				k.b = 2*x + r.IntN(2)
			} else {
				k.a = 2*x + r.IntN(2)
			}
			setCons(m, N, k)
		}
		inc, full := slices.Clone(m), slices.Clone(m)
		okInc, okFull := closeVar(inc, N, x), tightClose(full, N)
		if okInc != okFull || (okInc && !slices.Equal(inc, full)) {
			t.Fatalf("iter %d: closeVar differs from full closure (%v vs %v)\n%v\n%v\nfrom %v", iter, okInc, okFull, inc, full, m)
		}
	}
}

func mustCons(c LinCons, ok bool) LinCons {
	if !ok {
		panic("overflow")
	}
	return c
}

func plus(a LinExpr, c int64) LinExpr {
	e, _ := a.AddConst(c)
	return e
}

func diff(a, b LinExpr) LinExpr {
	e, _ := a.Sub(b)
	return e
}

// TestGoldenTextbook: x := y + 1 with y ≤ 10.
func TestGoldenTextbook(t *testing.T) {
	const x, y = 0, 1
	xMinusYIs1 := mustCons(Eq(diff(Var(x), Var(y)), Const(1)))
	xLe11 := mustCons(Le(Var(x), Const(11)))
	yLe10 := mustCons(Le(Var(y), Const(10)))

	// Assign then assume: only the octagon carries y ≤ 10 over to x.
	oct := Octagons.Top(2).Assign(x, plus(Var(y), 1)).Assume(yLe10)
	if !oct.Entails(xMinusYIs1) || !oct.Entails(xLe11) {
		t.Errorf("octagon: want x - y = 1 and x <= 11, got %s", oct.String(nil))
	}
	if b := oct.Bounds(Var(x)); !b.Equal(Interval{MinusInf, Finite(11)}) {
		t.Errorf("octagon: x in %v", b)
	}
	itv := Intervals.Top(2).Assign(x, plus(Var(y), 1)).Assume(yLe10)
	if itv.Entails(xLe11) || itv.Entails(xMinusYIs1) {
		t.Errorf("intervals cannot know x <= 11 here: %s", itv.String(nil))
	}

	// Assume then assign: intervals get x ≤ 11 but not x - y = 1.
	oct = Octagons.Top(2).Assume(yLe10).Assign(x, plus(Var(y), 1))
	itv = Intervals.Top(2).Assume(yLe10).Assign(x, plus(Var(y), 1))
	if !oct.Entails(xMinusYIs1) || !oct.Entails(xLe11) {
		t.Errorf("octagon: want x - y = 1 and x <= 11, got %s", oct.String(nil))
	}
	if !itv.Entails(xLe11) || itv.Entails(xMinusYIs1) {
		t.Errorf("intervals: want x <= 11 and not x - y = 1, got %s", itv.String(nil))
	}
	if got := oct.String(func(i int) string { return []string{"x", "y"}[i] }); got != "x + y <= 21, x - y = 1, x <= 11, y <= 10" {
		t.Errorf("octagon prints as %q", got)
	}
}

// TestGoldenLoop: i := 0; while (i < 10) i++ — widening with threshold
// 10 (or narrowing without it) gives i = 10 at exit.
func TestGoldenLoop(t *testing.T) {
	const i = 0
	lt10 := mustCons(Lt(Var(i), Const(10)))
	ge10, _ := lt10.Negate()
	for _, d := range []Domain{Intervals, Octagons} {
		for _, ts := range [][]int64{{10}, nil} {
			entry := d.Top(1).Assign(i, Const(0))
			head := entry
			body := func(h Value) Value { return h.Assume(lt10).Assign(i, plus(Var(i), 1)) }
			for range 10 {
				next := entry.Join(body(head))
				if next.Leq(head) {
					break
				}
				head = head.Widen(next, ts)
			}
			for range 2 { // narrowing
				head = head.Narrow(entry.Join(body(head)))
			}
			exit := head.Assume(ge10)
			if b := exit.Bounds(Var(i)); !b.Equal(Point(10)) {
				t.Errorf("%s thresholds %v: exit i in %v (head %s)", d.Name(), ts, b, head.String(nil))
			}
		}
	}
}

func TestGoldenOctagonReasoning(t *testing.T) {
	const x, y, z = 0, 1, 2
	le := func(a, b LinExpr) LinCons { return mustCons(Le(a, b)) }
	// Transitivity: x ≤ y, y ≤ z ⇒ x ≤ z.
	o := Octagons.Top(3).Assume(le(Var(x), Var(y))).Assume(le(Var(y), Var(z)))
	if !o.Entails(le(Var(x), Var(z))) {
		t.Errorf("transitivity lost: %s", o.String(nil))
	}
	// Tightening: x + y ≤ 3, x - y ≤ 0 ⇒ 2x ≤ 3 ⇒ x ≤ 1 on integers.
	sum, _ := Var(x).Add(Var(y))
	o = Octagons.Top(2).Assume(le(sum, Const(3))).Assume(le(Var(x), Var(y)))
	if b := o.Bounds(Var(x)); !b.Hi.Eq(Finite(1)) {
		t.Errorf("tightening: x in %v, want x <= 1", b)
	}
	// Integer emptiness only tightening finds: 2x = 1.
	o = Octagons.Top(2).Assume(le(sum, Const(1))).Assume(le(Const(1), sum)).Assume(mustCons(Eq(Var(x), Var(y))))
	if !o.IsBottom() {
		t.Errorf("x + y = 1, x = y has no integer solution: %s", o.String(nil))
	}
	// ≠ at the ends of the range.
	for _, d := range []Domain{Intervals, Octagons} {
		v := d.Top(1).AssignInterval(0, NewInterval(0, 5))
		if b := v.Assume(mustCons(Ne(Var(0), Const(5)))).Bounds(Var(0)); !b.Equal(NewInterval(0, 4)) {
			t.Errorf("%s: x != 5 gives %v", d.Name(), b)
		}
		if b := v.Assume(mustCons(Ne(Var(0), Const(3)))).Bounds(Var(0)); !b.Equal(NewInterval(0, 5)) {
			t.Errorf("%s: x != 3 gives %v", d.Name(), b)
		}
		if !v.AssignInterval(0, Point(2)).Assume(mustCons(Ne(Var(0), Const(2)))).IsBottom() {
			t.Errorf("%s: x = 2 and x != 2 is not bottom", d.Name())
		}
	}
	// Exact relational assignments.
	o = Octagons.Top(2).AssignInterval(y, NewInterval(0, 4)).Assign(x, LinExpr{Terms: []Term{{y, -1}}, Const: 3})
	if !o.Entails(mustCons(Eq(sum, Const(3)))) {
		t.Errorf("x := -y + 3: %s", o.String(nil))
	}
	o = o.Assign(x, plus(Var(x), 2)) // x + y = 5
	if !o.Entails(mustCons(Eq(sum, Const(5)))) {
		t.Errorf("x := x + 2: %s", o.String(nil))
	}
	o = o.Assign(x, LinExpr{Terms: []Term{{x, -1}}}) // y - x = 5
	if !o.Entails(mustCons(Eq(diff(Var(y), Var(x)), Const(5)))) {
		t.Errorf("x := -x: %s", o.String(nil))
	}
	// Linearized assignment keeps the relations it can: x := 2y + 1 with
	// y in [0, 4] gives x - y in [1, 5].
	o = Octagons.Top(2).AssignInterval(y, NewInterval(0, 4)).Assign(x, LinExpr{Terms: []Term{{y, 2}}, Const: 1})
	if b := o.Bounds(diff(Var(x), Var(y))); !b.Equal(NewInterval(1, 5)) {
		t.Errorf("x := 2y + 1: x - y in %v", b)
	}
}

func TestDomainsMisc(t *testing.T) {
	for _, name := range []string{"interval", "octagon"} {
		d, err := DomainByName(name)
		if err != nil || d.Name() != name {
			t.Errorf("DomainByName(%q) = %v, %v", name, d, err)
		}
		if !d.Top(3).IsTop() || d.Bottom(3).IsTop() || !d.Bottom(3).IsBottom() || d.Top(0).IsBottom() {
			t.Errorf("%s: top/bottom predicates", name)
		}
		if cs := d.Bottom(2).Constraints(); len(cs) != 1 || cs[0].Holds([]int64{0, 0}) {
			t.Errorf("%s: bottom constraints %v", name, cs)
		}
	}
	if _, err := DomainByName("polyhedra"); err == nil {
		t.Errorf("unknown domain accepted")
	}
	box := NewIntervalValue([]Interval{NewInterval(1, 2), {MinusInf, Finite(7)}})
	if o := OctagonFromBox(box); !o.Box().Equal(box) {
		t.Errorf("box round trip: %s", o.String(nil))
	}
	if _, ok := Var(0).Scale(1 << 62); !ok {
		t.Errorf("scale 2^62 should fit")
	}
	if _, ok := (LinExpr{Terms: []Term{{0, 1 << 62}}}).Scale(4); ok {
		t.Errorf("scale overflow not reported")
	}
	if _, ok := (LinExpr{Terms: []Term{{0, 1 << 62}, {0, 1 << 62}}}).Normalize(); ok {
		t.Errorf("normalize overflow not reported")
	}
	c := mustCons(Lt(Var(0), Const(3)))
	n, _ := c.Negate()
	if c.Holds([]int64{3}) || !n.Holds([]int64{3}) || !c.Holds([]int64{2}) || n.Holds([]int64{2}) {
		t.Errorf("Lt/Negate wrong: %s / %s", c.String(nil), n.String(nil))
	}
	// A constraint whose normalization overflows is ignored, not wrongly applied.
	big := LinCons{Expr: LinExpr{Terms: []Term{{0, 1 << 62}, {0, 1 << 62}}, Const: 1}, Op: LeZero}
	for _, d := range []Domain{Intervals, Octagons} {
		if v := d.Top(1).Assume(big); !v.IsTop() {
			t.Errorf("%s: overflowing constraint applied: %s", d.Name(), v.String(nil))
		}
	}
}

// TestConcat: Concat equals the AddDims/Project/Meet construction and
// keeps every part.
func TestConcat(t *testing.T) {
	r := newRand(61)
	for _, d := range []Domain{Intervals, Octagons} {
		for range 300 {
			var parts []Value
			var pts [][]point
			for range 1 + r.IntN(3) {
				v, p := randValue(r, d, 1+r.IntN(3), false)
				parts, pts = append(parts, v), append(pts, p)
			}
			got := Concat(d, parts...)
			acc := d.Top(0)
			for _, v := range parts {
				d0, k := acc.Dim(), v.Dim()
				keep := make([]int, d0+k)
				for j := range d0 {
					keep[j] = k + j
				}
				for j := range k {
					keep[d0+j] = j
				}
				acc = acc.AddDims(k).Meet(v.AddDims(d0).Project(keep))
			}
			if !got.Equal(acc) || got.Dim() != acc.Dim() {
				t.Fatalf("%s: Concat %s, want %s", d.Name(), got.String(nil), acc.String(nil))
			}
			off := 0
			for i, v := range parts {
				keep := make([]int, v.Dim())
				for j := range keep {
					keep[j] = off + j
				}
				off += v.Dim()
				if !v.IsBottom() && !got.IsBottom() && !got.Project(keep).Equal(v) {
					t.Fatalf("%s: part %d changed: %s vs %s", d.Name(), i, got.Project(keep).String(nil), v.String(nil))
				}
			}
			var cat point // one point of each part, side by side
			for _, p := range pts {
				if len(p) == 0 {
					cat = nil
					break
				}
				cat = append(cat, p[r.IntN(len(p))]...)
			}
			if cat != nil && !member(got, cat) {
				t.Fatalf("%s: Concat %s misses %v", d.Name(), got.String(nil), cat)
			}
		}
	}
}

// TestConcurrentUse: values are shared between goroutines; the lazily
// computed closure of an unclosed (widened) value must be race-free.
func TestConcurrentUse(t *testing.T) {
	a := Octagons.Top(3).AssignInterval(0, NewInterval(0, 1)).Assume(mustCons(Le(Var(1), Var(0))))
	b := a.Assign(0, plus(Var(0), 1))
	w := a.Widen(a.Join(b), nil) // unclosed
	want := w.Bounds(Var(1))
	w = a.Widen(a.Join(b), nil)
	done := make(chan Interval)
	for range 4 {
		go func() { done <- w.Bounds(Var(1)) }()
	}
	for range 4 {
		if got := <-done; !got.Equal(want) {
			t.Errorf("concurrent bounds %v, want %v", got, want)
		}
	}
}
