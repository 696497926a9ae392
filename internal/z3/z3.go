// Package z3 is a thin cgo binding to libz3 (written from z3.h, tested with
// Z3 4.8.12), covering what chorus needs: integer and boolean terms, solvers
// with push/pop, timeouts, and models.
//
// It owns only internal/z3 and touches no other package. Its API mirrors the
// shape of github.com/aclements/go-z3 (Config, Context, Sort, Value, Int, Bool,
// Solver, Model, ErrSatUnknown) so that module can replace this one later.
// Extensions beyond go-z3: Context.Close, Context.Err, Context.SetTimeout,
// Context.True/False, ErrTimeout, Value.Valid.
//
// # Memory
//
// A Context is created with Z3_mk_context_rc, and this package keeps an arena
// per Context: every Z3 object it hands out (AST, sort, solver, model) gets one
// Z3 reference when wrapped, and the Context remembers it; Context.Close drops
// all those references and deletes the Z3 context. We chose this over
//   - Z3_mk_context (non-rc): there an AST's lifetime is tied to the
//     push/pop scope it was created in, so a term built after Push and reused
//     after Pop would dangle — an easy mistake for a caller that caches terms;
//   - per-value finalizers/cleanups (go-z3's way): they run on another
//     goroutine, so every Z3 call would need a lock, and a cleanup running
//     after Close would touch freed memory.
//
// The cost is that memory grows with the number of terms built in one
// Context until Close; Z3 hash-conses terms, so rebuilding the same term adds
// only a slice entry. Long-running clients should use a Context per batch of
// queries and Close it. A runtime cleanup on the Context frees a forgotten,
// unreachable one.
//
// # Loading
//
// libz3 is not linked: it is opened with dlopen at the first NewContext
// (load.go; load.c forwards each Z3 function the package calls). A chorus
// process that never makes a Context (most do not) pays nothing for Z3 at
// start-up. Without libz3, NewContext returns a context in error.
//
// # Timeouts
//
// The "timeout" parameter is NOT passed to Z3. Z3 4.8.10-4.8.12 (Debian's
// libz3 4.8.12 included) implement it with a pooled timer thread that
// deadlocks the next timed check after one timer has expired (Z3 PR #5371;
// reproduced here: the second Check hangs forever in Z3_solver_check). This
// package instead arms a Go timer per Check that calls Z3_interrupt, which
// needs no Z3 timer thread. An interrupt is only delivered while the Check
// that armed it is still running (a generation counter under a mutex), so a
// late timer cannot cancel a later query.
//
// # Concurrency
//
// A Context and everything made from it are for one goroutine at a time (Z3
// contexts are not thread-safe); use one Context per goroutine. Only
// Context.Interrupt may be called from another goroutine.
//
// # Errors
//
// The Z3 error handler is switched off (Z3_set_error_handler(c, NULL)), so Z3
// never aborts the process; after each call the error code is read, and the
// first error is kept in the Context (like bufio.Scanner): Context.Err
// returns it, Solver.Check reports it, and terms built after it, or from
// invalid operands (zero values, values of another or a closed Context), are
// invalid placeholders that are never passed to Z3. Term constructors keep the
// fluent go-z3 shape and never panic.
package z3

/*
#include <stdlib.h>
#include <z3.h>
*/
import "C"

import (
	"errors"
	"fmt"
	"math/big"
	"runtime"
	"strconv"
	"sync"
	"time"
	"unsafe"
)

// Config holds parameters for NewContext (see Z3_mk_config for the names).
type Config struct {
	params map[string]string
}

// NewContextConfig returns an empty configuration. Useful parameters:
// "timeout" (uint, milliseconds, per solver check; see Timeouts in the
// package comment), "model" (bool), "rlimit" (uint, deterministic budget).
func NewContextConfig() *Config { return &Config{params: map[string]string{}} }

// Set sets a parameter to a raw string value.
func (c *Config) Set(name, value string) { c.params[name] = value }

// SetUint sets an unsigned parameter, e.g. SetUint("timeout", 100).
func (c *Config) SetUint(name string, value uint) {
	c.params[name] = strconv.FormatUint(uint64(value), 10)
}

// SetBool sets a boolean parameter.
func (c *Config) SetBool(name string, value bool) { c.params[name] = strconv.FormatBool(value) }

// Context is an environment for building terms and solving. See the package
// comment for its memory and goroutine rules.
type Context struct {
	h        *handle
	intSort  Sort
	boolSort Sort
	syms     map[string]C.Z3_symbol
}

// handle is the part of a Context that owns C memory; it is separate so a
// runtime cleanup attached to the Context can free it.
type handle struct {
	// mu guards c and checkGen against the timer goroutine and Interrupt;
	// everything else is used by the owning goroutine only.
	mu       sync.Mutex
	c        C.Z3_context
	checkGen uint64 // changes at the start and end of each timed Check
	timeout  time.Duration
	asts     []C.Z3_ast
	solvers  []C.Z3_solver
	models   []C.Z3_model
	err      error
}

