package gen

import (
	"fmt"
	"math/rand/v2"
	"slices"
)

// Options bound the generated programs. Zero fields take the defaults in
// brackets; the counts are maxima, each program draws its own.
type Options struct {
	Globals       int  // globals, at least 1 [3]
	Mutexes       int  // mutexes [2]
	Threads       int  // thread templates, at least 1 [2]
	Locals        int  // locals per function [2]
	MaxStmts      int  // statements per block, at least 1 [4]
	MaxDepth      int  // nesting of if/for/lock/atomic [2]
	MaxLoopBound  int  // for-loop bounds and spawn counts [2]
	MaxInstances  int  // thread instances created in total, upper bound [4]
	MaxConst      int  // |constants|, initial values and nondet ranges [3]
	Modulus       int  // two-variable sums and products are reduced % Modulus [8]
	AllowOverflow bool // also emit unreduced var*var and +2147483000 (signed overflow possible)
	IntOnly       bool // no unsigned char variables
	// Calls: up to this many helper functions "int hN(int p0, ...)" (0:
	// none, and the random draws of the other parts are unchanged), called
	// from main, the threads and later helpers with varying arguments.
	Calls int
	// Joins varies main's join loops (joins.go): some stop short of the
	// spawn loop's count, so the join-all rule (cfg/joinall.go) meets both
	// loops it must accept and loops it must refuse (false: the random
	// draws of the other parts are unchanged).
	Joins bool
}

func (o Options) withDefaults() Options {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&o.Globals, 3)
	if o.Mutexes < 0 {
		o.Mutexes = 0
	} else if o.Mutexes == 0 {
		o.Mutexes = 2
	}
	def(&o.Threads, 2)
	if o.Locals < 0 {
		o.Locals = 0
	} else if o.Locals == 0 {
		o.Locals = 2
	}
	def(&o.MaxStmts, 4)
	def(&o.MaxDepth, 2)
	def(&o.MaxLoopBound, 2)
	def(&o.MaxInstances, 4)
	def(&o.MaxConst, 3)
	def(&o.Modulus, 8)
	return o
}

// Generate returns the program for seed; the same seed and options always
// give the same program.
func Generate(seed int64, opts Options) *Prog {
	o := opts.withDefaults()
	g := &generator{
		r:         rand.New(rand.NewPCG(uint64(seed), 0x9e3779b97f4a7c15)),
		o:         o,
		instances: map[string]int{},
	}
	p := &Prog{Seed: seed}
	g.p = p
	for i := range 1 + g.r.IntN(o.Globals) {
		p.Globals = append(p.Globals, g.newVar(fmt.Sprintf("g%d", i)))
	}
	for i := range g.r.IntN(o.Mutexes + 1) {
		p.Mutexes = append(p.Mutexes, fmt.Sprintf("m%d", i))
	}
	p.InitMutexes = len(p.Mutexes) > 0 && g.r.IntN(2) == 0
	// Decided by the seed, not drawn: the other draws stay as they were.
	p.CustomLocks = len(p.Mutexes) > 0 && seed%4 == 3
	if len(p.Mutexes) > 0 && len(p.Globals) >= 2 && g.r.IntN(2) == 0 {
		// A lock-protected global: written only while its mutex is held
		// (analysis: interference/protect.go).
		g.guard = map[string]string{p.Globals[len(p.Globals)-1].Name: p.Mutexes[0]}
	}
	g.markThreadLocal(seed)
	nThreads := min(1+g.r.IntN(o.Threads), o.MaxInstances)
	for i := range nThreads {
		t := &Func{Name: fmt.Sprintf("thr%d", i)}
		t.ArgPtr = len(g.intGlobals()) > 0 && g.r.IntN(3) == 0
		p.Threads = append(p.Threads, t)
	}
	for i := range g.o.Calls {
		if i > 0 && g.r.IntN(2) == 0 {
			break
		}
		g.genHelper(i)
	}
	p.Main = &Func{Name: "main"}
	g.genMain()
	for i, t := range p.Threads {
		g.genThread(t, i)
	}
	return p
}

