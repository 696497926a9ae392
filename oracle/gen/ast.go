package gen

// Prog is a generated program: globals, mutexes, thread templates and main.
type Prog struct {
	Seed        int64
	Globals     []*Var
	Mutexes     []string
	InitMutexes bool // main starts with pthread_mutex_init for each mutex
	// CustomLocks: the mutexes are int lock words taken and released by
	// __VERIFIER_atomic_acquire_M / __VERIFIER_atomic_release_M functions
	// (assume the word is 0 / 1, set it to 1 / 0), SV-COMP's idiom
	// (cfg/atomiclock.go lowers them as acquire/release).
	CustomLocks bool
	Threads     []*Func
	Main        *Func
	// Helpers are functions "int hN(int p0, ...)" called from main, the
	// threads and later helpers (Options.Calls; never recursive).
	Helpers []*Func
}

// Var is a variable with its initial value: an int, or an unsigned char
// when Byte (stores wrap modulo 256, exercising width and signedness).
type Var struct {
	Name string
	Init int64
	Byte bool
	// ThreadLocal (globals only): declared __thread, one instance per
	// thread starting at Init (prec.go).
	ThreadLocal bool
}

// Func is main or a thread template (void *name(void *arg)). A template
// with ArgPtr starts with "int *a = (int *)arg;" and reads and writes the
// int global its spawner passed through ArgDeref; its spawns pass &Arg.
type Func struct {
	Name   string
	Locals []*Var
	Body   []Stmt
	ArgPtr bool
	// Helpers only: the int parameters p0.. and the returned expression.
	Params []*Var
	Ret    Expr
}

// ArgDeref is the name under which expressions use *a (see Func.ArgPtr).
const ArgDeref = "(*a)"

// Stmt is a statement.
type Stmt interface{ isStmt() }

// Assign is LHS = RHS.
type Assign struct {
	LHS string
	RHS Expr
}

// Havoc is "Var = __VERIFIER_nondet_int(); __VERIFIER_assume(Lo <= Var &&
// Var <= Hi);" — always on a local, so no other thread sees the
// unconstrained value.
type Havoc struct {
	Var    string
	Lo, Hi int64
}

// Assume is __VERIFIER_assume(Cond).
type Assume struct{ Cond Expr }

// AssertForm selects how an assertion is written.
type AssertForm int

// Assertion spellings.
const (
	VerifierAssert AssertForm = iota // __VERIFIER_assert(c);
	PlainAssert                      // assert(c) as glibc expands it: ((c) ? (void)0 : __assert_fail(...));
	ReachError                       // if (!(c)) reach_error();
)

// Assert is an assertion of Cond.
type Assert struct {
	Cond Expr
	Form AssertForm
}

// If is if (Cond) Then else Else.
type If struct {
	Cond       Expr
	Then, Else []Stmt
}

// Loop is for (i = 0; i < Bound; i++) Body, the counter i being a fresh
// local per nesting depth that no expression reads.
type Loop struct {
	Bound int
	Body  []Stmt
}

// Lock is pthread_mutex_lock(m); Body; pthread_mutex_unlock(m), through a
// local pointer "pthread_mutex_t *p_m = &m;" when ViaPtr.
type Lock struct {
	Mutex  string
	ViaPtr bool
	Body   []Stmt
}

// Atomic is __VERIFIER_atomic_begin(); Body; __VERIFIER_atomic_end(), or,
// when AsFunc, a call of a function __VERIFIER_atomic_aN whose body is Body
// (then Body reads and writes only globals).
type Atomic struct {
	Body   []Stmt
	AsFunc bool
}

// Spawn creates Count instances of Thread: one pthread_create into the
// pthread_t Handle when Count == 1, else a loop over the array Handle. The
// argument is &Arg (an int global) when Arg is set, else 0.
type Spawn struct {
	Handle string
	Thread string
	Count  int
	Arg    string
}

// Join joins every instance created by the Spawn with the same Handle,
// or with Upto > 0 only the first Upto of a spawn loop's (joins.go).
type Join struct {
	Handle string
	Upto   int
}

// Call is "LHS = Func(Args...);" (just "Func(Args...);" when LHS is "")
// of a helper.
type Call struct {
	LHS  string
	Func string
	Args []Expr
}

func (*Assign) isStmt() {}
func (*Havoc) isStmt()  {}
func (*Assume) isStmt() {}
func (*Assert) isStmt() {}
func (*If) isStmt()     {}
func (*Loop) isStmt()   {}
func (*Lock) isStmt()   {}
func (*Atomic) isStmt() {}
func (*Spawn) isStmt()  {}
func (*Join) isStmt()   {}
func (*Call) isStmt()   {}

// Expr is an int expression (conditions are ints too, as in C).
type Expr interface{ isExpr() }

// Const is an integer literal.
type Const struct{ V int64 }

// Ref reads a variable.
type Ref struct{ Name string }

// Bin is a binary operation: + - * % < <= == != > >= && ||.
type Bin struct {
	Op   string
	L, R Expr
}

// Not is !X.
type Not struct{ X Expr }

func (*Const) isExpr() {}
func (*Ref) isExpr()   {}
func (*Bin) isExpr()   {}
func (*Not) isExpr()   {}

