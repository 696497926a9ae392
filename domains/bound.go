package domains

import (
	"math"
	"strconv"
)

// Bound arithmetic. Every operation is exact when the mathematical result
// is an int64 and saturates to the infinity of the result's sign when it is
// not. Saturation rounds *away from zero*; that is sound for an upper bound
// that overflows upwards and for a lower bound that overflows downwards.
// The two other cases (an upper bound below MinInt64, a lower bound above
// MaxInt64) cannot describe a non-empty interval of int64 values, but they
// can describe one of mathematical integers, so interval code clamps them
// back to the nearest finite value with clampLo/clampHi (rounding the lower
// bound down to MaxInt64 and the upper bound up to MinInt64): an interval
// is never made empty by an overflow.

// PlusInf and MinusInf are the infinite bounds.
var (
	PlusInf  = Bound{Inf: 1}
	MinusInf = Bound{Inf: -1}
)

// Finite returns the finite bound v.
func Finite(v int64) Bound { return Bound{V: v} }

// IsFinite reports whether b is an integer.
func (b Bound) IsFinite() bool { return b.Inf == 0 }

// IsPlusInf reports whether b is +∞.
func (b Bound) IsPlusInf() bool { return b.Inf > 0 }

// IsMinusInf reports whether b is -∞.
func (b Bound) IsMinusInf() bool { return b.Inf < 0 }

// Cmp compares bounds: -1, 0 or +1. Infinite bounds of one sign are equal
// whatever their V field holds.
func (b Bound) Cmp(o Bound) int {
	bi, oi := sgn8(b.Inf), sgn8(o.Inf)
	if bi != oi {
		if bi < oi {
			return -1
		}
		return 1
	}
	if bi != 0 || b.V == o.V {
		return 0
	}
	if b.V < o.V {
		return -1
	}
	return 1
}

// Eq reports b == o (infinite bounds compare by sign only).
func (b Bound) Eq(o Bound) bool { return b.Cmp(o) == 0 }

// Less reports b < o.
func (b Bound) Less(o Bound) bool { return b.Cmp(o) < 0 }

func sgn8(x int8) int8 {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// Min returns the smaller bound.
func (b Bound) Min(o Bound) Bound {
	if o.Cmp(b) < 0 {
		return o
	}
	return b
}

// Max returns the larger bound.
func (b Bound) Max(o Bound) Bound {
	if o.Cmp(b) > 0 {
		return o
	}
	return b
}

// Neg returns -b; -MinInt64 saturates to +∞.
func (b Bound) Neg() Bound {
	if b.Inf != 0 {
		return Bound{Inf: -sgn8(b.Inf)}
	}
	if b.V == math.MinInt64 {
		return PlusInf
	}
	return Finite(-b.V)
}

// Add returns b + o. (+∞) + (-∞) has no meaning; it returns +∞ and no code
// in this package asks for it (a lower bound is never +∞ and an upper
// bound never -∞ in a non-empty interval).
func (b Bound) Add(o Bound) Bound {
	if b.Inf != 0 || o.Inf != 0 {
		if b.Inf > 0 || o.Inf > 0 {
			return PlusInf
		}
		return MinusInf
	}
	s := b.V + o.V
	if (b.V >= 0) == (o.V >= 0) && (s >= 0) != (b.V >= 0) {
		if b.V >= 0 {
			return PlusInf
		}
		return MinusInf
	}
	return Finite(s)
}

// Sub returns b - o, exact whenever the difference is an int64.
func (b Bound) Sub(o Bound) Bound {
	switch {
	case b.Inf != 0 && sgn8(b.Inf) == sgn8(o.Inf):
		return PlusInf // ∞ - ∞: meaningless, as for Add
	case b.Inf != 0:
		return b
	case o.Inf != 0:
		return o.Neg()
	}
	s := b.V - o.V
	if (b.V^o.V)&(b.V^s) < 0 { // signed overflow
		if b.V >= 0 {
			return PlusInf
		}
		return MinusInf
	}
	return Finite(s)
}

// Mul returns b·o with 0·(±∞) = 0 (the convention of interval arithmetic:
// an infinite bound is never attained, so the product of the bounds is the
// limit of products of attained values).
func (b Bound) Mul(o Bound) Bound {
	sb, so := b.sign(), o.sign()
	if sb == 0 || so == 0 {
		return Finite(0)
	}
	if b.Inf != 0 || o.Inf != 0 {
		return infOfSign(sb * so)
	}
	p, ok := mul64(b.V, o.V)
	if !ok {
		return infOfSign(sb * so)
	}
	return Finite(p)
}

// sign is -1, 0 or +1.
func (b Bound) sign() int {
	switch {
	case b.Inf > 0:
		return 1
	case b.Inf < 0:
		return -1
	case b.V > 0:
		return 1
	case b.V < 0:
		return -1
	}
	return 0
}

func infOfSign(s int) Bound {
	if s > 0 {
		return PlusInf
	}
	return MinusInf
}

// String prints the bound; infinities as +oo and -oo.
func (b Bound) String() string {
	switch {
	case b.Inf > 0:
		return "+oo"
	case b.Inf < 0:
		return "-oo"
	}
	return strconv.FormatInt(b.V, 10)
}

// clampLo makes a computed lower bound usable: +∞ (an overflow above
// MaxInt64) becomes MaxInt64, a sound lower bound of any such value.
func clampLo(b Bound) Bound {
	if b.Inf > 0 {
		return Finite(math.MaxInt64)
	}
	return b
}

// clampHi is clampLo's mirror for upper bounds.
func clampHi(b Bound) Bound {
	if b.Inf < 0 {
		return Finite(math.MinInt64)
	}
	return b
}

// mul64 multiplies with overflow detection.
func mul64(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	p := a * b
	if (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64) || p/b != a {
		return 0, false
	}
	return p, true
}

// add64 adds with overflow detection.
func add64(a, b int64) (int64, bool) {
	s := a + b
	if (a >= 0) == (b >= 0) && (s >= 0) != (a >= 0) {
		return 0, false
	}
	return s, true
}

// floorDiv returns ⌊a/b⌋ for b ≠ 0; ok is false on MinInt64/-1.
func floorDiv(a, b int64) (int64, bool) {
	if b == -1 && a == math.MinInt64 {
		return 0, false
	}
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q, true
}

// ceilDiv returns ⌈a/b⌉ for b ≠ 0; ok is false on MinInt64/-1.
func ceilDiv(a, b int64) (int64, bool) {
	if b == -1 && a == math.MinInt64 {
		return 0, false
	}
	q := a / b
	if (a%b != 0) && ((a < 0) == (b < 0)) {
		q++
	}
	return q, true
}

// floorDivBound returns ⌊b/k⌋ for k > 0 (an upper bound stays one).
func floorDivBound(b Bound, k int64) Bound {
	if b.Inf != 0 {
		return b
	}
	q, _ := floorDiv(b.V, k) // k > 0: cannot overflow
	return Finite(q)
}
