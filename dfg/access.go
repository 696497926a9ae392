package dfg

import "chorus/cfg"

// write is one variable written by an action.
type write struct {
	v *cfg.Var
	// weak: the action may leave the old value in place (a store through a
	// pointer with several cells or a summary cell, an assume it cannot use
	// to refine a summary). The transfer function joins; for reaching
	// definitions a weak write kills like any other (see rdSolver).
	weak bool
	// fresh: the written cell gets a value that does not depend on its old
	// one (InitGlobals; a spawn writing the child's parameter), so the old
	// value is not an input of the action.
	fresh bool
	// spawnParam: the write is a spawn site writing the parameter of the
	// spawned template: it reaches the child's entry only, never the
	// spawning thread's own successors.
	spawnParam bool
}

// access lists the variables an action reads and writes.
type access struct {
	reads  []*cfg.Var
	writes []write
}

// actionAccess computes reads and writes of l's action. An assume (and a
// check, which continues assuming its condition) counts as writing the
// variables of its condition (DESIGN.md §3). prog is needed for
// InitGlobals, which writes every global.
func actionAccess(prog *cfg.Program, l *cfg.Loc) access {
	var a access
	switch act := l.Act.(type) {
	case *cfg.Assign:
		a.reads = exprVars(a.reads, act.Src)
		a.lvalue(act.Dst)
	case *cfg.Assume:
		a.reads = exprVars(a.reads, act.Cond)
		a.condWrites(act.Cond)
	case *cfg.CheckAct:
		a.reads = exprVars(a.reads, act.Cond)
		a.condWrites(act.Cond)
	case *cfg.Havoc:
		a.lvalue(act.Dst)
	case *cfg.Acquire:
		a.reads = exprVars(a.reads, act.Lock)
		a.lvalue(act.Lock)
	case *cfg.Release:
		a.lvalue(act.Lock)
	case *cfg.Spawn:
		a.reads = exprVars(a.reads, act.Fn)
		if act.Arg != nil {
			a.reads = exprVars(a.reads, act.Arg)
		}
		if act.Handle != nil {
			a.lvalue(act.Handle)
		}
		for _, t := range act.Targets {
			if t.Param != nil {
				a.writes = append(a.writes, write{v: t.Param, fresh: true, spawnParam: true})
			}
		}
	case *cfg.Join:
		a.reads = exprVars(a.reads, act.Handle)
	case *cfg.Alloc:
		if act.Size != nil {
			a.reads = exprVars(a.reads, act.Size)
		}
		a.lvalue(act.Dst)
	case *cfg.InitGlobals:
		for _, v := range prog.Vars {
			if v.Scope == cfg.Global {
				a.writes = append(a.writes, write{v: v, fresh: true})
			}
		}
	case *cfg.AtomicBegin, *cfg.AtomicEnd, *cfg.Skip, *cfg.Output:
		// no state change (Output is printf: the analysis treats it as Skip)
	default:
		// An action type added to the IR without support here would make
		// every result unsound; this is a programming error, not bad input.
		panic("dfg: unsupported action type")
	}
	return a
}

// lvalue records a write through dst (and the reads of its address).
func (a *access) lvalue(dst cfg.LValue) {
	switch d := dst.(type) {
	case *cfg.VarRef:
		a.writes = append(a.writes, write{v: d.Var})
	case *cfg.Deref:
		a.reads = exprVars(a.reads, d.Addr)
		strong := isStrong(d)
		for _, c := range d.Cells {
			a.writes = append(a.writes, write{v: c, weak: !strong})
		}
	}
}

// condWrites records the variables of an assumed condition as written.
// Registers and a strongly updatable memory cell are refined in place
// (strong); other memory cells cannot be refined (the access may denote
// another concrete location) and count as weak writes.
func (a *access) condWrites(cond cfg.Expr) {
	var walk func(e cfg.Expr)
	walk = func(e cfg.Expr) {
		switch e := e.(type) {
		case *cfg.VarRef:
			a.writes = append(a.writes, write{v: e.Var})
		case *cfg.Deref:
			walk(e.Addr)
			strong := isStrong(e)
			for _, c := range e.Cells {
				a.writes = append(a.writes, write{v: c, weak: !strong})
			}
		case *cfg.Unary:
			walk(e.X)
		case *cfg.Binary:
			walk(e.X)
			walk(e.Y)
		case *cfg.Cast:
			walk(e.X)
		}
	}
	walk(cond)
}

// isStrong reports whether an access through d denotes exactly one
// concrete location: one cell that is not a summary.
func isStrong(d *cfg.Deref) bool {
	return len(d.Cells) == 1 && !d.Cells[0].Summary
}

// faithful reports whether memory cell c carries the value of an access
// through d (cfg: only a cell of the same Type and Offset as the access
// does). The offset is known when the address is an AddrOf; otherwise we
// take the points-to analysis's word that a cell of the access's type is
// accessed at its own offset (a misaligned access of the same type through
// pointer arithmetic is undefined behaviour in C).
func faithful(d *cfg.Deref, c *cfg.Var) bool {
	if c.Type != d.Type || !c.Type.IsInt() {
		return false
	}
	if ao, ok := d.Addr.(*cfg.AddrOf); ok && ao.Object == c.Mem {
		if c.Summary {
			return ao.Offset >= c.Offset && (ao.Offset-c.Offset)%max(c.Type.Size(), 1) == 0
		}
		return ao.Offset == c.Offset
	}
	return true
}

// exprVars appends the variables e reads: registers, and for a Deref its
// address's variables and every cell it may denote.
func exprVars(out []*cfg.Var, e cfg.Expr) []*cfg.Var {
	switch e := e.(type) {
	case *cfg.VarRef:
		out = append(out, e.Var)
	case *cfg.Deref:
		out = exprVars(out, e.Addr)
		out = append(out, e.Cells...)
	case *cfg.Unary:
		out = exprVars(out, e.X)
	case *cfg.Binary:
		out = exprVars(out, e.X)
		out = exprVars(out, e.Y)
	case *cfg.Cast:
		out = exprVars(out, e.X)
	}
	return out
}
