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
func pruneConstBranches(p *Program) int {
	cut := 0
	for _, u := range p.Locs {
		a, ok := u.Act.(*Assign)
		if !ok || len(u.Succs) == 0 {
			continue
		}
		ref, ok := a.Dst.(*VarRef)
		if !ok || ref.Var.Scope != Local || ref.Var.IsCell() || ref.Var.ThreadLocal || !ref.Var.Type.IsInt() {
			continue
		}
		c, ok := a.Src.(*Const)
		if !ok || !c.Type.IsInt() || !constFits(c.Value, ref.Var.Type) {
			continue
		}
		env := FlagEnv(nil).With(ref.Var.ID, c.Value)
		var keep []*Loc
		for _, v := range u.Succs {
			if as, ok := v.Act.(*Assume); ok {
				if val, known := EvalFlags(as.Cond, env); known && val == 0 {
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