func (h *handle) free() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.c == nil {
		return
	}
	for _, m := range h.models {
		C.Z3_model_dec_ref(h.c, m)
	}
	for _, s := range h.solvers {
		C.Z3_solver_dec_ref(h.c, s)
	}
	for _, a := range h.asts {
		C.Z3_dec_ref(h.c, a)
	}
	C.Z3_del_context(h.c)
	h.c, h.asts, h.solvers, h.models = nil, nil, nil, nil
}

// NewContext returns a new context. config may be nil. Without libz3
// (load.go) the context is made in error: Err reports it.
func NewContext(config *Config) *Context {
	if err := load(); err != nil {
		return erroredContext(err)
	}
	cfg := C.Z3_mk_config()
	var timeout time.Duration
	var badTimeout error
	if config != nil {
		for k, v := range config.params {
			if k == "timeout" { // see Timeouts in the package comment
				ms, err := strconv.ParseUint(v, 10, 32)
				if err != nil {
					badTimeout = fmt.Errorf("z3: bad timeout %q", v)
				}
				timeout = time.Duration(ms) * time.Millisecond
				continue
			}
			ck, cv := C.CString(k), C.CString(v)
			C.Z3_set_param_value(cfg, ck, cv)
			C.free(unsafe.Pointer(ck))
			C.free(unsafe.Pointer(cv))
		}
	}
	h := &handle{c: C.Z3_mk_context_rc(cfg), timeout: timeout}
	C.Z3_del_config(cfg)
	if badTimeout != nil {
		h.err = badTimeout
	}
	if h.c == nil {
		h.err = errors.New("z3: cannot create context (bad config?)")
	} else {
		C.Z3_set_error_handler(h.c, nil)
	}
	ctx := &Context{h: h, syms: map[string]C.Z3_symbol{}}
	runtime.AddCleanup(ctx, func(h *handle) { h.free() }, h)
	ctx.intSort = ctx.wrapSort(func(c C.Z3_context) C.Z3_sort { return C.Z3_mk_int_sort(c) })
	ctx.boolSort = ctx.wrapSort(func(c C.Z3_context) C.Z3_sort { return C.Z3_mk_bool_sort(c) })
	return ctx
}

// erroredContext is a context that could not be made: every operation on
// it fails with err (terms are invalid, Check returns err).
func erroredContext(err error) *Context {
	ctx := &Context{h: &handle{err: err}, syms: map[string]C.Z3_symbol{}}
	ctx.intSort, ctx.boolSort = Sort{ctx: ctx}, Sort{ctx: ctx}
	return ctx
}

// Close releases all Z3 memory of ctx. Every value, solver and model made
// from ctx becomes invalid. Close is idempotent.
func (ctx *Context) Close() {
	ctx.h.free()
	if ctx.h.err == nil {
		ctx.h.err = errors.New("z3: context closed")
	}
}

// Err returns the first error that occurred in ctx, or nil.
func (ctx *Context) Err() error { return ctx.h.err }

// Interrupt stops a running Check of ctx. It is the one method that may be
// called from another goroutine.
func (ctx *Context) Interrupt() {
	h := ctx.h
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.c != nil {
		C.Z3_interrupt(h.c)
	}
}

// SetTimeout changes the per-Check timeout of ctx ("timeout" in Config); 0
// means none. (go-z3 does this through Context.Config.)
func (ctx *Context) SetTimeout(ms uint) {
	ctx.h.timeout = time.Duration(ms) * time.Millisecond
}

// interruptIfRunning interrupts the Check numbered gen if it still runs.
//
// An interrupt that lands before Z3 has entered the check is lost (the
// check clears its cancel flag when it starts; seen as a hang of a 1 ms
// timeout on a loaded machine), so it keeps interrupting, every retry
// (doubling up to 100 ms), until that Check has ended.
func (h *handle) interruptIfRunning(gen uint64, fired *bool, retry time.Duration) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.c == nil || h.checkGen != gen {
		return
	}
	*fired = true
	C.Z3_interrupt(h.c)
	next := min(2*retry, 100*time.Millisecond)
	time.AfterFunc(retry, func() { h.interruptIfRunning(gen, fired, next) })
}

// beginCheck arms the timeout for a Check; the returned func disarms it and
// reports whether the timeout interrupted the Check.
func (h *handle) beginCheck() (end func() (timedOut bool)) {
	if h.timeout <= 0 {
		return func() bool { return false }
	}
	h.mu.Lock()
	h.checkGen++
	gen := h.checkGen
	h.mu.Unlock()
	var fired bool // guarded by h.mu
	t := time.AfterFunc(h.timeout, func() { h.interruptIfRunning(gen, &fired, time.Millisecond) })
	return func() bool {
		t.Stop()
		h.mu.Lock()
		defer h.mu.Unlock()
		h.checkGen++
		return fired
	}
}

// ok reports whether ctx can take more calls.
func (ctx *Context) ok() bool { return ctx.h.c != nil && ctx.h.err == nil }

// fail records err as ctx's error unless one is already recorded.
func (ctx *Context) fail(err error) {
	if ctx.h.err == nil {
		ctx.h.err = err
	}
}

