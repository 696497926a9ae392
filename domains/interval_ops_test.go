package domains

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// newRand returns a seeded generator: every property test is reproducible.
func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x5eed)) }

// randBoundVal returns a small value, sometimes one near the int64 limits.
func randBoundVal(r *rand.Rand) int64 {
	switch r.IntN(10) {
	case 0:
		return math.MaxInt64 - r.Int64N(4)
	case 1:
		return math.MinInt64 + r.Int64N(4)
	case 2:
		return int64(r.Uint64()) // anywhere in int64
	}
	return r.Int64N(81) - 40
}

// randInterval returns a non-empty interval, sometimes with infinite ends.
func randInterval(r *rand.Rand) Interval {
	a, b := randBoundVal(r), randBoundVal(r)
	if r.IntN(3) == 0 {
		b = a + r.Int64N(6) // often small
		if b < a {
			b = a
		}
	}
	if a > b {
		a, b = b, a
	}
	iv := NewInterval(a, b)
	switch r.IntN(8) {
	case 0:
		iv.Lo = MinusInf
	case 1:
		iv.Hi = PlusInf
	case 2:
		iv = TopInterval()
	}
	return iv
}

// sampleIn returns a value of a non-empty interval (ends included often).
func sampleIn(r *rand.Rand, iv Interval) int64 {
	lo, hi := int64(math.MinInt64), int64(math.MaxInt64)
	if iv.Lo.IsFinite() {
		lo = iv.Lo.V
	}
	if iv.Hi.IsFinite() {
		hi = iv.Hi.V
	}
	switch r.IntN(6) {
	case 0:
		return lo
	case 1:
		return hi
	case 2: // near zero when possible
		v := r.Int64N(11) - 5
		if v >= lo && v <= hi {
			return v
		}
	case 3: // near an end
		if d := r.Int64N(5); uint64(hi)-uint64(lo) >= uint64(d) {
			return lo + d
		}
	}
	span := uint64(hi) - uint64(lo)
	if span == math.MaxUint64 {
		return int64(r.Uint64())
	}
	return int64(uint64(lo) + r.Uint64N(span+1))
}

// inBig reports v ∈ iv for an exact value.
func inBig(iv Interval, v *big.Int) bool {
	if iv.IsEmpty() {
		return false
	}
	if iv.Lo.IsFinite() && v.Cmp(big.NewInt(iv.Lo.V)) < 0 {
		return false
	}
	if iv.Hi.IsFinite() && v.Cmp(big.NewInt(iv.Hi.V)) > 0 {
		return false
	}
	return true
}

type binOp struct {
	name     string
	abstract func(a, b Interval) Interval
	concrete func(x, y int64) (*big.Int, bool) // false: undefined, skip
}

func bigOf(v int64) *big.Int { return big.NewInt(v) }

var binOps = []binOp{
	{"Add", Interval.Add, func(x, y int64) (*big.Int, bool) { return new(big.Int).Add(bigOf(x), bigOf(y)), true }},
	{"Sub", Interval.Sub, func(x, y int64) (*big.Int, bool) { return new(big.Int).Sub(bigOf(x), bigOf(y)), true }},
	{"Mul", Interval.Mul, func(x, y int64) (*big.Int, bool) { return new(big.Int).Mul(bigOf(x), bigOf(y)), true }},
	{"Div", Interval.Div, func(x, y int64) (*big.Int, bool) {
		if y == 0 {
			return nil, false
		}
		return new(big.Int).Quo(bigOf(x), bigOf(y)), true
	}},
	{"Rem", Interval.Rem, func(x, y int64) (*big.Int, bool) {
		if y == 0 {
			return nil, false
		}
		return new(big.Int).Rem(bigOf(x), bigOf(y)), true
	}},
	{"Shl", Interval.Shl, func(x, y int64) (*big.Int, bool) {
		if y < 0 || y > 63 {
			return nil, false
		}
		return new(big.Int).Lsh(bigOf(x), uint(y)), true
	}},
	{"Shr", Interval.Shr, func(x, y int64) (*big.Int, bool) {
		if y < 0 {
			return nil, false
		}
		return new(big.Int).Rsh(bigOf(x), uint(min(y, 200))), true
	}},
	{"And", Interval.And, func(x, y int64) (*big.Int, bool) { return new(big.Int).And(bigOf(x), bigOf(y)), true }},
	{"Or", Interval.Or, func(x, y int64) (*big.Int, bool) { return new(big.Int).Or(bigOf(x), bigOf(y)), true }},
	{"Xor", Interval.Xor, func(x, y int64) (*big.Int, bool) { return new(big.Int).Xor(bigOf(x), bigOf(y)), true }},
}

