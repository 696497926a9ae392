package z3

/*
#include <z3.h>
*/
import "C"

import (
	"errors"
	"strings"
)

// ErrTimeout matches (with errors.Is) the *ErrSatUnknown a Check returns when
// it ran out of time or was stopped by Context.Interrupt.
var ErrTimeout = errors.New("z3: timeout")

// ErrSatUnknown is returned by Check when Z3 could not decide the query.
type ErrSatUnknown struct {
	// Reason is Z3's explanation, e.g. "timeout" or "canceled".
	Reason string
}

func (e *ErrSatUnknown) Error() string { return "z3: unknown: " + e.Reason }

// Is makes errors.Is(err, ErrTimeout) hold for timeouts and interrupts.
func (e *ErrSatUnknown) Is(target error) bool {
	return target == ErrTimeout &&
		(strings.Contains(e.Reason, "timeout") || strings.Contains(e.Reason, "canceled") ||
			strings.Contains(e.Reason, "interrupted"))
}

// Solver is a stack of assertions checked together.
type Solver struct {
	ctx *Context
	c   C.Z3_solver
}

// NewSolver returns an empty solver of ctx.
func NewSolver(ctx *Context) *Solver {
	s := &Solver{ctx: ctx}
	if !ctx.ok() {
		return s
	}
	c := C.Z3_mk_solver(ctx.h.c)
	if !ctx.check("mk_solver") || c == nil {
		return s
	}
	C.Z3_solver_inc_ref(ctx.h.c, c)
	ctx.h.solvers = append(ctx.h.solvers, c)
	s.c = c
	return s
}

func (s *Solver) ok() bool {
	if s.c == nil && s.ctx.h.err == nil {
		s.ctx.fail(errors.New("z3: invalid solver"))
	}
	return s.c != nil && s.ctx.ok()
}

// Assert adds b to the current scope.
func (s *Solver) Assert(b Bool) {
	if !s.ok() || operands("assert", value(b)) != s.ctx {
		s.ctx.fail(errors.New("z3: Assert: invalid term or context"))
		return
	}
	C.Z3_solver_assert(s.ctx.h.c, s.c, b.c)
	s.ctx.check("solver_assert")
}

// Push opens a scope.
func (s *Solver) Push() {
	if s.ok() {
		C.Z3_solver_push(s.ctx.h.c, s.c)
		s.ctx.check("solver_push")
	}
}

// Pop drops the assertions made since the matching Push. Popping more
// scopes than were pushed records an error in the Context.
func (s *Solver) Pop() {
	if s.ok() {
		if C.Z3_solver_get_num_scopes(s.ctx.h.c, s.c) == 0 {
			s.ctx.fail(errors.New("z3: Pop without Push"))
			return
		}
		C.Z3_solver_pop(s.ctx.h.c, s.c, 1)
		s.ctx.check("solver_pop")
	}
}

// Reset removes all assertions and scopes.
func (s *Solver) Reset() {
	if s.ok() {
		C.Z3_solver_reset(s.ctx.h.c, s.c)
		s.ctx.check("solver_reset")
	}
}

// Check decides the conjunction of the assertions. It returns
// (true, nil) for sat, (false, nil) for unsat, (false, *ErrSatUnknown) when
// Z3 gives up (errors.Is(err, ErrTimeout) for timeouts), and
// (false, Context.Err()) after an error. Callers that need soundness must
// treat every error as "don't know", never as unsat.
func (s *Solver) Check() (sat bool, err error) {
	if !s.ok() {
		return false, s.ctx.h.err
	}
	end := s.ctx.h.beginCheck()
	r := C.Z3_solver_check(s.ctx.h.c, s.c)
	timedOut := end()
	if !s.ctx.check("solver_check") {
		return false, s.ctx.h.err
	}
	switch r {
	case C.Z3_L_TRUE:
		return true, nil
	case C.Z3_L_FALSE:
		return false, nil
	}
	if timedOut {
		return false, &ErrSatUnknown{Reason: "timeout"}
	}
	return false, &ErrSatUnknown{Reason: C.GoString(C.Z3_solver_get_reason_unknown(s.ctx.h.c, s.c))}
}

// Model returns the model of the last Check, which must have returned sat;
// otherwise it records an error and returns an invalid model.
func (s *Solver) Model() *Model {
	m := &Model{ctx: s.ctx}
	if !s.ok() {
		return m
	}
	c := C.Z3_solver_get_model(s.ctx.h.c, s.c)
	if !s.ctx.check("solver_get_model") || c == nil {
		return m
	}
	C.Z3_model_inc_ref(s.ctx.h.c, c)
	s.ctx.h.models = append(s.ctx.h.models, c)
	m.c = c
	return m
}

// Model assigns values to the constants of a satisfiable query.
type Model struct {
	ctx *Context
	c   C.Z3_model
}

// Eval evaluates val in m. With completion, constants m does not mention get
// a default value, so the result is a literal. Eval returns nil if val cannot
// be evaluated.
func (m *Model) Eval(val Value, completion bool) Value {
	v := val.impl()
	if m.c == nil || operands("eval", v) != m.ctx {
		return nil
	}
	var out C.Z3_ast
	if !bool(C.Z3_model_eval(m.ctx.h.c, m.c, v.c, C.bool(completion), &out)) || !m.ctx.check("model_eval") {
		return nil
	}
	r := m.ctx.wrapAST("model_eval", out)
	if r.c == nil {
		return nil
	}
	return lift(r, r.Sort().kind)
}

// String returns the model in Z3's text form.
func (m *Model) String() string {
	if m.c == nil || !m.ctx.ok() {
		return "<invalid model>"
	}
	return C.GoString(C.Z3_model_to_string(m.ctx.h.c, m.c))
}
