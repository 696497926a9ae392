package cfg

import "modernc.org/cc/v4"

// pointerBoundsChecks adds array-bounds checks for accesses p[i] through
// a pointer register p that can only hold the start of one known array
// (every definition of p is &A[0] of the same array object A, directly or
// through other such registers; template parameters count the arguments
// of every spawn of the template). The check 0 <= i < len(A) is placed
// before the accessing location. Pointers into the middle of an array or
// held in memory get no check (the points-to analysis collapses element
// offsets, so it cannot tell &A[0] from &A[3]).
func (b *builder) pointerBoundsChecks() {
	const conflict = -1
	start := map[*Var]int{} // register -> object ID, or conflict
	type copyDef struct{ dst, src *Var }
	var copies []copyDef
	setDef := func(v *Var, e Expr) {
		if start[v] == conflict {
			return
		}
		var obj = conflict
		switch x := e.(type) {
		case *AddrOf:
			if x.Offset == 0 && b.knownArray(x.Object) > 0 {
				obj = x.Object.ID
			}
		case *VarRef:
			if !x.Var.IsCell() {
				copies = append(copies, copyDef{v, x.Var})
				return
			}
		case *Cast:
			if r, ok := x.X.(*VarRef); ok && !r.Var.IsCell() && x.Type.Kind == PtrType {
				copies = append(copies, copyDef{v, r.Var})
				return
			}
		}
		if old, ok := start[v]; ok && old != obj {
			obj = conflict
		}
		start[v] = obj
	}
	for _, v := range b.prog.Vars {
		if !v.IsCell() && v.Scope == Global {
			if v.Init != nil {
				setDef(v, v.Init)
			} else {
				start[v] = conflict // zero: null
			}
		}
	}
	for _, l := range b.prog.Locs {
		switch x := l.Act.(type) {
		case *Assign:
			if r, ok := x.Dst.(*VarRef); ok {
				setDef(r.Var, x.Src)
			}
		case *Havoc:
			if r, ok := x.Dst.(*VarRef); ok {
				start[r.Var] = conflict
			}
		case *Alloc:
			if r, ok := x.Dst.(*VarRef); ok {
				start[r.Var] = conflict
			}
		case *Spawn:
			for _, t := range x.Targets {
				if t.Param != nil {
					if x.Arg == nil {
						start[t.Param] = conflict
					} else {
						setDef(t.Param, x.Arg)
					}
				}
			}
		}
	}
	// Copies: values only move from unset to one object to conflict, so
	// this terminates.
	for changed := true; changed; {
		changed = false
		for _, c := range copies {
			src, ok := start[c.src]
			if !ok {
				continue
			}
			old, ok := start[c.dst]
			switch {
			case !ok:
				start[c.dst] = src
				changed = true
			case old != src && old != conflict:
				start[c.dst] = conflict
				changed = true
			}
		}
	}
	for _, c := range copies {
		if _, ok := start[c.src]; !ok {
			start[c.dst] = conflict
		}
	}
	n := len(b.prog.Locs)
	for _, l := range b.prog.Locs[:n] {
		var d *Deref
		switch x := l.Act.(type) {
		case *Assign:
			if dd, ok := x.Dst.(*Deref); ok {
				d = dd
			} else if dd, ok := x.Src.(*Deref); ok {
				d = dd
			}
		case *Havoc:
			d, _ = x.Dst.(*Deref)
		}
		if d == nil {
			continue
		}
		add, ok := d.Addr.(*Binary)
		if !ok || add.Op != PtrAdd {
			continue
		}
		base, ok := add.X.(*VarRef)
		if !ok || base.Var.IsCell() {
			continue
		}
		id, ok := start[base.Var]
		if !ok || id == conflict {
			continue
		}
		arr := b.prog.Objects[id]
		length := b.knownArray(arr)
		es := b.objInfo[arr].ctype.(*cc.ArrayType).Elem().Size()
		if es <= 0 || int64(d.Type.Size()) != es {
			continue
		}
		var idx Expr
		if m, ok := add.Y.(*Binary); ok && m.Op == Mul {
			if k, ok := m.Y.(*Const); ok && k.Value == es {
				idx = m.X
			}
		} else if k, ok := add.Y.(*Const); ok && k.Value%es == 0 {
			// p[4]: the scaled constant index is folded into the
			// offset (16 for int); before, such accesses got no check
			// at all, in bounds or not.
			idx = &Const{Type: k.Type, Value: k.Value / es}
		} else if es == 1 {
			idx = add.Y
		}
		if idx == nil {
			continue
		}
		if k, ok := idx.(*Const); ok && k.Value >= 0 && k.Value < length {
			continue
		}
		m := toMath(idx)
		cond := &Binary{Op: LAnd,
			X:    &Binary{Op: Le, X: &Const{Type: MathInt}, Y: m, Type: Bool},
			Y:    &Binary{Op: Lt, X: m, Y: &Const{Type: MathInt, Value: length}, Type: Bool},
			Type: Bool}
		ch := &Check{ID: len(b.prog.Checks), Kind: BoundsCheck, Pos: l.Pos, Func: b.locFunc[l],
			Msg: "index out of bounds of " + arr.Name + " through pointer " + base.Var.Name + ": need 0 <= i < " + itoa(length)}
		b.prog.Checks = append(b.prog.Checks, ch)
		ch.Loc = b.insertBefore(l, &CheckAct{Check: ch, Cond: cond})
	}
}

// knownArray returns the length of an object that is a C array of known
// length (0 otherwise).
func (b *builder) knownArray(o *Object) int64 {
	info := b.objInfo[o]
	if info == nil || info.arrayOf || info.ctype == nil || o.Kind == StringObject {
		return 0
	}
	if at, ok := info.ctype.(*cc.ArrayType); ok && !at.IsVLA() && at.Len() > 0 {
		return at.Len()
	}
	return 0
}

// insertBefore makes a new location with act that takes over l's
// predecessors and falls through to l. A template entry keeps its role:
// the new location becomes the entry.
func (b *builder) insertBefore(l *Loc, act Action) *Loc {
	n := b.newLocAt(l, act)
	for _, p := range l.Preds {
		for i, s := range p.Succs {
			if s == l {
				p.Succs[i] = n
			}
		}
		n.Preds = append(n.Preds, p)
	}
	l.Preds = []*Loc{n}
	n.Succs = []*Loc{l}
	if l.Template.Entry == l {
		l.Template.Entry = n
	}
	return n
}