// TestIntervalOpsSound: for random intervals and random points inside
// them, the exact result lies in the abstract result.
func TestIntervalOpsSound(t *testing.T) {
	r := newRand(1)
	for _, op := range binOps {
		for range 4000 {
			a, b := randInterval(r), randInterval(r)
			if op.name == "Shl" || op.name == "Shr" {
				b = NewInterval(r.Int64N(70)-3, 0)
				b.Hi = Finite(b.Lo.V + r.Int64N(8))
			}
			res := op.abstract(a, b)
			for range 30 {
				x, y := sampleIn(r, a), sampleIn(r, b)
				want, ok := op.concrete(x, y)
				if !ok {
					continue
				}
				if !inBig(res, want) {
					t.Fatalf("%s(%v, %v) = %v does not contain %s(%d, %d) = %v", op.name, a, b, res, op.name, x, y, want)
				}
			}
		}
	}
}

func TestUnaryOpsSound(t *testing.T) {
	r := newRand(2)
	for range 5000 {
		a := randInterval(r)
		neg, not := a.Neg(), a.BitNot()
		for range 20 {
			x := sampleIn(r, a)
			if v := new(big.Int).Neg(bigOf(x)); !inBig(neg, v) {
				t.Fatalf("Neg(%v) = %v misses %v", a, neg, v)
			}
			if v := new(big.Int).Not(bigOf(x)); !inBig(not, v) {
				t.Fatalf("BitNot(%v) = %v misses %v", a, not, v)
			}
		}
	}
}

// TestIntervalOpsExact: on small finite operands, +, -, ·, / and the
// bitwise operators give the exact hull; %, << and >> do when the right
// operand is a constant.
func TestIntervalOpsExact(t *testing.T) {
	r := newRand(3)
	for _, op := range binOps {
		n := 800
		if op.name == "And" || op.name == "Or" || op.name == "Xor" {
			n = 4000
		}
		hullOps := map[string]bool{"Add": true, "Sub": true, "Mul": true, "Div": true, "And": true, "Or": true, "Xor": true}
		for range n {
			lo1, lo2 := r.Int64N(41)-20, r.Int64N(41)-20
			a := NewInterval(lo1, lo1+r.Int64N(7))
			b := NewInterval(lo2, lo2+r.Int64N(7))
			if op.name == "Shl" || op.name == "Shr" {
				b = NewInterval(r.Int64N(5), 0)
				b.Hi = Finite(b.Lo.V + r.Int64N(3))
			}
			if op.name == "Rem" || op.name == "Shl" || op.name == "Shr" { // exact by a constant
				b = Point(b.Lo.V)
			}
			if (!hullOps[op.name] && b.Lo.V != b.Hi.V) || r.IntN(4) == 0 {
				a, b = Point(a.Lo.V), Point(b.Lo.V)
			}
			var lo, hi *big.Int
			for x := a.Lo.V; x <= a.Hi.V; x++ {
				for y := b.Lo.V; y <= b.Hi.V; y++ {
					v, ok := op.concrete(x, y)
					if !ok {
						continue
					}
					if lo == nil || v.Cmp(lo) < 0 {
						lo = v
					}
					if hi == nil || v.Cmp(hi) > 0 {
						hi = v
					}
				}
			}
			res := op.abstract(a, b)
			if lo == nil {
				if !res.IsEmpty() {
					t.Fatalf("%s(%v, %v) = %v, want empty", op.name, a, b, res)
				}
				continue
			}
			want := NewInterval(lo.Int64(), hi.Int64())
			if !res.Equal(want) {
				t.Fatalf("%s(%v, %v) = %v, want exact %v", op.name, a, b, res, want)
			}
		}
	}
}