type generator struct {
	r         *rand.Rand
	o         Options
	p         *Prog
	handles   int
	instances map[string]int    // thread template -> upper bound of instances
	total     int               // sum of instances
	guard     map[string]string // protected global -> the mutex held at every write
	rmw       int               // read-modify-writes under a mutex so far
}

// scope is where a statement is generated.
type scope struct {
	fn       *Func
	depth    int
	inAtomic bool
	held     map[string]bool
}

func (g *generator) smallConst() int64 {
	return int64(g.r.IntN(2*g.o.MaxConst+1) - g.o.MaxConst)
}

// newVar returns an int, or (one in five) an unsigned char starting near 0
// or near 255 so that stores wrap around.
func (g *generator) newVar(name string) *Var {
	if !g.o.IntOnly && g.r.IntN(5) == 0 {
		init := int64(g.r.IntN(g.o.MaxConst + 1))
		if g.r.IntN(2) == 0 {
			init = 255 - init
		}
		return &Var{Name: name, Init: init, Byte: true}
	}
	return &Var{Name: name, Init: g.smallConst()}
}

func (g *generator) posConst() int64 { return int64(1 + g.r.IntN(g.o.MaxConst)) }

func (g *generator) addLocals(fn *Func) {
	for i := range g.r.IntN(g.o.Locals + 1) {
		fn.Locals = append(fn.Locals, g.newVar(fmt.Sprintf("l%d", i)))
	}
}

func (g *generator) intGlobals() []string {
	var out []string
	for _, v := range g.p.Globals {
		if !v.Byte {
			out = append(out, v.Name)
		}
	}
	return out
}

// argFor picks the global whose address a spawn of t passes ("" for none).
func (g *generator) argFor(t *Func) string {
	if !t.ArgPtr {
		return ""
	}
	ints := g.intGlobals()
	return ints[g.r.IntN(len(ints))]
}

func (g *generator) newHandle() string {
	h := fmt.Sprintf("t%d", g.handles)
	g.handles++
	return h
}

// genMain: statements, a spawn of every template (some in loops) mixed with
// statements, more statements, joins of some spawns, final statements.
func (g *generator) genMain() {
	fn := g.p.Main
	g.addLocals(fn)
	sc := scope{fn: fn, held: map[string]bool{}}
	fn.Body = append(fn.Body, g.block(sc, g.r.IntN(3))...)
	budget := g.o.MaxInstances - len(g.p.Threads) // beyond one per template
	var spawns []*Spawn
	for _, t := range g.p.Threads {
		n := 1
		if budget > 0 && g.r.IntN(2) == 0 {
			n = 1 + g.r.IntN(min(g.o.MaxLoopBound, budget+1))
			budget -= n - 1
		}
		s := &Spawn{Handle: g.newHandle(), Thread: t.Name, Count: n, Arg: g.argFor(t)}
		spawns = append(spawns, s)
		g.instances[t.Name] += n
		g.total += n
		fn.Body = append(fn.Body, s)
		fn.Body = append(fn.Body, g.block(sc, g.r.IntN(2))...)
	}
	fn.Body = append(fn.Body, g.block(sc, g.r.IntN(3))...)
	for _, s := range spawns {
		if g.r.IntN(3) > 0 {
			fn.Body = append(fn.Body, &Join{Handle: s.Handle})
		}
	}
	if g.o.Joins {
		g.varyJoins(fn, spawns)
	}
	fn.Body = append(fn.Body, g.block(sc, g.r.IntN(3))...)
	for range 1 + g.r.IntN(2) { // main's final view is the most telling
		fn.Body = append(fn.Body, g.assert(sc))
	}
}

// genThread: a block, maybe with a spawn (and join) of a later template.
func (g *generator) genThread(fn *Func, index int) {
	g.addLocals(fn)
	sc := scope{fn: fn, held: map[string]bool{}}
	fn.Body = g.block(sc, 1+g.r.IntN(g.o.MaxStmts))
	mine := g.instances[fn.Name]
	if index+1 < len(g.p.Threads) && g.total+mine <= g.o.MaxInstances && g.r.IntN(3) == 0 {
		child := g.p.Threads[index+1+g.r.IntN(len(g.p.Threads)-index-1)]
		s := &Spawn{Handle: g.newHandle(), Thread: child.Name, Count: 1, Arg: g.argFor(child)}
		g.instances[child.Name] += mine
		g.total += mine
		at := g.r.IntN(len(fn.Body) + 1)
		rest := append([]Stmt{s}, fn.Body[at:]...)
		if g.r.IntN(2) == 0 {
			rest = append(rest, &Join{Handle: s.Handle})
		}
		fn.Body = append(fn.Body[:at:at], rest...)
	}
}

