package cfg

// Branches refuted by the constant just assigned.
//
// CIL, which produced the DDVerify drivers and many preprocessed
// benchmarks, lowers a condition used as a value into a flag:
//
//	if (0 <= i) { if (i < n) tmp = 1; else tmp = 0; } else tmp = 0;
//	__CPROVER_assume(tmp);          /* or: if (tmp) ... */
//
// In the IR each `tmp := c` location is followed directly by both arms
// of the test, assume(tmp != 0) and assume(tmp == 0). Every path through
// `tmp := 0` into assume(tmp != 0) is infeasible, but the data flow graph
// still carries values along it (edges bypass assumes they do not
// constrain), so the facts of the refuted arm (here i >= n) reach the
// code after the test and the interval of i there is the join of both
// arms. The flag paths of the dfg (flagpath.go) remove such edges in
// small programs only.
//
// pruneConstBranches removes the control-flow edge u -> v when act(u)
// assigns a constant c to a local register x (x := c) and act(v) is an
// assume whose condition depends only on x and constants and is false for
// x = c.
//
// Why this is sound for any number of threads: a local register (a Var
// of scope Local that is no memory cell) belongs to the thread running
// it; no other thread reads or writes it, whatever the number of
// threads. Between executing act(u) and executing act(v) along the edge
// u -> v the thread runs no other action, so x still holds c when the
// condition is evaluated, the assume blocks, and no execution takes the
// edge: removing it removes no behaviour. The constant is required to be
// a value of x's type (else the assignment would wrap and c would not be
// the value held).
func pruneConstBranches(p *Program, mode int) int {
	if mode == constBranchesOff {
		return 0
	}
	cut := 0
	for _, u := range p.Locs {
		a, ok := u.Act.(*Assign)
		if !ok || len(u.Succs) == 0 {
			continue
		}
		ref, ok := a.Dst.(*VarRef)
		if !ok || ref.Var.IsCell() || !ref.Var.Type.IsInt() {
			continue
		}
		if ref.Var.Scope != Local || ref.Var.ThreadLocal {
			continue
		}
		c, ok := a.Src.(*Const)
		if !ok || !c.Type.IsInt() || !constFits(c.Value, ref.Var.Type) {
			continue
		}
		var keep []*Loc
		for _, v := range u.Succs {
			if as, ok := v.Act.(*Assume); ok {
				if val, known := evalWith(as.Cond, ref.Var, c.Value, mode == constBranchesUnsound); known && val == 0 {
					removePred(v, u)
					cut++
					continue
				}
			}
			keep = append(keep, v)
		}
		if len(keep) != len(u.Succs) {
			u.Succs = keep
		}
	}
	return cut
}

// The modes of pruneConstBranches (Options.NoConstBranches,
// Options.UnsoundConstBranches).
const (
	constBranchesOn = iota
	constBranchesOff
	constBranchesUnsound // casts evaluated without wrapping: a mutation for tests
)

func constBranchMode(o Options) int {
	switch {
	case o.UnsoundConstBranches:
		return constBranchesUnsound
	case o.NoConstBranches:
		return constBranchesOff
	}
	return constBranchesOn
}

// evalWith evaluates the condition e with x = c, exactly as C (and the
// IR's interpreter) would, when e depends only on x and constants:
// comparisons, logical operators and integer casts (which wrap to the
// target type: (unsigned char)256 is 0). Anything else is unknown.
// noWrap (the mutation) lets casts pass values through unchanged.
func evalWith(e Expr, x *Var, c int64, noWrap bool) (int64, bool) {
	switch e := e.(type) {
	case *Const:
		if !e.Type.IsInt() || !constFits(e.Value, e.Type) {
			return 0, false
		}
		return e.Value, true
	case *VarRef:
		if e.Var == x {
			return c, true
		}
	case *Cast:
		v, ok := evalWith(e.X, x, c, noWrap)
		if !ok || !e.Type.IsInt() {
			return 0, false
		}
		if noWrap {
			return v, true
		}
		return wrapExact(v, e.Type)
	case *Unary:
		if e.Op != Not {
			return 0, false
		}
		v, ok := evalWith(e.X, x, c, noWrap)
		if !ok {
			return 0, false
		}
		return b2i(v == 0), true
	case *Binary:
		a, ok1 := evalWith(e.X, x, c, noWrap)
		if !ok1 {
			return 0, false
		}
		b, ok2 := evalWith(e.Y, x, c, noWrap)
		if !ok2 {
			return 0, false
		}
		switch e.Op {
		case Eq:
			return b2i(a == b), true
		case Ne:
			return b2i(a != b), true
		case Lt:
			return b2i(a < b), true
		case Le:
			return b2i(a <= b), true
		case Gt:
			return b2i(a > b), true
		case Ge:
			return b2i(a >= b), true
		case LAnd:
			return b2i(a != 0 && b != 0), true
		case LOr:
			return b2i(a != 0 || b != 0), true
		}
	}
	return 0, false
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// wrapExact converts v to the integer type t (two's complement); unknown
// where the result is no int64 value of t's range (unsigned 64-bit values
// above the int64 range).
func wrapExact(v int64, t Type) (int64, bool) {
	switch {
	case t.Bits == 0:
		return v, true
	case t.Bits >= 64:
		if !t.Signed && v < 0 {
			return 0, false
		}
		return v, true
	}
	m := uint64(v) & (uint64(1)<<uint(t.Bits) - 1)
	if t.Signed && m>>(uint(t.Bits)-1)&1 == 1 {
		return int64(m) - int64(1)<<uint(t.Bits), true
	}
	return int64(m), true
}

// constFits reports whether v is a value of the bounded integer type t
// (a mathematical integer type holds every value).
func constFits(v int64, t Type) bool {
	if t.Bits == 0 {
		return true
	}
	if t.Bits >= 64 {
		return t.Signed || v >= 0
	}
	if t.Signed {
		lim := int64(1) << (t.Bits - 1)
		return v >= -lim && v < lim
	}
	return v >= 0 && v < int64(1)<<t.Bits
}

// removePred deletes every occurrence of p from v.Preds.
func removePred(v, p *Loc) {
	preds := v.Preds[:0]
	for _, q := range v.Preds {
		if q != p {
			preds = append(preds, q)
		}
	}
	v.Preds = preds
}
