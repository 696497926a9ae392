package z3

import (
	"errors"
	"strings"
	"testing"
)

// A library that cannot be opened is an error naming what was tried, not
// a crash.
func TestOpenLibMissing(t *testing.T) {
	err := openLib([]string{"libchorus-no-such-z3.so"})
	if err == nil || !strings.Contains(err.Error(), "libchorus-no-such-z3.so") {
		t.Fatalf("openLib of a missing library: %v", err)
	}
}

// A context made without libz3 fails every operation with its error:
// terms are invalid and Check reports the error (never sat or unsat).
func TestErroredContext(t *testing.T) {
	want := errors.New("z3: cannot load libz3 (test)")
	ctx := erroredContext(want)
	x := ctx.IntConst("x")
	s := NewSolver(ctx)
	s.Assert(x.GT(ctx.FromInt(1, ctx.IntSort()).(Int)))
	s.Push()
	if _, err := s.Check(); err == nil {
		t.Fatalf("Check on a context without libz3 succeeded")
	}
	s.Pop()
	if !errors.Is(ctx.Err(), want) && ctx.Err() != want {
		t.Fatalf("Err = %v, want %v", ctx.Err(), want)
	}
	ctx.Close()
}
