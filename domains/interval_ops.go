package domains

import (
	"math"
	"math/bits"
)

// Interval arithmetic over the mathematical integers (C semantics for /, %,
// <<, >> and the bitwise operators on two's-complement integers of
// unbounded width). Every operation is sound for every pair of inputs: the
// result contains op(a, b) for all a, b in the operands. Results are exact
// hulls for +, -, unary -, ~, ·, /, for the bitwise operators on finite
// operands, and for %, << and >> by a constant; infinite operands of bitwise
// operators use sign and bit-width reasoning. Machine wrap-around is applied separately
// by Wrap. An empty operand gives an empty result.

// NewInterval returns [lo, hi].
func NewInterval(lo, hi int64) Interval { return Interval{Finite(lo), Finite(hi)} }

// Point returns [v, v].
func Point(v int64) Interval { return Interval{Finite(v), Finite(v)} }

// TopInterval returns [-∞, +∞].
func TopInterval() Interval { return Interval{MinusInf, PlusInf} }

// EmptyInterval returns the canonical empty interval [+∞, -∞].
func EmptyInterval() Interval { return Interval{PlusInf, MinusInf} }

// IsEmpty reports whether the interval has no element.
func (iv Interval) IsEmpty() bool {
	return iv.Hi.Less(iv.Lo) || iv.Lo.IsPlusInf() || iv.Hi.IsMinusInf()
}

// IsTop reports whether iv is [-∞, +∞].
func (iv Interval) IsTop() bool { return iv.Lo.IsMinusInf() && iv.Hi.IsPlusInf() }

// Contains reports whether v ∈ iv.
func (iv Interval) Contains(v int64) bool {
	return !iv.IsEmpty() && iv.Lo.Cmp(Finite(v)) <= 0 && Finite(v).Cmp(iv.Hi) <= 0
}

// Includes reports whether o ⊆ iv.
func (iv Interval) Includes(o Interval) bool {
	if o.IsEmpty() {
		return true
	}
	return !iv.IsEmpty() && iv.Lo.Cmp(o.Lo) <= 0 && o.Hi.Cmp(iv.Hi) <= 0
}

// Equal compares intervals (all empty intervals are equal).
func (iv Interval) Equal(o Interval) bool {
	if iv.IsEmpty() || o.IsEmpty() {
		return iv.IsEmpty() && o.IsEmpty()
	}
	return iv.Lo.Eq(o.Lo) && iv.Hi.Eq(o.Hi)
}

// Singleton returns v when iv = [v, v].
func (iv Interval) Singleton() (int64, bool) {
	if iv.Lo.IsFinite() && iv.Hi.IsFinite() && iv.Lo.V == iv.Hi.V {
		return iv.Lo.V, true
	}
	return 0, false
}

// Join is the convex hull.
func (iv Interval) Join(o Interval) Interval {
	if iv.IsEmpty() {
		return o
	}
	if o.IsEmpty() {
		return iv
	}
	return Interval{iv.Lo.Min(o.Lo), iv.Hi.Max(o.Hi)}
}

// Meet is the intersection.
func (iv Interval) Meet(o Interval) Interval {
	r := Interval{iv.Lo.Max(o.Lo), iv.Hi.Min(o.Hi)}
	if r.IsEmpty() {
		return EmptyInterval()
	}
	return r
}

// String prints [lo, hi] or "empty".
func (iv Interval) String() string {
	if iv.IsEmpty() {
		return "empty"
	}
	return "[" + iv.Lo.String() + ", " + iv.Hi.String() + "]"
}

// mk builds an interval from computed bounds, clamping overflowed ends.
func mk(lo, hi Bound) Interval {
	r := Interval{clampLo(lo), clampHi(hi)}
	if r.IsEmpty() {
		return EmptyInterval()
	}
	return r
}

// Neg returns -iv.
func (iv Interval) Neg() Interval {
	if iv.IsEmpty() {
		return EmptyInterval()
	}
	return mk(iv.Hi.Neg(), iv.Lo.Neg())
}

// Add returns iv + o.
func (iv Interval) Add(o Interval) Interval {
	if iv.IsEmpty() || o.IsEmpty() {
		return EmptyInterval()
	}
	return mk(iv.Lo.Add(o.Lo), iv.Hi.Add(o.Hi))
}

// Sub returns iv - o.
func (iv Interval) Sub(o Interval) Interval {
	if iv.IsEmpty() || o.IsEmpty() {
		return EmptyInterval()
	}
	return mk(iv.Lo.Sub(o.Hi), iv.Hi.Sub(o.Lo))
}