// genHelper makes "int hN(int p0, ...)": locals, a block that takes no
// lock (a caller may hold any mutex: no self-deadlock), spawns nothing and
// calls only earlier helpers, and a returned expression.
func (g *generator) genHelper(i int) {
	fn := &Func{Name: fmt.Sprintf("h%d", i)}
	for j := range 1 + g.r.IntN(2) {
		fn.Params = append(fn.Params, &Var{Name: fmt.Sprintf("p%d", j)})
	}
	g.addLocals(fn)
	held := map[string]bool{}
	for _, m := range g.p.Mutexes {
		held[m] = true
	}
	sc := scope{fn: fn, held: held}
	fn.Body = g.block(sc, 1+g.r.IntN(g.o.MaxStmts))
	fn.Ret = g.assign(sc).(*Assign).RHS
	g.p.Helpers = append(g.p.Helpers, fn)
}

// call calls one of the helpers sc's function may call, storing the result
// in a variable or discarding it.
func (g *generator) call(sc scope, callable []*Func) Stmt {
	h := callable[g.r.IntN(len(callable))]
	c := &Call{Func: h.Name}
	vars := g.readable(sc)
	for range h.Params {
		if g.r.IntN(2) == 0 {
			c.Args = append(c.Args, g.pick(vars))
		} else {
			c.Args = append(c.Args, &Bin{"+", g.pick(vars), &Const{g.smallConst()}})
		}
	}
	if g.r.IntN(4) > 0 {
		c.LHS = g.assign(sc).(*Assign).LHS
	}
	return c
}

// callable lists the helpers fn may call (earlier helpers only, so there
// is no recursion).
func (g *generator) callable(fn *Func) []*Func {
	for i, h := range g.p.Helpers {
		if h == fn {
			return g.p.Helpers[:i]
		}
	}
	return g.p.Helpers
}

func (g *generator) block(sc scope, n int) []Stmt {
	var b []Stmt
	for range n {
		b = append(b, g.stmt(sc))
	}
	return b
}

func (g *generator) stmt(sc scope) Stmt {
	type choice struct {
		weight int
		ok     bool
		make   func() Stmt
	}
	nested := sc.depth < g.o.MaxDepth
	inner := sc
	inner.depth++
	free := g.freeMutexes(sc)
	callable := g.callable(sc.fn)
	choices := []choice{
		{20, len(callable) > 0, func() Stmt { return g.call(sc, callable) }},
		{30, true, func() Stmt { return g.assign(sc) }},
		{8, len(sc.fn.Locals) > 0, func() Stmt { return g.havoc(sc) }},
		{6, true, func() Stmt { return &Assume{Cond: g.globalCond()} }},
		{14, true, func() Stmt { return g.assert(sc) }},
		{10, nested, func() Stmt {
			s := &If{Cond: g.cond(sc), Then: g.block(inner, 1+g.r.IntN(g.o.MaxStmts))}
			if g.r.IntN(2) == 0 {
				s.Else = g.block(inner, 1+g.r.IntN(g.o.MaxStmts))
			}
			return s
		}},
		{6, nested, func() Stmt {
			return &Loop{Bound: 1 + g.r.IntN(g.o.MaxLoopBound), Body: g.block(inner, 1+g.r.IntN(g.o.MaxStmts))}
		}},
		{12, nested && !sc.inAtomic && len(free) > 0, func() Stmt {
			m := free[g.r.IntN(len(free))]
			in := inner
			in.held = map[string]bool{m: true}
			for h := range sc.held {
				in.held[h] = true
			}
			return &Lock{Mutex: m, ViaPtr: g.r.IntN(3) == 0, Body: g.block(in, 1+g.r.IntN(g.o.MaxStmts))}
		}},
		{10, nested && len(sc.fn.Locals) > 0, func() Stmt { return g.readModifyWrite(sc, inner, free) }},
		{6, nested && !sc.inAtomic, func() Stmt {
			in := inner
			in.inAtomic = true
			a := &Atomic{Body: g.block(in, 1+g.r.IntN(g.o.MaxStmts))}
			a.AsFunc = g.globalsOnly(a.Body) && g.r.IntN(2) == 0
			return a
		}},
	}
	total := 0
	for _, c := range choices {
		if c.ok {
			total += c.weight
		}
	}
	k := g.r.IntN(total)
	for _, c := range choices {
		if !c.ok {
			continue
		}
		if k < c.weight {
			return c.make()
		}
		k -= c.weight
	}
	panic("unreachable")
}

