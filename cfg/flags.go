package cfg

import "fmt"

// Flag registers and their values along one thread's path: the
// path-sensitive tools of the analysis (the must-lockset of
// interference/lockset.go, the epoch rule of interference/once.go, the
// flag-sensitive readers of interference/positions.go, dfg's pruning of
// flag-infeasible sequential edges) use them to drop paths on which an
// assume over flags fails.

type FlagEnv []FlagVal // sorted by var ID

type FlagVal struct {
	v   int
	val int64
}

func (e FlagEnv) get(v int) (int64, bool) {
	for _, x := range e {
		if x.v == v {
			return x.val, true
		}
	}
	return 0, false
}

func (e FlagEnv) set(v int, val int64, ok bool) FlagEnv {
	out := make(FlagEnv, 0, len(e)+1)
	done := false
	for _, x := range e {
		if x.v == v {
			if ok {
				out = append(out, FlagVal{v, val})
			}
			done = true
			continue
		}
		if !done && x.v > v && ok {
			out = append(out, FlagVal{v, val})
			done = true
		}
		out = append(out, x)
	}
	if !done && ok {
		out = append(out, FlagVal{v, val})
	}
	return out
}

// FlagRegisters returns the flag variables: thread-local integer
// variables (local registers, and local memory cells, which the escape
// analysis keeps private to one thread: cfg/finish.go) written at least
// once and only by strong stores of a constant or of another flag
// variable's value (a copy: t := cond after cond := t0 with t0 := 0), and
// never havocked or otherwise written. Each thread writes its own copy,
// so the values along one thread's path are the values its flag facts
// say; a copy of a flag of unknown value is unknown.
func FlagRegisters(p *Program) map[*Var]bool { return FlagRegistersIn(p, false) }

// FlagRegistersIn is FlagRegisters; globalsToo (a test-only breakage:
// interference.WithUnsoundGlobalFlags) drops the premise that a flag is
// thread-local: another thread's store would change it between the
// trylock and the test, so its facts would not be the thread's own path.
func FlagRegistersIn(p *Program, globalsToo bool) map[*Var]bool {
	target := FlagVar
	if globalsToo {
		target = func(lv Expr) *Var {
			if v := StrongTarget(lv); v != nil && !v.ThreadLocal {
				return v
			}
			return nil
		}
	}
	flags := map[*Var]bool{}
	bad := map[*Var]bool{}
	type copyOf struct{ dst, src *Var }
	var copies []copyOf
	markBad := func(lv LValue) {
		switch x := lv.(type) {
		case *VarRef:
			bad[x.Var] = true
		case *Deref:
			for _, c := range x.Cells {
				bad[c] = true
			}
		}
	}
	for _, l := range p.Locs {
		switch a := l.Act.(type) {
		case *Assign:
			v := target(a.Dst)
			if v == nil || v.Type.Kind != IntType {
				markBad(a.Dst)
				continue
			}
			if c, ok := a.Src.(*Const); ok && c.Type.Kind == IntType && c.Type == v.Type {
				flags[v] = true
			} else if src := target(a.Src); src != nil && src.Type == v.Type {
				flags[v] = true
				copies = append(copies, copyOf{v, src})
			} else {
				bad[v] = true
			}
		case *Havoc:
			markBad(a.Dst)
		case *Alloc:
			markBad(a.Dst)
			if a.Site != nil {
				for _, c := range a.Site.Cells {
					bad[c] = true
				}
			}
		case *Spawn:
			if a.Handle != nil {
				markBad(a.Handle)
			}
			for _, t := range a.Targets {
				if t != nil && t.Param != nil {
					bad[t.Param] = true
				}
			}
		case *Acquire:
			markBad(a.Lock)
		case *Release:
			markBad(a.Lock)
		}
	}
	// A copy of a non-flag is no flag (repeat: badness propagates).
	for changed := true; changed; {
		changed = false
		for _, c := range copies {
			if !bad[c.dst] && (bad[c.src] || !flags[c.src]) {
				bad[c.dst] = true
				changed = true
			}
		}
	}
	for v := range bad {
		delete(flags, v)
	}
	return flags
}