func TestIntervalOpsPrecision(t *testing.T) {
	cases := []struct {
		got, want Interval
	}{
		{NewInterval(0, 1000).And(Point(0xff)), NewInterval(0, 255)},
		{TopInterval().And(Point(7)), NewInterval(0, 7)},
		{NewInterval(-5, 20).Rem(Point(7)), NewInterval(-5, 6)},
		{NewInterval(10, 12).Rem(Point(7)), NewInterval(3, 5)},
		{NewInterval(0, 100).Div(NewInterval(0, 4)), NewInterval(0, 100)},
		{NewInterval(1, 3).Div(Point(0)), EmptyInterval()},
		{NewInterval(1, 3).Shl(Point(2)), NewInterval(4, 12)},
		{NewInterval(-8, 8).Shr(Point(2)), NewInterval(-2, 2)},
		{NewInterval(0, 5).Or(NewInterval(0, 8)), NewInterval(0, 13)},
		{NewInterval(0, 100).Or(Point(1)), NewInterval(1, 101)},
		{NewInterval(4, 5).And(Point(6)), Point(4)},
		{NewInterval(-3, 2).Xor(Point(-1)), NewInterval(-3, 2)},
		{Interval{Finite(0), PlusInf}.Or(Point(1)), Interval{Finite(1), PlusInf}},
		{Point(math.MinInt64).Div(Point(-1)), Interval{Finite(math.MaxInt64), PlusInf}},
		{Point(math.MaxInt64).Add(Point(1)), Interval{Finite(math.MaxInt64), PlusInf}},
		{Point(math.MinInt64).Neg(), Interval{Finite(math.MaxInt64), PlusInf}},
		{Point(math.MinInt64).Rem(Point(-1)), Point(0)},
	}
	for i, c := range cases {
		if !c.got.Equal(c.want) {
			t.Errorf("case %d: got %v, want %v", i, c.got, c.want)
		}
	}
}

func TestLatticeOfIntervals(t *testing.T) {
	r := newRand(4)
	for range 5000 {
		a, b := randInterval(r), randInterval(r)
		j, m := a.Join(b), a.Meet(b)
		if !j.Includes(a) || !j.Includes(b) {
			t.Fatalf("join %v of %v %v not an upper bound", j, a, b)
		}
		if !a.Includes(m) || !b.Includes(m) {
			t.Fatalf("meet %v of %v %v not a lower bound", m, a, b)
		}
		x := sampleIn(r, a)
		if b.Contains(x) != m.Contains(x) {
			t.Fatalf("meet %v of %v %v wrong at %d", m, a, b, x)
		}
	}
}

// wrapBig reduces v into the type's range.
func wrapBig(v *big.Int, bits int, signed bool) *big.Int {
	mod := new(big.Int).Lsh(big.NewInt(1), uint(bits))
	w := new(big.Int).Mod(v, mod) // in [0, 2^bits)
	if signed && w.Cmp(new(big.Int).Rsh(mod, 1)) >= 0 {
		w.Sub(w, mod)
	}
	return w
}

func TestWrapSound(t *testing.T) {
	r := newRand(5)
	widths := []int{1, 3, 8, 16, 32, 63, 64}
	for range 20000 {
		iv := randInterval(r)
		if r.IntN(3) == 0 {
			c := r.Int64N(600) - 300
			iv = NewInterval(c, c+r.Int64N(300))
		}
		bits, signed := widths[r.IntN(len(widths))], r.IntN(2) == 0
		w := Wrap(iv, bits, signed)
		if !TypeRange(bits, signed).Includes(w) {
			t.Fatalf("Wrap(%v, %d, %v) = %v outside the type range", iv, bits, signed, w)
		}
		if Fits(iv, bits, signed) && !w.Equal(iv) {
			t.Fatalf("Wrap(%v, %d, %v) = %v, want it unchanged", iv, bits, signed, w)
		}
		for range 20 {
			x := sampleIn(r, iv)
			want := wrapBig(bigOf(x), bits, signed)
			if !inBig(w, want) {
				t.Fatalf("Wrap(%v, %d, %v) = %v misses %d -> %v", iv, bits, signed, w, x, want)
			}
		}
	}
}

func TestTypeRangeAndWrapCases(t *testing.T) {
	if got := TypeRange(8, true); !got.Equal(NewInterval(-128, 127)) {
		t.Errorf("int8 range %v", got)
	}
	if got := TypeRange(32, false); !got.Equal(NewInterval(0, 1<<32-1)) {
		t.Errorf("uint32 range %v", got)
	}
	if got := TypeRange(64, false); !got.Equal(Interval{Finite(0), PlusInf}) {
		t.Errorf("uint64 range %v", got)
	}
	if Fits(Interval{Finite(0), PlusInf}, 64, false) {
		t.Errorf("[0, +oo] must not fit uint64")
	}
	if got := Wrap(NewInterval(250, 260), 8, false); !got.Equal(TypeRange(8, false)) {
		t.Errorf("wrap straddling 256: %v", got)
	}
	if got := Wrap(NewInterval(256, 260), 8, false); !got.Equal(NewInterval(0, 4)) {
		t.Errorf("wrap 256..260 to uint8: %v", got)
	}
	if got := Wrap(NewInterval(128, 130), 8, true); !got.Equal(NewInterval(-128, -126)) {
		t.Errorf("wrap 128..130 to int8: %v", got)
	}
	if got := Wrap(Point(-1), 32, false); !got.Equal(Point(1<<32 - 1)) {
		t.Errorf("wrap -1 to uint32: %v", got)
	}
}