// readModifyWrite is a local copy of a global, the global written from the
// copy, and an assertion relating the two,
//
//	l = g; g = l + c; __VERIFIER_assert(g > l);
//
// under a mutex when one is free (always g's own mutex when g is
// protected), else as a one-iteration loop: the shape of a thread's
// locals related with globals (dfg/mixed.go) inside and outside critical
// sections.
func (g *generator) readModifyWrite(sc, inner scope, free []string) Stmt {
	l := sc.fn.Locals[g.r.IntN(len(sc.fn.Locals))].Name
	gv := g.p.Globals[g.r.IntN(len(g.p.Globals))].Name
	m, guarded := g.guard[gv]
	if guarded && !sc.held[m] && (sc.inAtomic || !slices.Contains(free, m)) {
		gv = g.p.Globals[0].Name
		guarded = false
	}
	ops := []string{">", ">=", "==", "!="}
	body := []Stmt{
		&Assign{l, &Ref{gv}},
		&Assign{gv, &Bin{"+", &Ref{l}, &Const{g.posConst()}}},
		&Assert{Cond: &Bin{ops[g.r.IntN(len(ops))], &Ref{gv}, &Ref{l}}, Form: VerifierAssert},
	}
	switch {
	case guarded && !sc.held[m]:
	case !sc.inAtomic && len(free) > 0 && g.r.IntN(3) != 0:
		m = free[g.r.IntN(len(free))]
	default:
		return &Loop{Bound: 1, Body: body}
	}
	in := inner
	in.held = map[string]bool{m: true}
	for h := range sc.held {
		in.held[h] = true
	}
	lock := &Lock{Mutex: m, ViaPtr: g.r.IntN(3) == 0, Body: body}
	// Every other one (counted, not drawn) asserts after the unlock: other
	// threads may have written g since, which only an analysis knowing
	// how g can move (analysis/monotone.go) may see through.
	g.rmw++
	if g.rmw%2 == 0 {
		lock.Body = body[:2]
		return &Loop{Bound: 1, Body: []Stmt{lock, body[2]}}
	}
	return lock
}

// globalsOnly reports whether b touches only globals (so it can be moved
// into a function of its own).
func (g *generator) globalsOnly(b []Stmt) bool {
	ok := true
	walkStmts(b, func(s Stmt) {
		for _, e := range Exprs(s) {
			for _, r := range Refs(e) {
				ok = ok && slices.ContainsFunc(g.p.Globals, func(v *Var) bool { return v.Name == r })
			}
		}
	})
	return ok
}

func (g *generator) freeMutexes(sc scope) []string {
	var out []string
	for _, m := range g.p.Mutexes {
		if !sc.held[m] {
			out = append(out, m)
		}
	}
	return out
}

// readable returns the variables sc's function may read.
func (g *generator) readable(sc scope) []string {
	var out []string
	for _, v := range g.p.Globals {
		out = append(out, v.Name)
	}
	for _, v := range sc.fn.Locals {
		out = append(out, v.Name)
	}
	for _, v := range sc.fn.Params {
		out = append(out, v.Name)
	}
	if sc.fn.ArgPtr {
		out = append(out, ArgDeref)
	}
	return out
}

func (g *generator) pick(names []string) *Ref { return &Ref{names[g.r.IntN(len(names))]} }