// Mul returns iv · o (hull of the four corner products).
func (iv Interval) Mul(o Interval) Interval {
	if iv.IsEmpty() || o.IsEmpty() {
		return EmptyInterval()
	}
	a, b, c, d := iv.Lo.Mul(o.Lo), iv.Lo.Mul(o.Hi), iv.Hi.Mul(o.Lo), iv.Hi.Mul(o.Hi)
	return mk(a.Min(b).Min(c).Min(d), a.Max(b).Max(c).Max(d))
}

// Scale returns k · iv.
func (iv Interval) Scale(k int64) Interval { return iv.Mul(Point(k)) }

// splitNonZero returns the negative and positive parts of a divisor.
func splitNonZero(o Interval) (neg, pos Interval) {
	neg = o.Meet(Interval{MinusInf, Finite(-1)})
	pos = o.Meet(Interval{Finite(1), PlusInf})
	return
}

// Div returns iv / o with C truncation toward zero. Division by zero is
// undefined behaviour in C and a check site of its own (the program stops
// there), so 0 is excluded from the divisor: o = [0, 0] gives an empty
// result. MinInt64 / -1 = 2^63 saturates to +∞.
func (iv Interval) Div(o Interval) Interval {
	if iv.IsEmpty() || o.IsEmpty() {
		return EmptyInterval()
	}
	neg, pos := splitNonZero(o)
	r := EmptyInterval()
	for _, d := range [2]Interval{neg, pos} {
		if d.IsEmpty() {
			continue
		}
		// trunc(x/y) is monotone in x for a fixed y and in y for a fixed
		// x on a sign-constant divisor, so its extremes over a box lie at
		// the corners (limits at infinite corners).
		a, b := divTruncBound(iv.Lo, d.Lo), divTruncBound(iv.Lo, d.Hi)
		c, e := divTruncBound(iv.Hi, d.Lo), divTruncBound(iv.Hi, d.Hi)
		r = r.Join(mk(a.Min(b).Min(c).Min(e), a.Max(b).Max(c).Max(e)))
	}
	return r
}

// divTruncBound is the limit of trunc(x/y) at a corner (y ≠ 0 side).
func divTruncBound(x, y Bound) Bound {
	if y.Inf != 0 {
		return Finite(0) // |x/y| → 0 (x/∞ with x infinite: see Div)
	}
	if x.Inf != 0 {
		return infOfSign(x.sign() * y.sign())
	}
	if y.V == -1 && x.V == math.MinInt64 {
		return PlusInf
	}
	return Finite(x.V / y.V)
}

// Rem returns iv % o with C sign rules: the result has the sign of the
// dividend and |r| < |divisor|, |r| ≤ |dividend|. A zero divisor is
// excluded as for Div. Exact (the hull) when o is a constant: the range
// either keeps one quotient (then r = x - q·k) or crosses a multiple of
// k and then reaches the limits ±(|k|-1) on each sign of iv.
func (iv Interval) Rem(o Interval) Interval {
	if iv.IsEmpty() || o.IsEmpty() {
		return EmptyInterval()
	}
	neg, pos := splitNonZero(o)
	if neg.IsEmpty() && pos.IsEmpty() {
		return EmptyInterval()
	}
	if k, ok := o.Singleton(); ok {
		if k == 1 || k == -1 {
			return Point(0)
		}
		if iv.Lo.IsFinite() && iv.Hi.IsFinite() {
			ql, qh := iv.Lo.V/k, iv.Hi.V/k
			if ql == qh { // r = x - q·k on all of iv
				return NewInterval(iv.Lo.V-ql*k, iv.Hi.V-ql*k)
			}
		}
	}
	// M = largest |divisor|; |r| ≤ M-1.
	m := o.Lo.Neg().Max(o.Hi).Max(o.Lo).Max(o.Hi.Neg())
	lim := m.Sub(Finite(1)) // M ≥ 1 here
	lo, hi := iv.Lo.Max(lim.Neg()), iv.Hi.Min(lim)
	if iv.Lo.Cmp(Finite(0)) >= 0 {
		lo = Finite(0)
	}
	if iv.Hi.Cmp(Finite(0)) <= 0 {
		hi = Finite(0)
	}
	return mk(lo, hi)
}

