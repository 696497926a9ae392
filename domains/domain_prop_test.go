package domains

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// Property tests shared by both domains: soundness of every transfer
// function by concrete sampling (a tracked set of points that must stay
// inside the abstract value, refreshed with random points of the value),
// lattice laws, widening termination.

// propRange: concrete coordinates and constants are drawn from
// [-propRange, propRange] (a variable so that one test can use huge ones).
var propRange int64 = 12

type point = []int64

// member reports whether p satisfies every constraint of v.
func member(v Value, p point) bool {
	if v.IsBottom() {
		return false
	}
	for _, c := range v.Constraints() {
		if !c.Holds(p) {
			return false
		}
	}
	return true
}

// samplePoints draws up to k points of v by rejection inside v's
// bounding box clipped to [-2R, 2R].
func samplePoints(r *rand.Rand, v Value, k int) []point {
	if v.IsBottom() {
		return nil
	}
	n := v.Dim()
	lo, hi := make([]int64, n), make([]int64, n)
	for i := range n {
		b := v.Bounds(Var(i))
		lo[i], hi[i] = -2*propRange, 2*propRange
		if b.Lo.IsFinite() {
			lo[i] = max(lo[i], b.Lo.V)
		}
		if b.Hi.IsFinite() {
			hi[i] = min(hi[i], b.Hi.V)
		}
		if lo[i] > hi[i] {
			return nil
		}
	}
	var out []point
	for range 40 * k {
		p := make(point, n)
		for i := range p {
			p[i] = int64(uint64(lo[i]) + r.Uint64N(uint64(hi[i])-uint64(lo[i])+1))
		}
		if member(v, p) {
			out = append(out, p)
			if len(out) == k {
				break
			}
		}
	}
	return out
}

func randPoint(r *rand.Rand, n int) point {
	p := make(point, n)
	for i := range p {
		p[i] = r.Int64N(2*propRange+1) - propRange
	}
	return p
}

// randExpr returns a linear expression over n variables; octagonal
// restricts it to ±x ±y + c.
func randExpr(r *rand.Rand, n int, octagonal bool) LinExpr {
	var e LinExpr
	k := 1 + r.IntN(min(n, 3))
	if octagonal {
		k = 1 + r.IntN(min(n, 2))
	}
	vars := r.Perm(n)[:k]
	for _, v := range vars {
		c := int64(1 - 2*r.IntN(2))
		if !octagonal && r.IntN(3) == 0 {
			c *= 1 + r.Int64N(3)
		}
		e.Terms = append(e.Terms, Term{Var: v, Coef: c})
	}
	e.Const = r.Int64N(2*propRange+1) - propRange
	return e
}

func randCons(r *rand.Rand, n int, octagonal bool) LinCons {
	op := LeZero
	switch r.IntN(8) {
	case 0:
		op = EqZero
	case 1:
		op = NeZero
	}
	return LinCons{Expr: randExpr(r, n, octagonal), Op: op}
}

// pointValue returns the abstraction of one point.
func pointValue(d Domain, p point) Value {
	v := d.Top(len(p))
	for i, c := range p {
		v = v.Assign(i, Const(c))
	}
	return v
}

// randValue returns a random value and some points known to be in it.
func randValue(r *rand.Rand, d Domain, n int, octagonal bool) (Value, []point) {
	var pts []point
	v := d.Bottom(n)
	for range 1 + r.IntN(4) {
		p := randPoint(r, n)
		pts = append(pts, p)
		v = v.Join(pointValue(d, p))
	}
	if r.IntN(3) == 0 {
		v = d.Top(n)
		pts = append(pts, randPoint(r, n), randPoint(r, n))
	}
	for range r.IntN(3) {
		c := randCons(r, n, octagonal)
		v = v.Assume(c)
		pts = slices.DeleteFunc(pts, func(p point) bool { return !c.Holds(p) })
	}
	return v, pts
}

func randThresholds(r *rand.Rand) []int64 {
	var ts []int64
	for range r.IntN(4) {
		ts = append(ts, r.Int64N(41)-20)
	}
	slices.Sort(ts)
	return slices.Compact(ts)
}

// applyAssign returns p[x := e(p)], or nil if the value leaves int64.
func applyAssign(p point, x int, e LinExpr) point {
	q := slices.Clone(p)
	v := e.EvalBig(p)
	if !v.IsInt64() {
		return nil
	}
	q[x] = v.Int64()
	return q
}

// checkInside fails if a tracked point left the value.
func checkInside(t *testing.T, what string, v Value, pts []point) {
	t.Helper()
	for _, p := range pts {
		if !member(v, p) {
			t.Fatalf("%s: point %v not in result %s", what, p, v.String(nil))
		}
	}
}

