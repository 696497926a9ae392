package z3

import (
	"errors"
	"math/big"
	"testing"
	"time"
)

func newCtx(t *testing.T, cfg *Config) *Context {
	t.Helper()
	ctx := NewContext(cfg)
	t.Cleanup(ctx.Close)
	if err := ctx.Err(); err != nil {
		t.Fatal(err)
	}
	return ctx
}

func lit(ctx *Context, v int64) Int { return ctx.FromInt(v, ctx.IntSort()).(Int) }

func TestSatAndModel(t *testing.T) {
	ctx := newCtx(t, nil)
	x, y := ctx.IntConst("x"), ctx.IntConst("y")
	s := NewSolver(ctx)
	// x + y = 10, x - y = 2, so x = 6, y = 4.
	s.Assert(x.Add(y).Eq(lit(ctx, 10)))
	s.Assert(x.Sub(y).Eq(lit(ctx, 2)))
	sat, err := s.Check()
	if err != nil || !sat {
		t.Fatalf("Check = %v, %v; want sat", sat, err)
	}
	m := s.Model()
	for _, tc := range []struct {
		v    Int
		want int64
	}{{x, 6}, {y, 4}, {x.Mul(lit(ctx, 3)).Neg(), -18}, {x.Mul(y), 24}} {
		got, isLit, ok := m.Eval(tc.v, true).(Int).AsInt64()
		if !isLit || !ok || got != tc.want {
			t.Errorf("Eval(%s) = %d (lit %v ok %v), want %d", tc.v, got, isLit, ok, tc.want)
		}
	}
	// An unconstrained constant with completion still evaluates to a literal.
	z := ctx.IntConst("z")
	if _, isLit, _ := m.Eval(z, true).(Int).AsInt64(); !isLit {
		t.Errorf("Eval(z, completion) is not a literal")
	}
	b := m.Eval(x.GT(y).And(x.LE(lit(ctx, 6)), y.GE(lit(ctx, 4)), x.NE(y)), true).(Bool)
	if v, isLit := b.AsBool(); !isLit || !v {
		t.Errorf("Eval(bool) = %v, %v; want true literal", v, isLit)
	}
	if ctx.Err() != nil {
		t.Fatal(ctx.Err())
	}
}

func TestUnsat(t *testing.T) {
	ctx := newCtx(t, nil)
	x := ctx.IntConst("x")
	p := ctx.BoolConst("p")
	s := NewSolver(ctx)
	s.Assert(x.GT(lit(ctx, 5)))
	s.Assert(p.Implies(x.LT(lit(ctx, 3))))
	s.Assert(p.Or(ctx.False()))
	sat, err := s.Check()
	if err != nil || sat {
		t.Fatalf("Check = %v, %v; want unsat", sat, err)
	}
	// Asking for a model after unsat is a Z3 error, which must become a
	// Go error, not an abort.
	if m := s.Model(); m.c != nil {
		t.Errorf("Model after unsat is valid")
	}
	if ctx.Err() == nil {
		t.Errorf("Model after unsat recorded no error")
	}
}

func TestPushPop(t *testing.T) {
	ctx := newCtx(t, nil)
	x := ctx.IntConst("x")
	s := NewSolver(ctx)
	s.Assert(x.GE(lit(ctx, 0)))
	s.Push()
	// A term built inside the scope must stay usable after Pop.
	inner := x.LT(lit(ctx, 0))
	s.Assert(inner)
	if sat, err := s.Check(); err != nil || sat {
		t.Fatalf("inside scope: %v, %v; want unsat", sat, err)
	}
	s.Pop()
	if sat, err := s.Check(); err != nil || !sat {
		t.Fatalf("after pop: %v, %v; want sat", sat, err)
	}
	s.Assert(inner.Not().And(x.Eq(lit(ctx, 7))))
	if sat, err := s.Check(); err != nil || !sat {
		t.Fatalf("reuse after pop: %v, %v; want sat", sat, err)
	}
	if v, _, _ := s.Model().Eval(x, true).(Int).AsInt64(); v != 7 {
		t.Errorf("x = %d, want 7", v)
	}
	s.Reset()
	s.Assert(ctx.False())
	if sat, err := s.Check(); err != nil || sat {
		t.Fatalf("after reset: %v, %v; want unsat", sat, err)
	}
	s.Pop() // no scope left
	if ctx.Err() == nil {
		t.Errorf("Pop without Push recorded no error")
	}
	if _, err := s.Check(); err == nil {
		t.Errorf("Check after an error returned no error")
	}
}

// TestTimeout runs a hard query under a 1 ms timeout several times in one
// Context (Z3 4.8.12's own timer deadlocked on the second expiry), and checks
// that the Context still answers easy queries afterwards.
func TestTimeout(t *testing.T) {
	cfg := NewContextConfig()
	cfg.SetUint("timeout", 1)
	ctx := newCtx(t, cfg)
	s := NewSolver(ctx)
	for range 4 {
		checkFactoring(t, ctx, s)
	}
	// An expired timeout must not leave Z3's cancel flag set.
	ctx.SetTimeout(0)
	s.Reset()
	x := ctx.IntConst("x")
	s.Assert(x.GT(lit(ctx, 3)).And(x.LT(lit(ctx, 5))))
	if sat, err := s.Check(); err != nil || !sat {
		t.Fatalf("easy query after timeouts: %v, %v; want sat", sat, err)
	}
	if v, _, _ := s.Model().Eval(x, true).(Int).AsInt64(); v != 4 {
		t.Errorf("x = %d, want 4", v)
	}
}