// Shl returns iv << o = iv · 2^o. Shift amounts outside [0, 63] are
// undefined in C for every integer type: if o may hold one, the result is
// [-∞, +∞].
func (iv Interval) Shl(o Interval) Interval {
	if iv.IsEmpty() || o.IsEmpty() {
		return EmptyInterval()
	}
	if o.Lo.Cmp(Finite(0)) < 0 || o.Hi.Cmp(Finite(63)) > 0 {
		return TopInterval()
	}
	// x·2^s is monotone in x for fixed s and in s for fixed-sign x.
	a, b := shlBound(iv.Lo, o.Lo.V), shlBound(iv.Lo, o.Hi.V)
	c, d := shlBound(iv.Hi, o.Lo.V), shlBound(iv.Hi, o.Hi.V)
	return mk(a.Min(b).Min(c).Min(d), a.Max(b).Max(c).Max(d))
}

func shlBound(x Bound, s int64) Bound {
	if x.Inf != 0 || x.V == 0 {
		return x
	}
	r := x.V << uint(s)
	if r>>uint(s) != x.V {
		return infOfSign(x.sign())
	}
	return Finite(r)
}

// Shr returns iv >> o = ⌊iv / 2^o⌋ (arithmetic shift, what every C
// compiler we target does on negative signed values; unsigned values are
// non-negative so it agrees with the logical shift). Negative shift
// amounts give [-∞, +∞]; amounts above 63 act as 63, which is what
// ⌊x/2^s⌋ gives for every int64 x.
func (iv Interval) Shr(o Interval) Interval {
	if iv.IsEmpty() || o.IsEmpty() {
		return EmptyInterval()
	}
	if o.Lo.Cmp(Finite(0)) < 0 {
		return TopInterval()
	}
	slo, shi := int64(63), int64(63)
	if o.Lo.IsFinite() && o.Lo.V < 63 {
		slo = o.Lo.V
	}
	if o.Hi.IsFinite() && o.Hi.V < 63 {
		shi = o.Hi.V
	}
	a, b := shrBound(iv.Lo, slo), shrBound(iv.Lo, shi)
	c, d := shrBound(iv.Hi, slo), shrBound(iv.Hi, shi)
	return mk(a.Min(b).Min(c).Min(d), a.Max(b).Max(c).Max(d))
}

func shrBound(x Bound, s int64) Bound {
	if x.Inf != 0 {
		return x
	}
	return Finite(x.V >> uint(s))
}

// BitNot returns ~iv = -iv - 1.
func (iv Interval) BitNot() Interval {
	if iv.IsEmpty() {
		return EmptyInterval()
	}
	return mk(notBound(iv.Hi), notBound(iv.Lo))
}

func notBound(b Bound) Bound {
	if b.Inf != 0 {
		return Bound{Inf: -sgn8(b.Inf)}
	}
	return Finite(^b.V)
}

// onesAbove returns the least 2^k-1 ≥ b for b ≥ 0 (+∞ stays +∞).
func onesAbove(b Bound) Bound {
	if b.Inf != 0 {
		return b
	}
	return Finite(int64(uint64(1)<<uint(bits.Len64(uint64(b.V))) - 1))
}

// signParts splits iv into its negative and non-negative parts.
func signParts(iv Interval) (neg, nonneg Interval) {
	return iv.Meet(Interval{MinusInf, Finite(-1)}), iv.Meet(Interval{Finite(0), PlusInf})
}

// bitwise applies a per-sign-part rule to all pairs of parts and joins.
// Within a part of constant sign, x is either in [0, 2^k-1] or in
// [-2^k, -1] for the k of its extreme bound; the rules below are the
// classic ones for those ranges (see And, Or, Xor).
//
// When both parts are finite, the exact bounds come from Warren's
// algorithms for unsigned operands (Hacker's Delight, §4-3), applied to
// the two's-complement bit patterns: a sign-constant part is a contiguous
// unsigned range and the result's sign is fixed by the parts' signs, so
// the unsigned bounds are the signed ones.
func bitwise(a, b Interval, exact func(x, y int64) int64, rule func(a, b Interval, an, bn bool) Interval,
	exactU func(a, b, c, d uint64) (lo, hi uint64)) Interval {
	if a.IsEmpty() || b.IsEmpty() {
		return EmptyInterval()
	}
	if x, ok := a.Singleton(); ok {
		if y, ok := b.Singleton(); ok {
			return Point(exact(x, y))
		}
	}
	an, ap := signParts(a)
	bn, bp := signParts(b)
	r := EmptyInterval()
	for _, pa := range [2]struct {
		iv  Interval
		neg bool
	}{{an, true}, {ap, false}} {
		for _, pb := range [2]struct {
			iv  Interval
			neg bool
		}{{bn, true}, {bp, false}} {
			if pa.iv.IsEmpty() || pb.iv.IsEmpty() {
				continue
			}
			x, y := pa.iv, pb.iv
			if x.Lo.IsFinite() && x.Hi.IsFinite() && y.Lo.IsFinite() && y.Hi.IsFinite() {
				lo, hi := exactU(uint64(x.Lo.V), uint64(x.Hi.V), uint64(y.Lo.V), uint64(y.Hi.V))
				r = r.Join(NewInterval(int64(lo), int64(hi)))
				continue
			}
			r = r.Join(rule(x, y, pa.neg, pb.neg))
		}
	}
	return r
}

