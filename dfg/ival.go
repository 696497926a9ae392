package dfg

// Interval arithmetic on domains.Interval, with the rounding a sound
// over-approximation needs: a lower bound that overflows int64 rounds down
// (to MaxInt64 if it overflowed upwards, to -∞ downwards), an upper bound
// rounds up. The domains package may grow equivalents; these are the
// solver's own minimal ones.

import (
	"math"
	"math/bits"

	"chorus/cfg"
	"chorus/domains"
)

var (
	negInf = domains.Bound{Inf: -1}
	posInf = domains.Bound{Inf: 1}
	topIv  = domains.Interval{Lo: negInf, Hi: posInf}
	botIv  = domains.Interval{Lo: posInf, Hi: negInf}
)

func fin(v int64) domains.Bound { return domains.Bound{V: v} }

func point(v int64) domains.Interval { return domains.Interval{Lo: fin(v), Hi: fin(v)} }

func mkIv(lo, hi int64) domains.Interval { return domains.Interval{Lo: fin(lo), Hi: fin(hi)} }

// cmpB compares bounds: -1, 0, +1.
func cmpB(a, b domains.Bound) int {
	if a.Inf != b.Inf {
		if a.Inf < b.Inf {
			return -1
		}
		return 1
	}
	if a.Inf != 0 || a.V == b.V {
		return 0
	}
	if a.V < b.V {
		return -1
	}
	return 1
}

func minB(a, b domains.Bound) domains.Bound {
	if cmpB(a, b) <= 0 {
		return a
	}
	return b
}

func maxB(a, b domains.Bound) domains.Bound {
	if cmpB(a, b) >= 0 {
		return a
	}
	return b
}

func ivEmpty(i domains.Interval) bool { return cmpB(i.Lo, i.Hi) > 0 }

func ivJoin(a, b domains.Interval) domains.Interval {
	if ivEmpty(a) {
		return b
	}
	if ivEmpty(b) {
		return a
	}
	return domains.Interval{Lo: minB(a.Lo, b.Lo), Hi: maxB(a.Hi, b.Hi)}
}

func ivMeet(a, b domains.Interval) domains.Interval {
	return domains.Interval{Lo: maxB(a.Lo, b.Lo), Hi: minB(a.Hi, b.Hi)}
}

// ivSubset reports a ⊆ b.
func ivSubset(a, b domains.Interval) bool {
	return ivEmpty(a) || (cmpB(b.Lo, a.Lo) <= 0 && cmpB(a.Hi, b.Hi) <= 0)
}

func ivIsPoint(a domains.Interval) (int64, bool) {
	if a.Lo.Inf == 0 && a.Hi.Inf == 0 && a.Lo.V == a.Hi.V {
		return a.Lo.V, true
	}
	return 0, false
}

func ivContains(a domains.Interval, v int64) bool { return ivSubset(point(v), a) }

// ext is an extended integer: finite, or an infinity / overflow direction.
type ext struct {
	inf int8
	v   int64
}

func extOf(b domains.Bound) ext { return ext{b.Inf, b.V} }

func extLess(a, b ext) bool {
	if a.inf != b.inf {
		return a.inf < b.inf
	}
	return a.inf == 0 && a.v < b.v
}

// lo/hi convert an extended value to a lower/upper bound, rounding so the
// bound stays sound.
func (e ext) lo() domains.Bound {
	if e.inf > 0 {
		return fin(math.MaxInt64)
	}
	return domains.Bound{Inf: e.inf, V: e.v}
}

func (e ext) hi() domains.Bound {
	if e.inf < 0 {
		return fin(math.MinInt64)
	}
	return domains.Bound{Inf: e.inf, V: e.v}
}

func extAdd(a, b ext) ext {
	if a.inf != 0 {
		return ext{inf: a.inf}
	}
	if b.inf != 0 {
		return ext{inf: b.inf}
	}
	s := a.v + b.v
	if (s > a.v) != (b.v > 0) {
		if b.v > 0 {
			return ext{inf: 1}
		}
		return ext{inf: -1}
	}
	return ext{v: s}
}

func extNeg(a ext) ext {
	if a.inf != 0 {
		return ext{inf: -a.inf}
	}
	if a.v == math.MinInt64 {
		return ext{inf: 1}
	}
	return ext{v: -a.v}
}

func sign(a ext) int {
	switch {
	case a.inf != 0:
		return int(a.inf)
	case a.v > 0:
		return 1
	case a.v < 0:
		return -1
	}
	return 0
}

