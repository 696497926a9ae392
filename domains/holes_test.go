package domains

import (
	"fmt"
	"testing"
)

// Tests of the disequality holes (holes.go). Their soundness is also
// exercised by the property tests (randCons draws e ≠ 0, and member
// evaluates the NeZero constraints a value exports).

func ne(x int, c int64) LinCons {
	return LinCons{Expr: LinExpr{Terms: []Term{{x, 1}}, Const: -c}, Op: NeZero}
}

func eq(x int, c int64) LinCons {
	return LinCons{Expr: LinExpr{Terms: []Term{{x, 1}}, Const: -c}, Op: EqZero}
}

func le(x int, c int64) LinCons { // x ≤ c
	return LinCons{Expr: LinExpr{Terms: []Term{{x, 1}}, Const: -c}, Op: LeZero}
}

func ge(x int, c int64) LinCons { // x ≥ c
	return LinCons{Expr: LinExpr{Terms: []Term{{x, -1}}, Const: c}, Op: LeZero}
}

func TestHolesBasics(t *testing.T) {
	for _, d := range []Domain{Intervals, Octagons} {
		t.Run(d.Name(), func(t *testing.T) {
			top := d.Top(2)
			nz := top.Assume(ne(0, 0))
			if !nz.Entails(ne(0, 0)) {
				t.Fatalf("assume x0 != 0 does not entail it: %s", nz.String(nil))
			}
			if nz.Entails(ne(0, 1)) {
				t.Fatalf("x0 != 0 entails x0 != 1: %s", nz.String(nil))
			}
			if !nz.Assume(eq(0, 0)).IsBottom() {
				t.Fatalf("x0 != 0 and x0 = 0 is not bottom")
			}
			// A hole at an end cuts it: x0 != 0 and x0 >= 0 gives x0 >= 1.
			if b := nz.Assume(ge(0, 0)).Bounds(Var(0)); b.Lo.Cmp(Finite(1)) != 0 {
				t.Fatalf("x0 != 0, x0 >= 0: x0 in %v, want lower bound 1", b)
			}
			// The sign split: [-5, -1] join [1, 5] excludes 0.
			neg := top.Assume(ge(0, -5)).Assume(le(0, -1))
			pos := top.Assume(ge(0, 1)).Assume(le(0, 5))
			if j := neg.Join(pos); !j.Entails(ne(0, 0)) {
				t.Fatalf("[-5,-1] join [1,5] does not exclude 0: %s", j.String(nil))
			}
			// Holes survive a join with a value that excludes them, and
			// not one with a value that holds them.
			if j := nz.Join(pos); !j.Entails(ne(0, 0)) {
				t.Fatalf("x0 != 0 join [1,5] does not exclude 0: %s", j.String(nil))
			}
			zero := top.Assume(eq(0, 0))
			if j := nz.Join(zero); j.Entails(ne(0, 0)) {
				t.Fatalf("x0 != 0 join x0 = 0 excludes 0: %s", j.String(nil))
			}
			// Copies: x1 := -x0 excludes 0; x1 := x0 + 3 excludes 3,
			// which is not a hole (only 0 is) but must not become x1 != 0.
			if v := nz.Assign(1, LinExpr{Terms: []Term{{0, -1}}}); !v.Entails(ne(1, 0)) {
				t.Fatalf("x1 := -x0 over x0 != 0: %s", v.String(nil))
			}
			if v := nz.Assign(1, LinExpr{Terms: []Term{{0, 1}}, Const: 3}); v.Entails(ne(1, 0)) {
				t.Fatalf("x1 := x0 + 3 over x0 != 0 excludes 0: %s", v.String(nil))
			}
			// Overwriting x0 drops its hole.
			if v := nz.Assign(0, LinExpr{Terms: []Term{{1, 1}}}); v.Entails(ne(0, 0)) {
				t.Fatalf("x0 := x1 keeps x0 != 0: %s", v.String(nil))
			}
			if v := nz.Forget(0); v.Entails(ne(0, 0)) || v.IsBottom() {
				t.Fatalf("forget x0 keeps x0 != 0: %s", v.String(nil))
			}
			// x0 - x1 != 0 with x1 = 0 is x0 != 0.
			v := top.Assume(eq(1, 0)).Assume(LinCons{Expr: LinExpr{Terms: []Term{{0, 1}, {1, -1}}}, Op: NeZero})
			if !v.Entails(ne(0, 0)) || !v.Entails(LinCons{Expr: LinExpr{Terms: []Term{{0, 1}, {1, -1}}}, Op: NeZero}) {
				t.Fatalf("x1 = 0, x0 != x1: %s", v.String(nil))
			}
			// x0 = x1 moves x1's hole to x0.
			w := top.Assume(ne(1, 0)).Assume(LinCons{Expr: LinExpr{Terms: []Term{{0, 1}, {1, -1}}}, Op: EqZero})
			if !w.Entails(ne(0, 0)) {
				t.Fatalf("x1 != 0, x0 = x1: %s", w.String(nil))
			}
			// Only 0 is a hole: x0 != 1 refines nothing inside the range.
			if v := top.Assume(ne(0, 1)); !v.IsTop() {
				t.Fatalf("x0 != 1 recorded: %s", v.String(nil))
			}
			// Widening keeps what both operands exclude: the left
			// operand's holes, and x != 0 where the left range excludes
			// 0 (widenHoles); nothing the right operand holds.
			if wv := nz.Widen(nz.Join(pos), nil); !wv.Entails(ne(0, 0)) {
				t.Fatalf("widening lost a stable hole: %s", wv.String(nil))
			}
			if wv := pos.Widen(neg.Join(pos), nil); !wv.Entails(ne(0, 0)) {
				t.Fatalf("widening lost x0 != 0 that both operands exclude: %s", wv.String(nil))
			}
			if wv := pos.Widen(zero.Join(pos), nil); wv.Entails(ne(0, 0)) {
				t.Fatalf("widening kept x0 != 0 that the right operand holds: %s", wv.String(nil))
			}
			// Order: x0 != 0 ⊑ top, not the reverse.
			if !nz.Leq(top) || top.Leq(nz) || nz.Equal(top) {
				t.Fatalf("order with holes wrong")
			}
			// Project and AddDims carry holes.
			if p := nz.Project([]int{1, 0}).AddDims(1); !p.Entails(ne(1, 0)) {
				t.Fatalf("project lost the hole: %s", p.String(nil))
			}
			if c := Concat(d, pos, nz); !c.Entails(ne(2, 0)) {
				t.Fatalf("concat lost the hole: %s", c.String(nil))
			}
		})
	}
}

