package dfg

import (
	"chorus/cfg"
	"chorus/domains"
)

// Questions for explanations (analysis/slice.go): which values an edge
// carries and which values before an action can lead to given values
// after it. They read the solver's last result and change nothing. Every
// answer over-approximates (a box may hold values no execution has): an
// explanation may show an edge that cannot really carry a bad value, never
// hide one that can — the same direction as the invariants themselves.

// Box maps variables to intervals: a set of states described variable by
// variable. A variable absent from a Box is unconstrained.
type Box map[*cfg.Var]domains.Interval

// PostInterval returns the values v may hold right after act(u) ran from
// Φ(u): what an edge u —cell(v)→ · carries. u == nil is the ⊥ source (any
// value of v's type); a hub carries the join of its sources.
func (s *Solver) PostInterval(u *cfg.Loc, v *cfg.Var) domains.Interval {
	if !v.Type.IsInt() {
		return topIv
	}
	if u == nil {
		return typeRange(v.Type)
	}
	if s.states == nil || u.ID >= s.g.numNodes() {
		return botIv
	}
	p := s.postOf(u)
	if p.bottom {
		return botIv
	}
	val, ok := p.get(s.part.CellOf(v))
	if !ok {
		return typeRange(v.Type)
	}
	return ivMeet(val.Bounds(linVar(s.part.IndexInCell(v))), typeRange(v.Type))
}

// Failing returns the states of Φ(loc) on which cond is false, as the
// intervals of cond's integer variables; ok is false when there are none
// (the condition holds wherever loc is reached).
func (st *State) Failing(cond cfg.Expr) (Box, bool) {
	if st.bottom {
		return nil, false
	}
	f, v := st.frameFor(cond)
	v = f.assume(v, cond, false)
	if v.IsBottom() {
		return nil, false
	}
	return st.boxOf(f, v, exprVars(nil, cond)), true
}

// boxOf reads the intervals of vars from v (a value of frame f); a
// variable outside the frame gets its interval in Φ(loc).
func (st *State) boxOf(f *frame, v domains.Value, vars []*cfg.Var) Box {
	out := Box{}
	for _, x := range vars {
		if !x.Type.IsInt() {
			continue
		}
		iv := st.Interval(x)
		if d := f.dim(x); d >= 0 {
			iv = ivMeet(v.Bounds(linVar(d)), typeRange(x.Type))
		}
		out[x] = iv
	}
	return out
}