func checkFactoring(t *testing.T, ctx *Context, s *Solver) {
	t.Helper()
	// Factor the product of two 31-bit primes with nonlinear integer
	// arithmetic: far beyond 1 ms for Z3's nonlinear solver.
	p, q := big.NewInt(2147483647), big.NewInt(2147483629)
	n := new(big.Int).Mul(p, q)
	x, y := ctx.IntConst("x"), ctx.IntConst("y")
	nv := ctx.FromBigInt(n, ctx.IntSort()).(Int)
	s.Reset()
	s.Assert(x.Mul(y).Eq(nv))
	s.Assert(x.GT(lit(ctx, 1)).And(y.GT(lit(ctx, 1))))
	sat, err := s.Check()
	switch {
	case err != nil:
		var unk *ErrSatUnknown
		if !errors.As(err, &unk) || !errors.Is(err, ErrTimeout) {
			t.Fatalf("Check error = %v; want a timeout *ErrSatUnknown", err)
		}
	case sat: // Z3 was quick after all: the model must be a factoring.
		m := s.Model()
		a, _ := m.Eval(x, true).(Int).AsBigInt()
		b, _ := m.Eval(y, true).(Int).AsBigInt()
		if a == nil || b == nil || new(big.Int).Mul(a, b).Cmp(n) != 0 {
			t.Fatalf("sat model %v * %v != %v", a, b, n)
		}
	default:
		t.Fatalf("factoring query reported unsat")
	}
}

func TestInterrupt(t *testing.T) {
	ctx := newCtx(t, nil) // no timeout: only Interrupt can stop the check
	s := NewSolver(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		checkFactoring(t, ctx, s)
	}()
	// Interrupt until the check has returned; an interrupt that arrives
	// before the check starts must also stop it.
	for {
		ctx.Interrupt()
		select {
		case <-done:
			return
		case <-time.After(time.Millisecond):
		}
	}
}

func TestBigIntRoundTrip(t *testing.T) {
	ctx := newCtx(t, nil)
	n, _ := new(big.Int).SetString("-123456789012345678901234567890", 10)
	v := ctx.FromBigInt(n, ctx.IntSort()).(Int)
	got, isLit := v.AsBigInt()
	if !isLit || got.Cmp(n) != 0 {
		t.Fatalf("AsBigInt = %v, %v", got, isLit)
	}
	if _, isLit, ok := v.AsInt64(); !isLit || ok {
		t.Errorf("AsInt64 of a huge literal: isLit %v ok %v; want true false", isLit, ok)
	}
	if _, isLit, _ := ctx.IntConst("x").AsInt64(); isLit {
		t.Errorf("AsInt64 of a constant claims a literal")
	}
}

func TestErrorsNotAborts(t *testing.T) {
	ctx := newCtx(t, nil)
	x := ctx.IntConst("x")
	// Sort error inside Z3: ite with an Int and a Bool branch.
	r := ctx.True().IfThenElse(x, ctx.True())
	if r.Valid() || ctx.Err() == nil {
		t.Fatalf("ill-sorted ite: valid %v, err %v", r.Valid(), ctx.Err())
	}
	// Later terms are invalid placeholders, never passed to Z3.
	if y := x.Add(x); y.Valid() {
		t.Errorf("term after error is valid")
	}

	// Mixing contexts and zero values is caught on the Go side.
	a, b := newCtx(t, nil), newCtx(t, nil)
	if v := a.IntConst("x").Add(b.IntConst("x")); v.Valid() || a.Err() == nil {
		t.Errorf("cross-context Add: valid %v, err %v", v.Valid(), a.Err())
	}
	if v := b.IntConst("y").Add(Int{}); v.Valid() || b.Err() == nil {
		t.Errorf("Add of zero Int: valid %v, err %v", v.Valid(), b.Err())
	}

	// Everything after Close is an error, not a crash.
	c := NewContext(nil)
	s := NewSolver(c)
	cx := c.IntConst("x")
	c.Close()
	c.Close()
	s.Assert(cx.GT(cx))
	if _, err := s.Check(); err == nil {
		t.Errorf("Check after Close returned no error")
	}
	if cx.Valid() || cx.String() != "<invalid>" {
		t.Errorf("value of closed context is valid")
	}
}

func TestManyContexts(t *testing.T) {
	for i := range 200 {
		ctx := NewContext(nil)
		x := ctx.IntConst("x")
		s := NewSolver(ctx)
		s.Assert(x.Mul(lit(ctx, 2)).Eq(lit(ctx, int64(2*i))))
		sat, err := s.Check()
		if err != nil || !sat {
			t.Fatalf("ctx %d: %v, %v", i, sat, err)
		}
		if v, _, _ := s.Model().Eval(x, true).(Int).AsInt64(); v != int64(i) {
			t.Fatalf("ctx %d: x = %d", i, v)
		}
		ctx.Close()
	}
}