func extMul(a, b ext) ext {
	sa, sb := sign(a), sign(b)
	if sa == 0 || sb == 0 {
		return ext{} // 0 · ∞ = 0 for interval bounds
	}
	if a.inf != 0 || b.inf != 0 {
		return ext{inf: int8(sa * sb)}
	}
	hi, lo := bits.Mul64(uint64(abs64(a.v)), uint64(abs64(b.v)))
	if hi != 0 || lo > math.MaxInt64 || a.v == math.MinInt64 || b.v == math.MinInt64 {
		return ext{inf: int8(sa * sb)}
	}
	return ext{v: a.v * b.v}
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

func ivAdd(a, b domains.Interval) domains.Interval {
	if ivEmpty(a) || ivEmpty(b) {
		return botIv
	}
	return domains.Interval{
		Lo: extAdd(extOf(a.Lo), extOf(b.Lo)).lo(),
		Hi: extAdd(extOf(a.Hi), extOf(b.Hi)).hi(),
	}
}

func ivNeg(a domains.Interval) domains.Interval {
	if ivEmpty(a) {
		return botIv
	}
	return domains.Interval{Lo: extNeg(extOf(a.Hi)).lo(), Hi: extNeg(extOf(a.Lo)).hi()}
}

func ivSub(a, b domains.Interval) domains.Interval { return ivAdd(a, ivNeg(b)) }

func ivMul(a, b domains.Interval) domains.Interval {
	if ivEmpty(a) || ivEmpty(b) {
		return botIv
	}
	c := [4]ext{
		extMul(extOf(a.Lo), extOf(b.Lo)), extMul(extOf(a.Lo), extOf(b.Hi)),
		extMul(extOf(a.Hi), extOf(b.Lo)), extMul(extOf(a.Hi), extOf(b.Hi)),
	}
	mn, mx := c[0], c[0]
	for _, x := range c[1:] {
		if extLess(x, mn) {
			mn = x
		}
		if extLess(mx, x) {
			mx = x
		}
	}
	return domains.Interval{Lo: mn.lo(), Hi: mx.hi()}
}

// maxAbs returns max |x| over a as an extended value.
func maxAbs(a domains.Interval) ext {
	l, h := extOf(a.Lo), extOf(a.Hi)
	nl := extNeg(l)
	if extLess(nl, h) {
		return h
	}
	return nl
}

// ivDiv is C division (truncation toward zero). Division by zero is a
// check of its own; values of b equal to 0 are excluded (the program
// stops there).
func ivDiv(a, b domains.Interval) domains.Interval {
	if ivEmpty(a) || ivEmpty(b) {
		return botIv
	}
	// |a / b| ≤ |a| whenever b ≠ 0.
	m := maxAbs(a)
	res := domains.Interval{Lo: extNeg(m).lo(), Hi: m.hi()}
	if cmpB(a.Lo, fin(0)) >= 0 {
		res.Lo = maxB(res.Lo, fin(math.MinInt64))
		if cmpB(b.Lo, fin(0)) > 0 {
			res.Lo = fin(0)
		}
	}
	// Exact corners when everything is finite and b does not straddle 0.
	if a.Lo.Inf == 0 && a.Hi.Inf == 0 && b.Lo.Inf == 0 && b.Hi.Inf == 0 {
		var parts []domains.Interval
		if b.Lo.V <= -1 {
			parts = append(parts, mkIv(b.Lo.V, min(b.Hi.V, -1)))
		}
		if b.Hi.V >= 1 {
			parts = append(parts, mkIv(max(b.Lo.V, 1), b.Hi.V))
		}
		acc := botIv
		for _, d := range parts {
			for _, x := range []int64{a.Lo.V, a.Hi.V} {
				for _, y := range []int64{d.Lo.V, d.Hi.V} {
					if x == math.MinInt64 && y == -1 {
						acc = ivJoin(acc, domains.Interval{Lo: fin(math.MaxInt64), Hi: posInf})
						continue
					}
					acc = ivJoin(acc, point(x/y))
				}
			}
		}
		return ivMeet(res, acc)
	}
	return res
}

// ivRem is C remainder: the sign of the dividend, |a % b| < |b| and ≤ |a|.
func ivRem(a, b domains.Interval) domains.Interval {
	if ivEmpty(a) || ivEmpty(b) {
		return botIv
	}
	mb := maxAbs(b)
	lim := extAdd(mb, ext{v: -1}) // |b| - 1
	ma := maxAbs(a)
	if extLess(ma, lim) {
		lim = ma
	}
	lo, hi := extNeg(lim).lo(), lim.hi()
	if cmpB(a.Lo, fin(0)) >= 0 {
		lo = fin(0)
	}
	if cmpB(a.Hi, fin(0)) <= 0 {
		hi = fin(0)
	}
	return domains.Interval{Lo: lo, Hi: hi}
}

// typeRange is the set of values of t (⊤ for MathInt, pointers, floats).
// The upper end of a 64-bit unsigned type is +∞ (2^64-1 is not an int64).
func typeRange(t cfg.Type) domains.Interval {
	if t.Kind != cfg.IntType || t.Bits == 0 {
		return topIv
	}
	if t.Signed {
		if t.Bits >= 64 {
			return mkIv(math.MinInt64, math.MaxInt64)
		}
		return mkIv(-(int64(1) << (t.Bits - 1)), int64(1)<<(t.Bits-1)-1)
	}
	if t.Bits >= 64 {
		return domains.Interval{Lo: fin(0), Hi: posInf}
	}
	return mkIv(0, int64(1)<<t.Bits-1)
}

// wrapIv maps the mathematical values in iv to t by two's-complement
// wrapping. It is exact when iv fits t or lies within one period of t's
// range; otherwise it returns t's whole range.
func wrapIv(iv domains.Interval, t cfg.Type) domains.Interval {
	if ivEmpty(iv) {
		return botIv
	}
	if t.Kind != cfg.IntType {
		return topIv
	}
	r := typeRange(t)
	if ivSubset(iv, r) {
		return iv
	}
	if t.Bits >= 63 || iv.Lo.Inf != 0 || iv.Hi.Inf != 0 {
		return r
	}
	period := int64(1) << t.Bits
	rl := r.Lo.V
	dl, okl := sub64(iv.Lo.V, rl)
	dh, okh := sub64(iv.Hi.V, rl)
	if !okl || !okh {
		return r
	}
	kl, kh := floorDiv(dl, period), floorDiv(dh, period)
	if kl != kh {
		return r
	}
	return mkIv(iv.Lo.V-kl*period, iv.Hi.V-kl*period)
}

func sub64(a, b int64) (int64, bool) {
	d := a - b
	if (d < a) != (b > 0) {
		return 0, false
	}
	return d, true
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// bitWidth returns the number of bits needed for v ≥ 0.
func bitWidth(v int64) int { return bits.Len64(uint64(v)) }

// ivBitwise over-approximates &, |, ^ for non-negative operands; otherwise
// it returns ⊤ (the caller wraps to the result type).
func ivBitwise(op cfg.BinOp, a, b domains.Interval) domains.Interval {
	if ivEmpty(a) || ivEmpty(b) {
		return botIv
	}
	if cmpB(a.Lo, fin(0)) < 0 || cmpB(b.Lo, fin(0)) < 0 || a.Hi.Inf != 0 || b.Hi.Inf != 0 {
		if op == cfg.And && (cmpB(a.Lo, fin(0)) >= 0 || cmpB(b.Lo, fin(0)) >= 0) {
			// x & y with one operand non-negative lies in [0, that operand].
			hi := posInf
			if cmpB(a.Lo, fin(0)) >= 0 {
				hi = a.Hi
			}
			if cmpB(b.Lo, fin(0)) >= 0 {
				hi = minB(hi, b.Hi)
			}
			return domains.Interval{Lo: fin(0), Hi: hi}
		}
		return topIv
	}
	if op == cfg.And {
		return mkIv(0, min(a.Hi.V, b.Hi.V))
	}
	w := max(bitWidth(a.Hi.V), bitWidth(b.Hi.V))
	if w >= 63 {
		return domains.Interval{Lo: fin(0), Hi: posInf}
	}
	lo := int64(0)
	if op == cfg.Or {
		lo = max(a.Lo.V, b.Lo.V)
	}
	return mkIv(lo, int64(1)<<w-1)
}

// ivShift handles << and >> with a shift amount in [0, 63]; other amounts
// are undefined in C (⊤ here, the caller wraps).
func ivShift(op cfg.BinOp, a, b domains.Interval) domains.Interval {
	if ivEmpty(a) || ivEmpty(b) {
		return botIv
	}
	b = ivMeet(b, mkIv(0, 63))
	if ivEmpty(b) || b.Lo.Inf != 0 || b.Hi.Inf != 0 {
		return topIv
	}
	if op == cfg.Shl {
		return ivMul(a, domains.Interval{Lo: fin(int64(1) << b.Lo.V), Hi: shlBound(b.Hi.V)})
	}
	// Arithmetic shift right is floor division by 2^k: monotone in a.
	res := botIv
	for _, k := range []int64{b.Lo.V, b.Hi.V} {
		lo, hi := a.Lo, a.Hi
		if lo.Inf == 0 {
			lo = fin(lo.V >> k)
		}
		if hi.Inf == 0 {
			hi = fin(hi.V >> k)
		}
		res = ivJoin(res, domains.Interval{Lo: lo, Hi: hi})
	}
	// Intermediate shift amounts give values between the two extremes only
	// per sign: include 0 / -1 limits for safety.
	if cmpB(a.Lo, fin(0)) >= 0 {
		res = ivJoin(res, point(0))
	} else {
		res = ivJoin(res, ivJoin(point(-1), a))
	}
	return res
}

func shlBound(k int64) domains.Bound {
	if k >= 63 {
		return posInf
	}
	return fin(int64(1) << k)
}
