package dfg

import (
	"slices"

	"chorus/cfg"
	"chorus/domains"
)

// post applies act(l) to the frame value v (which holds every cell l
// reads or writes; fresh cells hold their type box). Soundness of each
// case is argued inline; the package comment summarizes.
func (f *frame) post(l *cfg.Loc, v domains.Value) domains.Value {
	if v.IsBottom() {
		return v
	}
	switch a := l.Act.(type) {
	case *cfg.Assign:
		var fm form
		v, fm = f.lin(v, a.Src)
		return f.write(v, a.Dst, fm)
	case *cfg.Assume:
		return f.assume(v, a.Cond, true)
	case *cfg.CheckAct:
		// A failing check stops the program: the paths that continue
		// satisfy the condition.
		return f.assume(v, a.Cond, true)
	case *cfg.Havoc:
		return f.write(v, a.Dst, ivForm(typeRange(a.Dst.ExprType())))
	case *cfg.Acquire:
		// assume(lock == 0); lock := 1 in one step. Through several cells
		// the assume cannot refine (it is one unknown cell of them) and
		// the write is weak.
		zero := &cfg.Const{Type: a.Lock.ExprType(), Value: 0}
		if a.Lock.ExprType().IsInt() {
			v = f.assume(v, &cfg.Binary{Op: cfg.Eq, X: a.Lock, Y: zero, Type: cfg.Bool}, true)
		}
		return f.write(v, a.Lock, exactForm(linConst(1)))
	case *cfg.Release:
		return f.write(v, a.Lock, exactForm(linConst(0)))
	case *cfg.Spawn:
		if a.Handle != nil {
			v = f.write(v, a.Handle, ivForm(typeRange(a.Handle.ExprType())))
		}
		// The child's parameter: a fresh cell (the child's locals start
		// unconstrained) receiving the argument.
		for _, t := range a.Targets {
			if t.Param == nil || !t.Param.Type.IsInt() {
				continue
			}
			d := f.dim(t.Param)
			if d < 0 {
				continue
			}
			fm := ivForm(typeRange(t.Param.Type))
			if a.Arg != nil {
				v, fm = f.lin(v, a.Arg)
			}
			v = strongAssign(v, d, fm, t.Param.Type)
		}
		return v
	case *cfg.Alloc:
		return f.write(v, a.Dst, ivForm(typeRange(a.Dst.ExprType())))
	}
	// Join, AtomicBegin/End, Skip, Output: no state change. InitGlobals is
	// handled per cell by the solver (initValue).
	return v
}

// strongAssign sets dimension d to fm, brought to type t (exact when the
// bounds fit t, two's-complement wrapped otherwise).
func strongAssign(v domains.Value, d int, fm form, t cfg.Type) domains.Value {
	if t.Kind != cfg.IntType {
		return v.Forget(d)
	}
	b := fm.bounds(v)
	if ivEmpty(b) {
		return v.Meet(bottomLike(v))
	}
	if fm.exact && fitsType(b, t) {
		v = v.Assign(d, fm.lin)
		if fm.hasRng {
			// b bounds the value (the clamp); the domain may not know it.
			v = assumeInRange(v, linVar(d), b)
		}
		return v
	}
	if t.Bits == 64 && !t.Signed && b.Lo.IsFinite() && b.Lo.V >= 0 {
		// A 64-bit unsigned value past MaxInt64 is [.., +∞], which
		// wrapIv cannot tell from a sum that passed 2^64; fm comes from
		// lin, whose arithmetic already wrapped (frame.fit), so b is a
		// value of t (size_t i = 0; i-- keeps i in [MaxInt64, +∞]).
		return v.AssignInterval(d, b)
	}
	return v.AssignInterval(d, wrapIv(b, t))
}

// write stores fm through dst: a register strongly; memory strongly when
// the access denotes one non-summary cell, else weakly (each cell keeps
// its old value or takes the new one: join). A cell that is not a
// faithful copy of the access gets an unknown value of its type.
func (f *frame) write(v domains.Value, dst cfg.LValue, fm form) domains.Value {
	switch d := dst.(type) {
	case *cfg.VarRef:
		dm := f.dim(d.Var)
		if dm < 0 {
			return v
		}
		return strongAssign(v, dm, fm, d.Var.Type)
	case *cfg.Deref:
		strong := isStrong(d)
		if box, ok := v.(*domains.IntervalValue); ok && !strong && len(d.Cells) > 1 {
			return f.weakWriteBox(box, d, fm)
		}
		for _, c := range d.Cells {
			dm := f.dim(c)
			if dm < 0 {
				continue
			}
			var nv domains.Value
			if faithful(d, c) {
				nv = strongAssign(v, dm, fm, c.Type)
			} else {
				nv = strongAssign(v, dm, ivForm(typeRange(c.Type)), c.Type)
			}
			if strong {
				v = nv
			} else {
				v = joinVals(v, nv)
			}
		}
	}
	return v
}

