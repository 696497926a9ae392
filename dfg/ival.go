package dfg

// The solver's names for the interval operations of package domains
// (domains.Interval: the one implementation of interval arithmetic, with
// its rounding: a bound that overflows int64 saturates to the infinity of
// its sign, and a lower bound above MaxInt64 or an upper bound below
// MinInt64 is clamped to the nearest finite value, so an overflow never
// makes an interval empty). What is the solver's own is how it reads the
// IR: a type's range (typeRange, wrapIv), shift amounts outside [0, 63]
// (undefined in C: not taken, ivShift), and the operators of cfg
// (ivBitwise).

import (
	"chorus/cfg"
	"chorus/domains"
)

var (
	posInf = domains.PlusInf
	topIv  = domains.TopInterval()
	botIv  = domains.EmptyInterval()
)

func fin(v int64) domains.Bound { return domains.Finite(v) }

func point(v int64) domains.Interval { return domains.Point(v) }

func mkIv(lo, hi int64) domains.Interval { return domains.NewInterval(lo, hi) }

// cmpB compares bounds: -1, 0, +1.
func cmpB(a, b domains.Bound) int { return a.Cmp(b) }

func ivEmpty(i domains.Interval) bool { return i.IsEmpty() }

func ivJoin(a, b domains.Interval) domains.Interval { return a.Join(b) }

func ivMeet(a, b domains.Interval) domains.Interval { return a.Meet(b) }

// ivSubset reports a ⊆ b.
func ivSubset(a, b domains.Interval) bool { return b.Includes(a) }

func ivIsPoint(a domains.Interval) (int64, bool) { return a.Singleton() }

func ivContains(a domains.Interval, v int64) bool { return a.Contains(v) }

func ivAdd(a, b domains.Interval) domains.Interval { return a.Add(b) }

func ivNeg(a domains.Interval) domains.Interval { return a.Neg() }

func ivMul(a, b domains.Interval) domains.Interval { return a.Mul(b) }

// ivDiv is C division (truncation toward zero); values of b equal to 0
// are excluded (division by zero is a check of its own: the program stops
// there).
func ivDiv(a, b domains.Interval) domains.Interval { return a.Div(b) }

// ivRem is C remainder (the sign of the dividend); 0 is excluded from b
// as for ivDiv.
func ivRem(a, b domains.Interval) domains.Interval { return a.Rem(b) }

// typeRange is the set of values of t (⊤ for MathInt, pointers, floats).
// The upper end of a 64-bit unsigned type is +∞ (2^64-1 is not an int64).
func typeRange(t cfg.Type) domains.Interval {
	if t.Kind != cfg.IntType || t.Bits == 0 {
		return topIv
	}
	return domains.TypeRange(t.Bits, t.Signed)
}

// fitsType reports whether every value of b is one of integer type t's,
// so that a result in b needs no wrapping. It is domains.Fits: a 64-bit
// unsigned type's range is [0, +∞] here (values past MaxInt64 have no
// finite bound), and an upper bound of +∞ does not fit it — it may stand
// for 2^64 or more, which wraps. Testing b against that range with
// ivSubset instead kept `a + 1` unwrapped for a = ULLONG_MAX and proved
// a != 0 afterwards (fixture u64_wrap.c).
func fitsType(b domains.Interval, t cfg.Type) bool {
	return domains.Fits(b, t.Bits, t.Signed)
}

// wrapIv maps the mathematical values in iv to t by two's-complement
// wrapping (domains.Wrap: exact when iv fits t or lies within one period
// of t's range, else t's whole range). MathInt (Bits 0) does not wrap;
// non-integer types give ⊤.
func wrapIv(iv domains.Interval, t cfg.Type) domains.Interval {
	if iv.IsEmpty() {
		return botIv
	}
	if t.Kind != cfg.IntType {
		return topIv
	}
	if t.Bits == 0 {
		return iv
	}
	return domains.Wrap(iv, t.Bits, t.Signed)
}

// ivBitwise is &, | or ^ over the mathematical integers (the caller wraps
// to the result type).
func ivBitwise(op cfg.BinOp, a, b domains.Interval) domains.Interval {
	switch op {
	case cfg.And:
		return a.And(b)
	case cfg.Or:
		return a.Or(b)
	case cfg.Xor:
		return a.Xor(b)
	}
	return topIv
}

// ivShift is << or >> for the shift amounts in [0, 63]; the others are
// undefined in C and not taken (if b holds none, ⊤; the caller wraps).
func ivShift(op cfg.BinOp, a, b domains.Interval) domains.Interval {
	if a.IsEmpty() || b.IsEmpty() {
		return botIv
	}
	b = b.Meet(mkIv(0, 63))
	if b.IsEmpty() {
		return topIv
	}
	if op == cfg.Shl {
		return a.Shl(b)
	}
	return a.Shr(b)
}
