package domains

import "testing"

// TestIntervalNarrowFiniteBounds: narrowing refines +-inf bounds and
// finite ones the smaller operand improves (a threshold widening's bound),
// and never leaves the range between the operands (o ⊑ result ⊑ v).
func TestIntervalNarrowFiniteBounds(t *testing.T) {
	cases := []struct{ v, o, want Interval }{
		{NewInterval(0, 27), NewInterval(0, 26), NewInterval(0, 26)},
		{Interval{Finite(0), PlusInf}, NewInterval(0, 5), NewInterval(0, 5)},
		{Interval{MinusInf, Finite(9)}, NewInterval(-3, 9), NewInterval(-3, 9)},
		{NewInterval(-5, 5), NewInterval(-2, 5), NewInterval(-2, 5)},
		{NewInterval(0, 9), NewInterval(0, 9), NewInterval(0, 9)},
	}
	for _, c := range cases {
		v := NewIntervalValue([]Interval{c.v})
		o := NewIntervalValue([]Interval{c.o})
		got := v.Narrow(o).(*IntervalValue)
		if g := got.Get(0); g != c.want {
			t.Errorf("Narrow(%v, %v) = %v, want %v", c.v, c.o, g, c.want)
		}
		if !o.Leq(got) || !got.Leq(v) {
			t.Errorf("Narrow(%v, %v) = %v is not between the operands", c.v, c.o, got.Get(0))
		}
	}
}

// TestIntervalNarrowKeepsUnmoved: Narrow returns its receiver itself when
// no bound moves, and otherwise the box of the plain computation (zip,
// then the receiver's holes cut): the shortcut changes no result.
func TestIntervalNarrowKeepsUnmoved(t *testing.T) {
	r := newRand(41)
	kept := 0
	for iter := range 2000 {
		n := 1 + r.IntN(4)
		a, _ := randValue(r, Intervals, n, false)
		for range r.IntN(3) {
			a = a.Assume(ne(r.IntN(n), r.Int64N(7)-3))
		}
		v := a.(*IntervalValue)
		if v.bottom {
			continue
		}
		// o ⊑ v: v itself, or v met with a random constraint.
		o := v
		if r.IntN(2) == 0 {
			o = v.Assume(randCons(r, n, false)).(*IntervalValue)
		}
		if o.bottom {
			continue
		}
		got := v.Narrow(o).(*IntervalValue)
		want := v.zip(o, narrowInterval).normHoles(v.ne)
		if !got.Equal(want) || got.String(nil) != want.String(nil) {
			t.Fatalf("iter %d: Narrow(%s, %s) = %s, want %s", iter, v.String(nil), o.String(nil), got.String(nil), want.String(nil))
		}
		if got == v {
			kept++
		}
		if o == v && got != v {
			t.Fatalf("iter %d: Narrow(v, v) allocated a copy of %s", iter, v.String(nil))
		}
	}
	if kept == 0 {
		t.Fatal("no narrowing kept its receiver")
	}
}

// TestIntervalSliceShares: a Slice shares its parent's intervals; no
// operation on either changes the other, and the slice is the projection.
func TestIntervalSliceShares(t *testing.T) {
	r := newRand(43)
	for iter := range 400 {
		n := 2 + r.IntN(4)
		a, _ := randValue(r, Intervals, n, false)
		a = a.Assume(ne(r.IntN(n), r.Int64N(7)-3))
		v := a.(*IntervalValue)
		off := r.IntN(n)
		k := 1 + r.IntN(n-off)
		s := v.Slice(off, k)
		keep := make([]int, k)
		for i := range keep {
			keep[i] = off + i
		}
		if p := v.Project(keep); !s.Equal(p) {
			t.Fatalf("iter %d: Slice(%d, %d) of %s = %s, Project gives %s", iter, off, k, v.String(nil), s.String(nil), p.String(nil))
		}
		before, sBefore := v.String(nil), s.String(nil)
		x := r.IntN(k)
		var w Value = s
		for _, op := range []func(Value) Value{
			func(u Value) Value { return u.Assign(x, randExpr(r, k, false)) },
			func(u Value) Value { return u.Assume(randCons(r, k, false)) },
			func(u Value) Value { return u.Assume(eq(x, r.Int64N(7)-3)) },
			func(u Value) Value { return u.Assume(ne(x, r.Int64N(7)-3)) },
			func(u Value) Value { return u.AssignInterval(x, NewInterval(-1, 1)) },
			func(u Value) Value { return u.Narrow(u.Meet(s)) },
			func(u Value) Value { return u.Widen(u.Join(s), nil) },
			func(u Value) Value { return u.Forget(x) },
			func(u Value) Value { return Concat(Intervals, u, s).Project(keep[:0]).AddDims(k) },
		} {
			w = op(w)
			if w.IsBottom() {
				w = s
			}
			if a, b := v.String(nil), s.String(nil); a != before || b != sBefore {
				t.Fatalf("iter %d: an operation on a slice changed it or its parent: %s -> %s; %s -> %s", iter, before, a, sBefore, b)
			}
		}
	}
}