// weakWriteBox is write's weak store through d for a box (a
// non-relational value), in one copy of v instead of a copy and a join of
// the whole frame per cell (quadratic in the cells a pointer may denote:
// memcached spent most of its solve there).
//
// Each cell's new interval is computed from v itself, not from v after
// the weak updates of the cells before it as write's general loop does:
// the store writes one of the cells, with a value computed in the state
// before the store, so this is the exact weak update (sound) and never
// less precise than the loop (its later cells see larger intervals when
// the stored expression reads an earlier cell). In a box, strongAssign
// changes only dimension dm, and the interval it gives there depends on
// the form, the cell's type and whether the cell is faithful, not on dm:
// it is computed once per (type, faithful) and read back with Get.
func (f *frame) weakWriteBox(v *domains.IntervalValue, d *cfg.Deref, fm form) domains.Value {
	type group struct {
		t        cfg.Type
		faithful bool
		iv       domains.Interval // empty: the store's value is ⊥ (infeasible)
	}
	var groups []group
	var dims []int
	var ivs []domains.Interval
	for _, c := range d.Cells {
		dm := f.dim(c)
		if dm < 0 {
			continue
		}
		ff := faithful(d, c)
		k := slices.IndexFunc(groups, func(g group) bool { return g.t == c.Type && g.faithful == ff })
		if k < 0 {
			var nv domains.Value
			if ff {
				nv = strongAssign(v, dm, fm, c.Type)
			} else {
				nv = strongAssign(v, dm, ivForm(typeRange(c.Type)), c.Type)
			}
			iv := domains.EmptyInterval()
			if !nv.IsBottom() {
				iv = nv.(*domains.IntervalValue).Get(dm)
			}
			groups = append(groups, group{c.Type, ff, iv})
			k = len(groups) - 1
		}
		dims = append(dims, dm)
		ivs = append(ivs, groups[k].iv)
	}
	return v.JoinAt(dims, ivs)
}

// initValue is the value of cell c right after InitGlobals: Global
// registers hold Var.Init (zero when nil); cells of GlobalObject and
// StringObject objects hold Object.Init (zero elsewhere; a summary cell
// holds the join of every initial value it covers, and 0 unless they cover
// all its bytes); heap cells hold 0 when every allocation of the site
// zeroes (calloc) and any value of their type otherwise (a cell cannot be
// read before its object exists, and a fresh object's contents are
// written by the Alloc's zeroing or are indeterminate). Locals and other
// objects: any value of the type.
func initValue(dom domains.Domain, prog *cfg.Program, c *Cell, box domains.Value, zeroHeap map[*cfg.Object]bool) domains.Value {
	v := box
	for i, x := range c.Vars {
		if x.Scope != cfg.Global || !x.Type.IsInt() {
			continue
		}
		iv := typeRange(x.Type)
		if x.Mem == nil {
			if x.Init == nil {
				iv = point(0)
			} else {
				iv = wrapIv(evalClosed(dom, x.Init), x.Type)
			}
		} else {
			switch x.Mem.Kind {
			case cfg.GlobalObject, cfg.StringObject:
				iv = objectInit(dom, x)
			case cfg.HeapObject:
				if zeroHeap[x.Mem] {
					iv = point(0)
				}
			}
		}
		if k, ok := ivIsPoint(iv); ok {
			v = v.Assign(i, linConst(k))
		} else {
			v = v.AssignInterval(i, iv)
		}
	}
	return v
}

// evalClosed evaluates a closed (variable-free) expression to an interval.
func evalClosed(dom domains.Domain, e cfg.Expr) domains.Interval {
	fr := &frame{part: &Partition{}}
	v, fm := fr.lin(dom.Top(0), e)
	return fm.bounds(v)
}

// objectInit computes the initial value of a memory cell x of a global or
// string object from Object.Init.
func objectInit(dom domains.Domain, x *cfg.Var) domains.Interval {
	if ci := x.InitCell; ci != nil {
		// A summary cell's instances interleave with other cells' (the
		// fields of an array of structs): cfg read which initializers are
		// its instances' off the C type (cfg/initcells.go).
		acc := botIv
		for _, v := range ci.Values {
			acc = ivJoin(acc, wrapIv(evalClosed(dom, v), x.Type))
		}
		if ci.Any {
			acc = ivJoin(acc, typeRange(x.Type))
		}
		if ci.Zero {
			acc = ivJoin(acc, point(0))
		}
		return acc
	}
	obj := x.Mem
	size := max(x.Type.Size(), 1)
	lo, hi := x.Offset, x.Offset+size // bytes the cell stands for
	if x.Summary {
		// A summary cell without InitCell (a blob: the object's layout is
		// not known) stands for the bytes up to the next cell, else to
		// the object's end. When another cell starts where it does (union
		// members) its extent is not known: the whole object (joining more
		// initial values is sound; an empty extent gave no value at all).
		hi = -1 // unknown end
		if obj.Size >= 0 {
			hi = obj.Size
		}
		shared := false
		for _, c := range obj.Cells {
			if c != x && c.Offset == lo {
				shared = true
			}
		}
		if i := slices.Index(obj.Cells, x); i >= 0 && !shared && i+1 < len(obj.Cells) {
			hi = obj.Cells[i+1].Offset
		}
	}
	acc := botIv
	covered := int64(0)
	for _, in := range obj.Init {
		isz := max(in.Type.Size(), 1)
		if in.Offset+isz <= lo || (hi >= 0 && in.Offset >= hi) {
			continue // no overlap
		}
		if in.Type == x.Type && in.Offset >= lo && (in.Offset-lo)%size == 0 {
			acc = ivJoin(acc, wrapIv(evalClosed(dom, in.Value), x.Type))
			covered += isz
			continue
		}
		acc = ivJoin(acc, typeRange(x.Type)) // partial overlap / punning
		covered += isz
	}
	if hi < 0 || covered < hi-lo {
		acc = ivJoin(acc, point(0))
	}
	return acc
}