// And returns iv & o. x&y ≤ x for x ≥ 0 (bits only cleared); for two
// negatives the result is negative, ≤ both, and keeps their common high
// ones so it is ≥ -2^k.
func (iv Interval) And(o Interval) Interval {
	return bitwise(iv, o, func(x, y int64) int64 { return x & y },
		func(a, b Interval, an, bn bool) Interval {
			switch {
			case !an && !bn:
				return mk(Finite(0), a.Hi.Min(b.Hi))
			case !an:
				return mk(Finite(0), a.Hi)
			case !bn:
				return mk(Finite(0), b.Hi)
			}
			return mk(notBound(onesAbove(notBound(a.Lo.Min(b.Lo)))), a.Hi.Min(b.Hi))
		}, andU)
}

// Or returns iv | o. x|y ≥ max(x, y) when both have the same sign; with a
// negative operand the result is negative and ≥ that operand.
func (iv Interval) Or(o Interval) Interval {
	return bitwise(iv, o, func(x, y int64) int64 { return x | y },
		func(a, b Interval, an, bn bool) Interval {
			switch {
			case !an && !bn:
				return mk(a.Lo.Max(b.Lo), onesAbove(a.Hi.Max(b.Hi)))
			case !an:
				return mk(b.Lo, Finite(-1))
			case !bn:
				return mk(a.Lo, Finite(-1))
			}
			return mk(a.Lo.Max(b.Lo), Finite(-1))
		}, orU)
}

// Xor returns iv ^ o, using x^y = ~x ^ ~y and ~(x ^ ~y) to reduce every
// sign combination to two non-negative operands below 2^k.
func (iv Interval) Xor(o Interval) Interval {
	return bitwise(iv, o, func(x, y int64) int64 { return x ^ y },
		func(a, b Interval, an, bn bool) Interval {
			switch {
			case !an && !bn:
				return mk(Finite(0), onesAbove(a.Hi.Max(b.Hi)))
			case an && bn:
				return mk(Finite(0), onesAbove(notBound(a.Lo).Max(notBound(b.Lo))))
			case an:
				a, b = b, a
			}
			// a ≥ 0, b < 0
			return mk(notBound(onesAbove(a.Hi.Max(notBound(b.Lo)))), Finite(-1))
		}, xorU)
}

// TypeRange is the range of a C integer type of the given width (1..64)
// and signedness. The range of a 64-bit unsigned type exceeds int64: it is
// represented as [0, +∞], which is sound (it contains the range) but
// loses the upper bound 2^64-1. Other widths give [-∞, +∞].
func TypeRange(bits int, signed bool) Interval {
	switch {
	case bits < 1 || bits > 64:
		return TopInterval()
	case signed:
		return Interval{Finite(math.MinInt64 >> uint(64-bits)), Finite(math.MaxInt64 >> uint(64-bits))}
	case bits == 64:
		return Interval{Finite(0), PlusInf}
	}
	return NewInterval(0, int64(uint64(1)<<uint(bits)-1))
}

// Fits reports whether every value of iv is representable in the type.
// For 64-bit unsigned types an upper bound of +∞ does not fit (it stands
// for values above MaxInt64, maybe above 2^64-1).
func Fits(iv Interval, bits int, signed bool) bool {
	if iv.IsEmpty() {
		return true
	}
	if bits < 1 || bits > 64 {
		return false
	}
	if !iv.Lo.IsFinite() || !iv.Hi.IsFinite() {
		return false
	}
	return TypeRange(bits, signed).Includes(iv)
}