// assign: the right-hand side forms keep values small without overflow
// (see the package comment): c, y, y+c, y-c, and (y+z)%M, (y-z)%M, (y*c)%M.
func (g *generator) assign(sc scope) Stmt {
	vars := g.readable(sc)
	var lhs string
	switch k := g.r.IntN(8); {
	case k < 2 && len(sc.fn.Locals)+len(sc.fn.Params) > 0:
		ls := append(append([]*Var(nil), sc.fn.Locals...), sc.fn.Params...)
		lhs = ls[g.r.IntN(len(ls))].Name
	case k == 2 && sc.fn.ArgPtr:
		lhs = ArgDeref
	default:
		lhs = g.p.Globals[g.r.IntN(len(g.p.Globals))].Name
		if m, ok := g.guard[lhs]; ok && !sc.held[m] {
			lhs = g.p.Globals[0].Name // unguarded (the guarded one is the last)
		}
	}
	mod := func(e Expr) Expr { return &Bin{"%", e, &Const{int64(g.o.Modulus)}} }
	var rhs Expr
	k := g.r.IntN(10)
	if g.o.AllowOverflow && k == 0 {
		if g.r.IntN(2) == 0 {
			rhs = &Bin{"*", g.pick(vars), g.pick(vars)}
		} else {
			rhs = &Bin{"+", g.pick(vars), &Const{2147483000}}
		}
		return &Assign{lhs, rhs}
	}
	switch k {
	case 0:
		rhs = &Const{g.smallConst()}
	case 1:
		rhs = g.pick(vars)
	case 2, 3, 4:
		rhs = &Bin{"+", g.pick(vars), &Const{g.posConst()}}
	case 5, 6:
		rhs = &Bin{"-", g.pick(vars), &Const{g.posConst()}}
	case 7:
		rhs = mod(&Bin{"+", g.pick(vars), g.pick(vars)})
	case 8:
		rhs = mod(&Bin{"-", g.pick(vars), g.pick(vars)})
	default:
		rhs = mod(&Bin{"*", g.pick(vars), &Const{g.smallConst()}})
	}
	return &Assign{lhs, rhs}
}

func (g *generator) havoc(sc scope) Stmt {
	v := sc.fn.Locals[g.r.IntN(len(sc.fn.Locals))]
	lo := g.smallConst()
	if v.Byte {
		lo = abs(lo)
	}
	hi := lo + int64(g.r.IntN(3))
	return &Havoc{Var: v.Name, Lo: lo, Hi: min(hi, int64(g.o.MaxConst))}
}

var cmpOps = []string{"<", "<=", "==", "!=", ">", ">="}

func (g *generator) cmp(vars []string) Expr {
	op := cmpOps[g.r.IntN(len(cmpOps))]
	if len(vars) > 1 && g.r.IntN(4) == 0 {
		i := g.r.IntN(len(vars))
		j := (i + 1 + g.r.IntN(len(vars)-1)) % len(vars) // j != i
		return &Bin{op, &Ref{vars[i]}, &Ref{vars[j]}}
	}
	// Constants slightly beyond the initial range make some assertions
	// true and some false.
	c := int64(g.r.IntN(2*g.o.MaxConst+3) - g.o.MaxConst - 1)
	return &Bin{op, g.pick(vars), &Const{c}}
}

func (g *generator) cond(sc scope) Expr {
	vars := g.readable(sc)
	switch g.r.IntN(8) {
	case 0:
		return &Bin{"&&", g.cmp(vars), g.cmp(vars)}
	case 1:
		return &Bin{"||", g.cmp(vars), g.cmp(vars)}
	case 2:
		return &Not{g.cmp(vars)}
	}
	return g.cmp(vars)
}

func (g *generator) globalCond() Expr {
	var vars []string
	for _, v := range g.p.Globals {
		vars = append(vars, v.Name)
	}
	if g.r.IntN(5) == 0 {
		return &Bin{"||", g.cmp(vars), g.cmp(vars)}
	}
	return g.cmp(vars)
}

func (g *generator) assert(sc scope) Stmt {
	form := VerifierAssert
	switch g.r.IntN(6) {
	case 0:
		form = PlainAssert
	case 1:
		form = ReachError
	}
	return &Assert{Cond: g.cond(sc), Form: form}
}