// FlagAssign returns env after assignment a (unchanged unless a writes a
// flag variable of flags).
func FlagAssign(a *Assign, env FlagEnv, flags map[*Var]bool) FlagEnv {
	v := StrongTarget(a.Dst) // a flag (a member of flags) or none
	if v == nil || !flags[v] {
		return env
	}
	if c, ok := a.Src.(*Const); ok {
		return env.set(v.ID, c.Value, true)
	}
	val, ok := env.get(StrongTarget(a.Src).ID)
	return env.set(v.ID, val, ok)
}

// FlagVar returns the thread-local variable lv surely writes: a local
// register, or a Deref of exactly one non-summary local cell of its type
// (StrongTarget).
func FlagVar(lv Expr) *Var {
	if v := StrongTarget(lv); v != nil && v.Scope == Local {
		return v
	}
	return nil
}

// EvalFlags evaluates e when it depends only on known flags and constants.
func EvalFlags(e Expr, env FlagEnv) (int64, bool) {
	switch e := e.(type) {
	case *Const:
		return e.Value, e.Type.Kind == IntType
	case *VarRef:
		return env.get(e.Var.ID)
	case *Deref:
		if v := StrongTarget(e); v != nil {
			return env.get(v.ID) // known only for flags
		}
		return 0, false
	case *Unary:
		x, ok := EvalFlags(e.X, env)
		if !ok {
			return 0, false
		}
		switch e.Op {
		case Not:
			if x == 0 {
				return 1, true
			}
			return 0, true
		case Neg:
			if x == -x && x != 0 {
				return 0, false
			}
			return -x, true
		}
	case *Cast:
		x, ok := EvalFlags(e.X, env)
		if !ok || e.Type.Kind != IntType || x < -1<<30 || x > 1<<30 {
			return 0, false
		}
		// A cast wraps to its type: (unsigned char)256 is 0
		// (constbranch.go; fixture flag_cast_wrap.c).
		return wrapExact(x, e.Type)
	case *Binary:
		x, ok1 := EvalFlags(e.X, env)
		y, ok2 := EvalFlags(e.Y, env)
		if !ok1 || !ok2 {
			return 0, false
		}
		b := func(c bool) (int64, bool) {
			if c {
				return 1, true
			}
			return 0, true
		}
		switch e.Op {
		case Eq:
			return b(x == y)
		case Ne:
			return b(x != y)
		case Lt:
			return b(x < y)
		case Le:
			return b(x <= y)
		case Gt:
			return b(x > y)
		case Ge:
			return b(x >= y)
		case LAnd:
			return b(x != 0 && y != 0)
		case LOr:
			return b(x != 0 || y != 0)
		}
	}
	return 0, false
}

// With returns e with variable v bound to val (e is not changed).
func (e FlagEnv) With(v int, val int64) FlagEnv { return e.set(v, val, true) }

// String renders a binding as "id=value".
func (x FlagVal) String() string { return fmt.Sprintf("%d=%d", x.v, x.val) }

// AppendKey appends a binary key of the binding to b.
func (x FlagVal) AppendKey(b []byte) []byte {
	v := uint64(x.v)
	w := uint64(x.val)
	for i := 0; i < 8; i++ {
		b = append(b, byte(v>>(8*i)))
	}
	for i := 0; i < 8; i++ {
		b = append(b, byte(w>>(8*i)))
	}
	return b
}

// Meet keeps the bindings e and o agree on.
// Both are sorted by variable: one merge walk.
// When they agree on all of e, e itself is returned (envs are never
// changed in place), else a new env of the exact size: the path-sensitive
// lockset meets envs by the million on memcached.c, and growing each
// result by appending was a seventh of its allocations.
func (e FlagEnv) Meet(o FlagEnv) FlagEnv {
	n := e.meetInto(o, nil)
	if n == len(e) {
		return e
	}
	if n == 0 {
		return nil
	}
	out := make(FlagEnv, n)
	e.meetInto(o, out)
	return out
}

// meetInto counts the bindings of e that o has too, storing them in out
// when it is not nil (of the count's length).
func (e FlagEnv) meetInto(o, out FlagEnv) int {
	n, j := 0, 0
	for _, x := range e {
		for j < len(o) && o[j].v < x.v {
			j++
		}
		if j < len(o) && o[j] == x {
			if out != nil {
				out[n] = x
			}
			n++
		}
	}
	return n
}