// Wrap maps the mathematical values of iv to the values a C variable of
// the type holds after conversion (reduction modulo 2^bits into the
// type's range). Exact when iv fits; also exact when iv is finite,
// narrower than 2^bits and does not straddle a wrap point; otherwise the
// type's full range.
func Wrap(iv Interval, bits int, signed bool) Interval {
	if iv.IsEmpty() {
		return EmptyInterval()
	}
	if Fits(iv, bits, signed) {
		return iv
	}
	full := TypeRange(bits, signed)
	if bits == 64 && !signed && iv.Lo.IsFinite() && iv.Hi.IsFinite() && iv.Hi.V < 0 {
		// Negative values of one period (Lo ≥ MinInt64 holds for a finite
		// int64) wrap to [2^64+Lo, 2^64+Hi], all past MaxInt64: the
		// unbounded form [MaxInt64, +∞] that 64-bit unsigned values past
		// MaxInt64 take (size_t i = 0; i-- keeps i > 0).
		return Interval{Finite(math.MaxInt64), PlusInf}
	}
	if bits < 1 || bits >= 64 || !iv.Lo.IsFinite() || !iv.Hi.IsFinite() {
		return full
	}
	width := uint64(iv.Hi.V) - uint64(iv.Lo.V) // exact: Hi ≥ Lo
	if width >= uint64(1)<<uint(bits) {
		return full
	}
	lo, hi := wrapValue(iv.Lo.V, bits, signed), wrapValue(iv.Hi.V, bits, signed)
	if lo > hi {
		return full
	}
	return NewInterval(lo, hi)
}

// wrapValue reduces v modulo 2^bits into the type's range (bits < 64).
func wrapValue(v int64, bits int, signed bool) int64 {
	sh := uint(64 - bits)
	if signed {
		return int64(uint64(v)<<sh) >> sh
	}
	return int64(uint64(v) << sh >> sh)
}

const topBit = uint64(1) << 63

// orU returns the exact bounds of x|y for x in [a, b], y in [c, d]
// (unsigned; Hacker's Delight minOR/maxOR).
func orU(a, b, c, d uint64) (uint64, uint64) {
	lo, hi := a, c
	for m := topBit; m != 0; m >>= 1 {
		if ^lo&hi&m != 0 {
			if t := (lo | m) & -m; t <= b {
				lo = t
				break
			}
		} else if lo&^hi&m != 0 {
			if t := (hi | m) & -m; t <= d {
				hi = t
				break
			}
		}
	}
	minv := lo | hi
	b2, d2 := b, d
	for m := topBit; m != 0; m >>= 1 {
		if b2&d2&m != 0 {
			if t := (b2 - m) | (m - 1); t >= a {
				b2 = t
				break
			}
			if t := (d2 - m) | (m - 1); t >= c {
				d2 = t
				break
			}
		}
	}
	return minv, b2 | d2
}

// andU: exact bounds of x&y (Hacker's Delight minAND/maxAND).
func andU(a, b, c, d uint64) (uint64, uint64) {
	a2, c2 := a, c
	for m := topBit; m != 0; m >>= 1 {
		if ^a2&^c2&m != 0 {
			if t := (a2 | m) & -m; t <= b {
				a2 = t
				break
			}
			if t := (c2 | m) & -m; t <= d {
				c2 = t
				break
			}
		}
	}
	b2, d2 := b, d
	for m := topBit; m != 0; m >>= 1 {
		if b2&^d2&m != 0 {
			if t := (b2 &^ m) | (m - 1); t >= a {
				b2 = t
				break
			}
		} else if ^b2&d2&m != 0 {
			if t := (d2 &^ m) | (m - 1); t >= c {
				d2 = t
				break
			}
		}
	}
	return a2 & c2, b2 & d2
}

// xorU: exact bounds of x^y (Hacker's Delight minXOR/maxXOR).
func xorU(a, b, c, d uint64) (uint64, uint64) {
	a2, c2 := a, c
	for m := topBit; m != 0; m >>= 1 {
		if ^a2&c2&m != 0 {
			if t := (a2 | m) & -m; t <= b {
				a2 = t
			}
		} else if a2&^c2&m != 0 {
			if t := (c2 | m) & -m; t <= d {
				c2 = t
			}
		}
	}
	b2, d2 := b, d
	for m := topBit; m != 0; m >>= 1 {
		if b2&d2&m != 0 {
			if t := (b2 - m) | (m - 1); t >= a {
				b2 = t
			} else if t := (d2 - m) | (m - 1); t >= c {
				d2 = t
			}
		}
	}
	return a2 ^ c2, b2 ^ d2
}