func TestBoundArithmetic(t *testing.T) {
	r := newRand(6)
	clampBig := func(v *big.Int) Bound {
		switch {
		case v.Cmp(bigOf(math.MaxInt64)) > 0:
			return PlusInf
		case v.Cmp(bigOf(math.MinInt64)) < 0:
			return MinusInf
		}
		return Finite(v.Int64())
	}
	for range 20000 {
		a, b := randBoundVal(r), randBoundVal(r)
		A, B := Finite(a), Finite(b)
		if got, want := A.Add(B), clampBig(new(big.Int).Add(bigOf(a), bigOf(b))); !got.Eq(want) {
			t.Fatalf("%d + %d = %v want %v", a, b, got, want)
		}
		if got, want := A.Sub(B), clampBig(new(big.Int).Sub(bigOf(a), bigOf(b))); !got.Eq(want) {
			t.Fatalf("%d - %d = %v want %v", a, b, got, want)
		}
		if got, want := A.Mul(B), clampBig(new(big.Int).Mul(bigOf(a), bigOf(b))); !got.Eq(want) {
			t.Fatalf("%d * %d = %v want %v", a, b, got, want)
		}
		if got, want := A.Cmp(B), bigOf(a).Cmp(bigOf(b)); got != want {
			t.Fatalf("cmp %d %d", a, b)
		}
	}
	if !PlusInf.Mul(Finite(0)).Eq(Finite(0)) || !MinusInf.Mul(Finite(-3)).Eq(PlusInf) {
		t.Errorf("infinite products")
	}
	if !MinusInf.Less(Finite(math.MinInt64)) || !Finite(math.MaxInt64).Less(PlusInf) {
		t.Errorf("infinity ordering")
	}
}

// TestBitwiseExactWide: the bitwise bounds are the exact hull on wider
// operands of both signs too.
func TestBitwiseExactWide(t *testing.T) {
	r := newRand(7)
	for _, op := range binOps[7:] { // And, Or, Xor
		for range 150 {
			lo1, lo2 := r.Int64N(1201)-600, r.Int64N(1201)-600
			a, b := NewInterval(lo1, lo1+r.Int64N(150)), NewInterval(lo2, lo2+r.Int64N(150))
			var lo, hi int64
			first := true
			for x := a.Lo.V; x <= a.Hi.V; x++ {
				for y := b.Lo.V; y <= b.Hi.V; y++ {
					v, _ := op.concrete(x, y)
					if w := v.Int64(); first || w < lo || w > hi {
						if first || w < lo {
							lo = w
						}
						if first || w > hi {
							hi = w
						}
						first = false
					}
				}
			}
			if got := op.abstract(a, b); !got.Equal(NewInterval(lo, hi)) {
				t.Fatalf("%s(%v, %v) = %v, want [%d, %d]", op.name, a, b, got, lo, hi)
			}
		}
	}
}

// JoinBoxes is Join, and returns its first argument itself when the
// second is below it (the solver relies on both).
func TestJoinBoxes(t *testing.T) {
	ivs := []Interval{NewInterval(0, 0), NewInterval(-3, 5), TopInterval(), {Lo: MinusInf, Hi: Finite(2)}, NewInterval(1, 9)}
	for _, a0 := range ivs {
		for _, a1 := range ivs {
			for _, b0 := range ivs {
				for _, b1 := range ivs {
					a := NewIntervalValue([]Interval{a0, a1})
					b := NewIntervalValue([]Interval{b0, b1})
					got := JoinBoxes(a, b)
					if want := a.Join(b); !got.Equal(want) {
						t.Fatalf("JoinBoxes(%v, %v) = %v, want %v", a, b, got, want)
					}
					if b.Leq(a) && got != a {
						t.Fatalf("JoinBoxes(%v, %v) allocated though the second is below", a, b)
					}
				}
			}
		}
	}
	bot := Intervals.Bottom(2).(*IntervalValue)
	a := NewIntervalValue([]Interval{ivs[0], ivs[1]})
	if JoinBoxes(a, bot) != a || JoinBoxes(bot, a) != a {
		t.Fatal("⊥ is not the unit of JoinBoxes")
	}
}