// check reads Z3's error code after a call and records an error.
func (ctx *Context) check(op string) bool {
	code := C.Z3_get_error_code(ctx.h.c)
	if code == C.Z3_OK {
		return true
	}
	msg := C.GoString(C.Z3_get_error_msg(ctx.h.c, code))
	ctx.fail(fmt.Errorf("z3: %s: %s (error code %d)", op, msg, int(code)))
	return false
}

// wrapAST takes a reference to a freshly returned AST.
func (ctx *Context) wrapAST(op string, a C.Z3_ast) value {
	if !ctx.check(op) || a == nil {
		ctx.fail(fmt.Errorf("z3: %s returned no term", op))
		return value{ctx: ctx}
	}
	C.Z3_inc_ref(ctx.h.c, a)
	ctx.h.asts = append(ctx.h.asts, a)
	return value{ctx: ctx, c: a}
}

func (ctx *Context) wrapSort(mk func(C.Z3_context) C.Z3_sort) Sort {
	if !ctx.ok() {
		return Sort{ctx: ctx}
	}
	s := mk(ctx.h.c)
	v := ctx.wrapAST("mk_sort", C.Z3_sort_to_ast(ctx.h.c, s))
	if v.c == nil {
		return Sort{ctx: ctx}
	}
	return Sort{ctx: ctx, c: s, kind: SortKind(C.Z3_get_sort_kind(ctx.h.c, s))}
}

func (ctx *Context) symbol(name string) C.Z3_symbol {
	if s, ok := ctx.syms[name]; ok {
		return s
	}
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	s := C.Z3_mk_string_symbol(ctx.h.c, cname)
	ctx.syms[name] = s
	return s
}

// Sort is the type of a term.
type Sort struct {
	ctx  *Context
	c    C.Z3_sort
	kind SortKind
}

// SortKind is the category of a sort.
type SortKind int

// Sort kinds this package builds values for.
const (
	SortBool    = SortKind(C.Z3_BOOL_SORT)
	SortInt     = SortKind(C.Z3_INT_SORT)
	SortUnknown = SortKind(C.Z3_UNKNOWN_SORT)
)

// Kind returns s's kind.
func (s Sort) Kind() SortKind { return s.kind }

// IntSort returns the sort of mathematical integers.
func (ctx *Context) IntSort() Sort { return ctx.intSort }

// BoolSort returns the boolean sort.
func (ctx *Context) BoolSort() Sort { return ctx.boolSort }

// Const returns the constant called name of the given sort (the same name
// and sort give the same constant). The result is an Int or a Bool.
func (ctx *Context) Const(name string, sort Sort) Value {
	if !ctx.ok() || sort.c == nil || sort.ctx != ctx {
		ctx.fail(errors.New("z3: Const: invalid sort or context"))
		return lift(value{ctx: ctx}, sort.kind)
	}
	return lift(ctx.wrapAST("mk_const", C.Z3_mk_const(ctx.h.c, ctx.symbol(name), sort.c)), sort.kind)
}

// IntConst returns the integer constant called name.
func (ctx *Context) IntConst(name string) Int { return ctx.Const(name, ctx.intSort).(Int) }

// BoolConst returns the boolean constant called name.
func (ctx *Context) BoolConst(name string) Bool { return ctx.Const(name, ctx.boolSort).(Bool) }

// FromInt returns the literal val of sort (which must be the int sort here).
func (ctx *Context) FromInt(val int64, sort Sort) Value {
	if !ctx.ok() || sort.c == nil || sort.ctx != ctx {
		ctx.fail(errors.New("z3: FromInt: invalid sort or context"))
		return lift(value{ctx: ctx}, sort.kind)
	}
	return lift(ctx.wrapAST("mk_int64", C.Z3_mk_int64(ctx.h.c, C.int64_t(val), sort.c)), sort.kind)
}

// FromBigInt returns the literal val of sort (the int sort here).
func (ctx *Context) FromBigInt(val *big.Int, sort Sort) Value {
	if !ctx.ok() || sort.c == nil || sort.ctx != ctx || val == nil {
		ctx.fail(errors.New("z3: FromBigInt: invalid value, sort or context"))
		return lift(value{ctx: ctx}, sort.kind)
	}
	cs := C.CString(val.Text(10))
	defer C.free(unsafe.Pointer(cs))
	return lift(ctx.wrapAST("mk_numeral", C.Z3_mk_numeral(ctx.h.c, cs, sort.c)), sort.kind)
}

// FromBool returns the literal true or false.
func (ctx *Context) FromBool(val bool) Bool {
	if !ctx.ok() {
		return Bool{ctx: ctx}
	}
	if val {
		return Bool(ctx.wrapAST("mk_true", C.Z3_mk_true(ctx.h.c)))
	}
	return Bool(ctx.wrapAST("mk_false", C.Z3_mk_false(ctx.h.c)))
}

// True returns the literal true.
func (ctx *Context) True() Bool { return ctx.FromBool(true) }

// False returns the literal false.
func (ctx *Context) False() Bool { return ctx.FromBool(false) }
