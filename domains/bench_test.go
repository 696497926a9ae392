package domains

import (
	"fmt"
	"slices"
	"testing"
)

// Benchmarks: go test -run '^$' -bench . -benchmem ./domains

var benchDims = []int{8, 16, 32, 64}

// denseFeasible returns a raw matrix whose entries are all finite and
// consistent (each holds at a hidden point with a random slack of 10..50),
// so no row of the closure is skipped and the result is not a point.
func denseFeasible(n int) []int64 {
	r := newRand(uint64(n))
	N := 2 * n
	pt := randPoint(r, n)
	val := func(p int) int64 {
		if p%2 == 0 {
			return pt[p/2]
		}
		return -pt[p/2]
	}
	m := newTopDBM(N)
	for i := range N {
		for j := range N {
			if i != j {
				setCons(m, N, octCons{a: i, b: j, c: val(j) - val(i) + 10 + r.Int64N(41)})
			}
		}
	}
	return m
}

// BenchmarkClosure: full tight closure, in place on a reused buffer.
func BenchmarkClosure(b *testing.B) {
	for _, n := range benchDims {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			N := 2 * n
			src := denseFeasible(n)
			work := make([]int64, len(src))
			b.ReportAllocs()
			for b.Loop() {
				copy(work, src)
				if !tightClose(work, N) {
					b.Fatal("empty")
				}
			}
		})
	}
}

// floorFW is the bare min-plus Floyd–Warshall written as tightly as we
// can: no +∞ handling, no emptiness test, no tightening.
func floorFW(m []int64, N int) {
	for k := 0; k < N; k++ {
		rowk := m[k*N : k*N+N]
		for i := 0; i < N; i++ {
			mik := m[i*N+k]
			rowi := m[i*N : i*N+N]
			rowi = rowi[:len(rowk)]
			for j, mkj := range rowk {
				rowi[j] = min(rowi[j], mik+mkj)
			}
		}
	}
}

// floorFWBranch is the same loop with a conditional store.
func floorFWBranch(m []int64, N int) {
	for k := 0; k < N; k++ {
		rowk := m[k*N : k*N+N]
		for i := 0; i < N; i++ {
			mik := m[i*N+k]
			rowi := m[i*N : i*N+N]
			rowi = rowi[:len(rowk)]
			for j, mkj := range rowk {
				if s := mik + mkj; s < rowi[j] {
					rowi[j] = s
				}
			}
		}
	}
}

// BenchmarkFloorFW: the O((2n)³) floor the closure is compared against.
func BenchmarkFloorFW(b *testing.B) {
	for _, n := range benchDims {
		for _, v := range []struct {
			name string
			f    func([]int64, int)
		}{{"min", floorFW}, {"branch", floorFWBranch}} {
			b.Run(fmt.Sprintf("%s/n=%d", v.name, n), func(b *testing.B) {
				N := 2 * n
				src := denseFeasible(n)
				work := make([]int64, len(src))
				b.ReportAllocs()
				for b.Loop() {
					copy(work, src)
					v.f(work, N)
				}
			})
		}
	}
}

// BenchmarkIncrementalClosure: add one tightening constraint to a closed
// matrix (O(n²)).
func BenchmarkIncrementalClosure(b *testing.B) {
	for _, n := range benchDims {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			N := 2 * n
			closed := denseFeasible(n)
			if !tightClose(closed, N) {
				b.Fatal("empty")
			}
			// Lower the bound of some v_b - v_a by one inside its range
			// (tight closure is exact, so the result stays non-empty).
			a, bb, c := -1, -1, int64(0)
			for i := 0; i < N && a < 0; i++ {
				for j := 0; j < N; j++ {
					hi, lo := closed[i*N+j], -closed[j*N+i]
					if i != j && j != i^1 && hi < octInf && hi-lo >= 1 {
						a, bb, c = i, j, hi-1
						break
					}
				}
			}
			if a < 0 {
				b.Fatal("no wide entry")
			}
			probe := slices.Clone(closed)
			if !addConstraintClosed(probe, N, a, bb, c, nil) || slices.Equal(probe, closed) {
				b.Fatal("constraint does not tighten")
			}
			work := make([]int64, len(closed))
			scratch := make([]int64, 4*N)
			b.ReportAllocs()
			for b.Loop() {
				copy(work, closed)
				addConstraintClosed(work, N, a, bb, c, scratch)
			}
		})
	}
}

func benchValues(n int) (Value, Value) {
	r := newRand(uint64(100 + n))
	N := 2 * n
	a := randRawDBM(r, n, N*N/4, true)
	c := randRawDBM(r, n, N*N/4, true)
	if !tightClose(a, N) || !tightClose(c, N) {
		panic("empty")
	}
	return &OctagonValue{n: n, m: a, closed: true}, &OctagonValue{n: n, m: c, closed: true}
}

func BenchmarkOctagonJoin(b *testing.B) {
	for _, n := range benchDims {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			x, y := benchValues(n)
			b.ReportAllocs()
			for b.Loop() {
				_ = x.Join(y)
			}
		})
	}
}

func BenchmarkOctagonWiden(b *testing.B) {
	ts := []int64{-100, -10, 0, 1, 10, 100, 1000}
	for _, n := range benchDims {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			x, y := benchValues(n)
			up := x.Join(y)
			b.ReportAllocs()
			for b.Loop() {
				_ = x.Widen(up, ts)
			}
		})
	}
}

func BenchmarkOctagonAssumeOctagonal(b *testing.B) {
	for _, n := range benchDims {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			x, _ := benchValues(n)
			e := Var(0)
			e, _ = e.Sub(Var(1))
			bd := x.Bounds(e)
			c := LinCons{Expr: LinExpr{Terms: e.Terms, Const: -(bd.Hi.V - 1)}, Op: LeZero}
			b.ReportAllocs()
			for b.Loop() {
				_ = x.Assume(c)
			}
		})
	}
}

func BenchmarkIntervalJoin(b *testing.B) {
	n := 32
	r := newRand(7)
	x, _ := randValue(r, Intervals, n, false)
	y, _ := randValue(r, Intervals, n, false)
	b.ReportAllocs()
	for b.Loop() {
		_ = x.Join(y)
	}
}

// BenchmarkOctagonAssignLinearized: x0 := 2·x1 + x2 + 1 (O(N²) closure).
func BenchmarkOctagonAssignLinearized(b *testing.B) {
	for _, n := range benchDims {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			x, _ := benchValues(n)
			e := LinExpr{Terms: []Term{{1, 2}, {2, 1}}, Const: 1}
			b.ReportAllocs()
			for b.Loop() {
				_ = x.Assign(0, e)
			}
		})
	}
}