// runSoundness drives random operation sequences on one domain.
func runSoundness(t *testing.T, d Domain, seed uint64, octagonal bool, iters int) {
	r := newRand(seed)
	for iter := range iters {
		n := 2 + r.IntN(3)
		v, pts := randValue(r, d, n, octagonal)
		checkInside(t, "initial", v, pts)
		for step := range 12 {
			pts = append(pts, samplePoints(r, v, 8)...)
			what := fmt.Sprintf("iter %d step %d on %s", iter, step, v.String(nil))
			var nv Value
			var npts []point
			switch op := r.IntN(11); op {
			case 0, 1: // assume
				c := randCons(r, n, octagonal)
				nv = v.Assume(c)
				for _, p := range pts {
					if c.Holds(p) {
						npts = append(npts, p)
					}
				}
				what += " assume " + c.String(nil)
				if nv.Leq(v) == false {
					t.Fatalf("%s: assume result not below its input: %s", what, nv.String(nil))
				}
			case 2, 3: // assign
				x, e := r.IntN(n), randExpr(r, n, octagonal && r.IntN(4) != 0)
				if r.IntN(5) == 0 {
					e = LinExpr{Terms: []Term{{x, int64(1 - 2*r.IntN(2))}}, Const: e.Const}
				}
				nv = v.Assign(x, e)
				for _, p := range pts {
					if q := applyAssign(p, x, e); q != nil {
						npts = append(npts, q)
					}
				}
				what += fmt.Sprintf(" assign x%d := %s", x, e.String(nil))
			case 4: // assign interval / forget
				x := r.IntN(n)
				lo := r.Int64N(2*propRange+1) - propRange
				iv := NewInterval(lo, lo+r.Int64N(6))
				if r.IntN(3) == 0 {
					iv = TopInterval()
				}
				nv = v.AssignInterval(x, iv)
				if iv.IsTop() && r.IntN(2) == 0 {
					nv = v.Forget(x)
				}
				for _, p := range pts {
					q := slices.Clone(p)
					q[x] = sampleIn(r, iv.Meet(NewInterval(-min(3*propRange, 1<<62), min(3*propRange, 1<<62))))
					npts = append(npts, q)
				}
				what += fmt.Sprintf(" x%d := %v", x, iv)
			case 5: // join
				w, wp := randValue(r, d, n, octagonal)
				nv = v.Join(w)
				npts = append(slices.Clone(pts), wp...)
				if !v.Leq(nv) || !w.Leq(nv) {
					t.Fatalf("%s: join not an upper bound", what)
				}
				what += " join " + w.String(nil)
			case 6: // meet
				w, wp := randValue(r, d, n, octagonal)
				nv = v.Meet(w)
				for _, p := range append(slices.Clone(pts), wp...) {
					if member(v, p) && member(w, p) {
						npts = append(npts, p)
					}
				}
				if !nv.Leq(v) || !nv.Leq(w) {
					t.Fatalf("%s: meet not a lower bound", what)
				}
				what += " meet " + w.String(nil)
			case 7: // widen
				w, wp := randValue(r, d, n, octagonal)
				up := v.Join(w)
				nv = v.Widen(up, randThresholds(r))
				npts = append(slices.Clone(pts), wp...)
				if !v.Leq(nv) || !up.Leq(nv) {
					t.Fatalf("%s: widening not an upper bound", what)
				}
				what += " widen " + w.String(nil)
			case 8: // narrow
				w, _ := randValue(r, d, n, octagonal)
				below := v.Meet(w)
				nv = v.Narrow(below)
				for _, p := range pts {
					if member(below, p) {
						npts = append(npts, p)
					}
				}
				npts = append(npts, samplePoints(r, below, 8)...)
				if !below.Leq(nv) || !nv.Leq(v) {
					t.Fatalf("%s: narrowing %s not between %s and the receiver", what, nv.String(nil), below.String(nil))
				}
				what += " narrow " + w.String(nil)
			case 9: // project / add dims: permute the variables and add one
				perm := r.Perm(n)
				pv := v.Project(perm).AddDims(1)
				back := make([]int, n)
				for i, k := range perm {
					back[k] = i
				}
				nv = pv.Project(back)
				for _, p := range pts {
					q := make(point, n+1)
					for i, k := range perm {
						q[i] = p[k]
					}
					q[n] = r.Int64N(50) - 25
					if !member(pv, q) {
						t.Fatalf("%s: project %v/add dims lost %v -> %v (%s)", what, perm, p, q, pv.String(nil))
					}
				}
				npts = pts
				if !nv.Equal(v) {
					t.Fatalf("%s: permuting back changed the value: %s", what, nv.String(nil))
				}
			case 10: // bounds and entailment
				e := randExpr(r, n, octagonal)
				b := v.Bounds(e)
				c := randCons(r, n, octagonal)
				ent := v.Entails(c)
				for _, p := range pts {
					if val := e.EvalBig(p); !inBig(b, val) {
						t.Fatalf("%s: Bounds(%s) = %v misses %v at %v", what, e.String(nil), b, val, p)
					}
					if ent && !c.Holds(p) {
						t.Fatalf("%s: entails %s but %v violates it", what, c.String(nil), p)
					}
				}
				nv, npts = v, pts
			}
			checkInside(t, what, nv, npts)
			v, pts = nv, npts
			if len(pts) > 60 {
				pts = pts[len(pts)-60:]
			}
			if v.IsBottom() {
				break
			}
		}
	}
}

