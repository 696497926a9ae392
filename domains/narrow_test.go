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