// Pre is a backward step over act(loc): the states of Φ(loc) from which
// act(loc) can produce a state inside want (the variables act(loc) writes
// are constrained after it, the others before and after alike), described
// by the intervals of the variables act(loc) reads and of the unwritten
// variables of want. ok is false when no state of Φ(loc) leads into want.
// Written variables whose new value does not come from reading variables
// (constants, havoc, init, alloc, locks, a spawn's handle) constrain
// nothing before: the action introduces those values. A linear strong
// assignment is inverted exactly; anything else keeps the read
// variables' whole intervals (sound, less sharp).
func (s *Solver) Pre(loc *cfg.Loc, want Box) (Box, bool) {
	st := s.At(loc)
	if st.bottom {
		return nil, false
	}
	written := map[*cfg.Var]bool{}
	// reads: the variables whose values act(loc) turns into wanted ones
	// (an assume or a check only filters: its other variables are not
	// followed).
	var reads []*cfg.Var
	var es []cfg.Expr
	switch a := loc.Act.(type) {
	case *cfg.Assign:
		es = append(es, a.Src, a.Dst)
		for x := range want {
			if lvalueNames(a.Dst, x) {
				reads = exprVars(nil, a.Src)
				break
			}
		}
	case *cfg.Assume:
		es = append(es, a.Cond)
	case *cfg.CheckAct:
		es = append(es, a.Cond)
	case *cfg.Spawn:
		if a.Arg != nil {
			es = append(es, a.Arg)
			for _, t := range a.Targets {
				if _, ok := want[t.Param]; ok && t.Param != nil {
					reads = exprVars(nil, a.Arg)
				}
			}
		}
	}
	for _, acc := range s.g.acc[loc.ID].writes {
		if _, isAssume := loc.Act.(*cfg.Assume); isAssume {
			break // an assume's "writes" keep the values
		}
		if _, isCheck := loc.Act.(*cfg.CheckAct); isCheck {
			break
		}
		written[acc.v] = true
	}
	var all []cfg.Expr
	for x := range want {
		all = append(all, &cfg.VarRef{Var: x})
	}
	all = append(all, es...)
	f, v := st.frameFor(all...)
	// The unwritten variables of want keep their values across act(loc).
	for x, iv := range want {
		if written[x] {
			continue
		}
		if d := f.dim(x); d >= 0 {
			v = assumeInRange(v, linVar(d), iv)
		} else if ivEmpty(ivMeet(st.Interval(x), iv)) {
			return nil, false
		}
	}
	switch a := loc.Act.(type) {
	case *cfg.Assume:
		v = f.assume(v, a.Cond, true)
	case *cfg.CheckAct:
		v = f.assume(v, a.Cond, true)
	case *cfg.Assign:
		if x := assignedVar(a.Dst); x != nil {
			if iv, ok := want[x]; ok && x.Type.IsInt() {
				var fm form
				v, fm = f.lin(v, a.Src)
				b := fm.bounds(v)
				switch {
				case ivEmpty(ivMeet(b, iv)):
					return nil, false
				case fm.exact && fitsType(b, x.Type):
					// No wrap-around: the new value is the expression's.
					v = assumeInRange(v, fm.lin, iv)
				}
			}
		}
	case *cfg.Spawn:
		for _, t := range a.Targets {
			if iv, ok := want[t.Param]; ok && a.Arg != nil && t.Param.Type.IsInt() {
				var fm form
				v, fm = f.lin(v, a.Arg)
				if ivEmpty(ivMeet(fm.bounds(v), iv)) {
					return nil, false
				}
			}
		}
	}
	if v.IsBottom() {
		return nil, false
	}
	var vars []*cfg.Var
	for x := range want {
		if !written[x] {
			vars = append(vars, x)
		}
	}
	for _, x := range reads {
		if !written[x] || selfRead(loc.Act, x) {
			vars = append(vars, x)
		}
	}
	for x := range want {
		if written[x] && selfRead(loc.Act, x) {
			vars = append(vars, x) // a weak store keeps the old value
		}
	}
	return st.boxOf(f, v, vars), true
}

// assignedVar is the variable an assignment strongly writes: a register,
// or the one non-summary cell a store denotes; nil for a weak store.
func assignedVar(dst cfg.LValue) *cfg.Var {
	switch d := dst.(type) {
	case *cfg.VarRef:
		return d.Var
	case *cfg.Deref:
		if isStrong(d) && len(d.Cells) == 1 && faithful(d, d.Cells[0]) {
			return d.Cells[0]
		}
	}
	return nil
}

// selfRead reports whether act reads x to compute what it writes (x := x
// + 1, or a weak store whose cells keep their old value).
func selfRead(act cfg.Action, x *cfg.Var) bool {
	a, ok := act.(*cfg.Assign)
	if !ok {
		return false
	}
	for _, y := range exprVars(nil, a.Src) {
		if y == x {
			return true
		}
	}
	if d, ok := a.Dst.(*cfg.Deref); ok && assignedVar(d) == nil {
		for _, c := range d.Cells {
			if c == x {
				return true
			}
		}
	}
	return false
}

// TypeRange returns the values of an integer type (⊤ for others and for
// mathematical integers).
func TypeRange(t cfg.Type) domains.Interval {
	if !t.IsInt() {
		return topIv
	}
	return typeRange(t)
}

// lvalueNames reports whether dst may denote x.
func lvalueNames(dst cfg.LValue, x *cfg.Var) bool {
	switch d := dst.(type) {
	case *cfg.VarRef:
		return d.Var == x
	case *cfg.Deref:
		for _, c := range d.Cells {
			if c == x {
				return true
			}
		}
	}
	return false
}