func TestIntervalSoundness(t *testing.T) { runSoundness(t, Intervals, 11, false, 500) }

// TestSoundnessHugeConstants exercises the octagon's clamping of
// constants beyond ±2^50 and the saturating arithmetic of both domains.
func TestSoundnessHugeConstants(t *testing.T) {
	defer func(old int64) { propRange = old }(propRange)
	for i, R := range []int64{1 << 47, 1 << 50, 1 << 61} {
		propRange = R
		runSoundness(t, Octagons, 60+uint64(i), false, 120)
		runSoundness(t, Intervals, 70+uint64(i), false, 120)
	}
}
func TestOctagonSoundness(t *testing.T) { runSoundness(t, Octagons, 12, false, 500) }
func TestOctagonSoundnessOctagonal(t *testing.T) {
	runSoundness(t, Octagons, 13, true, 500)
}

// TestWideningTerminates: along a strictly increasing chain, the widened
// sequence changes only finitely often and stays above the chain.
func TestWideningTerminates(t *testing.T) {
	for _, d := range []Domain{Intervals, Octagons} {
		r := newRand(21)
		for range 40 {
			n := 2 + r.IntN(3)
			ts := randThresholds(r)
			p := randPoint(r, n)
			x := pointValue(d, p)
			w := x
			changes := 0
			for range 400 {
				for i := range p { // move outwards, sometimes relationally
					p[i] += r.Int64N(3) - 1
				}
				x = x.Join(pointValue(d, p))
				nw := w.Widen(w.Join(x), ts)
				if !x.Leq(nw) || !w.Leq(nw) {
					t.Fatalf("%s: widening below the chain", d.Name())
				}
				if !nw.Equal(w) {
					changes++
				}
				w = nw
			}
			limit := 2 * n * (len(ts) + 2)
			if d == Octagons {
				limit = 4 * n * n * (2*len(ts) + 2)
			}
			if changes > limit {
				t.Fatalf("%s: widening changed %d times (limit %d)", d.Name(), changes, limit)
			}
		}
	}
}

// TestOctagonAtLeastIntervals runs the same octagonal operations on both
// domains; the octagon's box must always be inside the interval value.
func TestOctagonAtLeastIntervals(t *testing.T) { runAtLeastIntervals(t, 31, true) }

// TestOctagonAtLeastIntervalsGeneral: the same with arbitrary linear
// constraints (the octagon runs the interval propagation on its box).
func TestOctagonAtLeastIntervalsGeneral(t *testing.T) { runAtLeastIntervals(t, 32, false) }

func runAtLeastIntervals(t *testing.T, seed uint64, octagonal bool) {
	// The convex domains: holes are not ordered between them (holes.go).
	holesOff = true
	defer func() { holesOff = false }()
	r := newRand(seed)
	for range 1500 {
		n := 2 + r.IntN(3)
		oct, itv := Octagons.Top(n), Intervals.Top(n)
		for range 15 {
			switch r.IntN(5) {
			case 0, 1:
				c := randCons(r, n, octagonal)
				oct, itv = oct.Assume(c), itv.Assume(c)
			case 2:
				x, e := r.IntN(n), randExpr(r, n, r.IntN(2) == 0)
				oct, itv = oct.Assign(x, e), itv.Assign(x, e)
			case 3:
				p := randPoint(r, n)
				oct, itv = oct.Join(pointValue(Octagons, p)), itv.Join(pointValue(Intervals, p))
			case 4:
				c1, c2 := randCons(r, n, octagonal), randCons(r, n, octagonal)
				oct = oct.Assume(c1).Join(oct.Assume(c2))
				itv = itv.Assume(c1).Join(itv.Assume(c2))
			}
			box := oct.(*OctagonValue).Box()
			if !box.Leq(itv) {
				t.Fatalf("octagon %s (box %s) less precise than intervals %s", oct.String(nil), box.String(nil), itv.String(nil))
			}
		}
	}
}

// TestConstraintsRoundTrip: assuming a value's constraints on ⊤ gives the
// value back.
func TestConstraintsRoundTrip(t *testing.T) {
	for _, d := range []Domain{Intervals, Octagons} {
		r := newRand(41)
		for range 300 {
			n := 2 + r.IntN(3)
			v, _ := randValue(r, d, n, false)
			u := d.Top(n)
			for _, c := range v.Constraints() {
				u = u.Assume(c)
			}
			if !u.Equal(v) {
				t.Fatalf("%s: %s round-trips to %s", d.Name(), v.String(nil), u.String(nil))
			}
		}
	}
}