// Funcs returns main followed by the thread templates and the helpers.
func (p *Prog) Funcs() []*Func {
	return append(append([]*Func{p.Main}, p.Threads...), p.Helpers...)
}

// Helper returns the helper called name (nil if none).
func (p *Prog) Helper(name string) *Func {
	for _, h := range p.Helpers {
		if h.Name == name {
			return h
		}
	}
	return nil
}

// Walk calls f on every statement of every function in pre-order (main
// first, then the threads in order).
func (p *Prog) Walk(f func(fn *Func, s Stmt)) {
	for _, fn := range p.Funcs() {
		walkStmts(fn.Body, func(s Stmt) { f(fn, s) })
	}
}

func walkStmts(b []Stmt, f func(Stmt)) {
	for _, s := range b {
		f(s)
		for _, c := range children(s) {
			walkStmts(c, f)
		}
	}
}

// children returns the nested blocks of s.
func children(s Stmt) [][]Stmt {
	switch s := s.(type) {
	case *If:
		return [][]Stmt{s.Then, s.Else}
	case *Loop:
		return [][]Stmt{s.Body}
	case *Lock:
		return [][]Stmt{s.Body}
	case *Atomic:
		return [][]Stmt{s.Body}
	}
	return nil
}

// Exprs returns the expressions s contains directly (not in nested blocks).
func Exprs(s Stmt) []Expr {
	switch s := s.(type) {
	case *Assign:
		return []Expr{&Ref{s.LHS}, s.RHS}
	case *Havoc:
		return []Expr{&Ref{s.Var}}
	case *Assume:
		return []Expr{s.Cond}
	case *Assert:
		return []Expr{s.Cond}
	case *If:
		return []Expr{s.Cond}
	case *Spawn:
		if s.Arg != "" {
			return []Expr{&Ref{s.Arg}}
		}
	case *Call:
		out := append([]Expr(nil), s.Args...)
		if s.LHS != "" {
			out = append(out, &Ref{s.LHS}) // last: shrinking never edits it
		}
		return out
	}
	return nil
}

// Refs returns the names of the variables e reads.
func Refs(e Expr) []string {
	var out []string
	var rec func(Expr)
	rec = func(e Expr) {
		switch e := e.(type) {
		case *Ref:
			out = append(out, e.Name)
		case *Bin:
			rec(e.L)
			rec(e.R)
		case *Not:
			rec(e.X)
		}
	}
	rec(e)
	return out
}

// Clone returns a deep copy of p.
func (p *Prog) Clone() *Prog {
	q := &Prog{Seed: p.Seed, InitMutexes: p.InitMutexes, CustomLocks: p.CustomLocks, Mutexes: append([]string(nil), p.Mutexes...)}
	q.Globals = cloneVars(p.Globals)
	q.Main = cloneFunc(p.Main)
	for _, t := range p.Threads {
		q.Threads = append(q.Threads, cloneFunc(t))
	}
	for _, h := range p.Helpers {
		q.Helpers = append(q.Helpers, cloneFunc(h))
	}
	return q
}

func cloneVars(vs []*Var) []*Var {
	out := make([]*Var, len(vs))
	for i, v := range vs {
		c := *v
		out[i] = &c
	}
	return out
}

func cloneFunc(f *Func) *Func {
	c := &Func{Name: f.Name, Locals: cloneVars(f.Locals), Body: cloneBlock(f.Body), ArgPtr: f.ArgPtr, Params: cloneVars(f.Params)}
	if f.Ret != nil {
		c.Ret = cloneExpr(f.Ret)
	}
	return c
}

func cloneBlock(b []Stmt) []Stmt {
	if b == nil {
		return nil
	}
	out := make([]Stmt, len(b))
	for i, s := range b {
		out[i] = cloneStmt(s)
	}
	return out
}

func cloneStmt(s Stmt) Stmt {
	switch s := s.(type) {
	case *Assign:
		return &Assign{s.LHS, cloneExpr(s.RHS)}
	case *Havoc:
		c := *s
		return &c
	case *Assume:
		return &Assume{cloneExpr(s.Cond)}
	case *Assert:
		return &Assert{cloneExpr(s.Cond), s.Form}
	case *If:
		return &If{cloneExpr(s.Cond), cloneBlock(s.Then), cloneBlock(s.Else)}
	case *Loop:
		return &Loop{s.Bound, cloneBlock(s.Body)}
	case *Lock:
		return &Lock{s.Mutex, s.ViaPtr, cloneBlock(s.Body)}
	case *Atomic:
		return &Atomic{cloneBlock(s.Body), s.AsFunc}
	case *Spawn:
		c := *s
		return &c
	case *Join:
		c := *s
		return &c
	case *Call:
		c := &Call{LHS: s.LHS, Func: s.Func}
		for _, a := range s.Args {
			c.Args = append(c.Args, cloneExpr(a))
		}
		return c
	}
	panic("gen: unknown statement")
}

func cloneExpr(e Expr) Expr {
	switch e := e.(type) {
	case *Const:
		return &Const{e.V}
	case *Ref:
		return &Ref{e.Name}
	case *Bin:
		return &Bin{e.Op, cloneExpr(e.L), cloneExpr(e.R)}
	case *Not:
		return &Not{cloneExpr(e.X)}
	}
	panic("gen: unknown expression")
}