// TestHolesImmutable: no operation changes its receiver or argument
// (Values are immutable; holes are set on fresh values only).
func TestHolesImmutable(t *testing.T) {
	for _, d := range []Domain{Intervals, Octagons} {
		r := newRand(77)
		for iter := range 400 {
			n := 2 + r.IntN(3)
			v, _ := randValue(r, d, n, false)
			for range 3 {
				v = v.Assume(LinCons{Expr: randExpr(r, n, false), Op: NeZero})
				v = v.Assume(ne(r.IntN(n), r.Int64N(7)-3))
			}
			w, _ := randValue(r, d, n, false)
			w = w.Assume(ne(r.IntN(n), 0))
			before, wbefore := v.String(nil), w.String(nil)
			x := r.IntN(n)
			ops := []func(){
				func() { v.Join(w) }, func() { v.Meet(w) }, func() { v.Widen(v.Join(w), nil) },
				func() { v.Narrow(v.Meet(w)) }, func() { v.Leq(w) }, func() { v.Equal(w) },
				func() { v.Assign(x, randExpr(r, n, false)) }, func() { v.AssignInterval(x, NewInterval(-1, 1)) },
				func() { v.Forget(x) }, func() { v.Assume(randCons(r, n, false)) },
				func() { v.Assume(LinCons{Expr: randExpr(r, n, false), Op: NeZero}) },
				func() { v.Assume(ne(x, r.Int64N(7)-3)) }, func() { v.Assume(eq(x, r.Int64N(7)-3)) },
				func() { v.Entails(ne(x, 0)) }, func() { v.Project([]int{x}) }, func() { v.AddDims(1) },
				func() { Concat(d, v, w) },
			}
			for k, op := range ops {
				op()
				if a, b := v.String(nil), w.String(nil); a != before || b != wbefore {
					t.Fatalf("%s iter %d op %d changed an operand: %s -> %s; %s -> %s", d.Name(), iter, k, before, a, wbefore, b)
				}
			}
		}
	}
}

// TestHolesWideningTerminates: a loop whose body excludes a growing set
// of constants still stabilizes (widening keeps only old holes).
func TestHolesWideningTerminates(t *testing.T) {
	for _, d := range []Domain{Intervals, Octagons} {
		v := d.Top(1).Assume(eq(0, 0))
		for i := range 1000 {
			// body: x := x + 1 on paths where x != i
			body := v.Assume(ne(0, int64(i))).Assign(0, LinExpr{Terms: []Term{{0, 1}}, Const: 1})
			nv := v.Widen(v.Join(body), []int64{0, 10})
			if nv.Equal(v) {
				return
			}
			v = nv
		}
		t.Fatalf("%s: no fixpoint after 1000 widenings: %s", d.Name(), v.String(nil))
	}
}

func ExampleIntervalValue_holes() {
	v := Intervals.Top(1).Assume(ne(0, 0))
	fmt.Println(v.String(nil))
	// Output: x0 != 0
}

// TestHolesJoinSemilattice: the join is associative and commutative and
// absorbs what is below the accumulator (a ⊔ b = a when b ⊑ a), which
// the solver's trees of partial joins and joinInto rely on (holes.go).
func TestHolesJoinSemilattice(t *testing.T) {
	for _, d := range []Domain{Intervals, Octagons} {
		r := newRand(91)
		for iter := range 2000 {
			n := 1 + r.IntN(2)
			vals := make([]Value, 3)
			for i := range vals {
				vals[i], _ = randValue(r, d, n, true)
				if r.IntN(2) == 0 {
					vals[i] = vals[i].Assume(ne(r.IntN(n), 0))
				}
			}
			a, b, c := vals[0], vals[1], vals[2]
			l, rr := a.Join(b).Join(c), a.Join(b.Join(c))
			if !l.Equal(rr) {
				t.Fatalf("%s iter %d: (a⊔b)⊔c = %s, a⊔(b⊔c) = %s for %s; %s; %s", d.Name(), iter, l.String(nil), rr.String(nil), a.String(nil), b.String(nil), c.String(nil))
			}
			if !a.Join(b).Equal(b.Join(a)) {
				t.Fatalf("%s iter %d: join not commutative on %s; %s", d.Name(), iter, a.String(nil), b.String(nil))
			}
			if b.Leq(a) && !a.Join(b).Equal(a) {
				t.Fatalf("%s iter %d: b ⊑ a but a ⊔ b = %s for %s; %s", d.Name(), iter, a.Join(b).String(nil), a.String(nil), b.String(nil))
			}
		}
	}
}
