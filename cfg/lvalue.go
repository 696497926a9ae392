package cfg

import (
	"modernc.org/cc/v4"
)

// ---- identifiers ----

// lookup finds the storage of an identifier.
func (b *builder) lookup(p *cc.PrimaryExpression) *storage {
	node := p.ResolvedTo()
	if node != nil && b.fr != nil {
		if s := b.fr.vars[node]; s != nil {
			return s
		}
	}
	switch d := node.(type) {
	case *cc.Declarator:
		if s := b.statics[d]; s != nil {
			return s
		}
		if d.Linkage() != cc.None || d.IsExtern() || b.fr == nil {
			if s := b.globals[b.lname(d)]; s != nil {
				return s
			}
			return b.globalStorage(d)
		}
	case *cc.Parameter:
		if b.fr != nil && d.Declarator != nil {
			if s := b.fr.vars[d.Declarator]; s != nil {
				return s
			}
		}
	}
	b.failAt(p, "unresolved identifier %s", p.Token.SrcStr())
	return nil
}

func (b *builder) primary(x *cc.PrimaryExpression) Expr {
	b.setPos(x)
	switch x.Case {
	case cc.PrimaryExpressionIdent:
		if d, ok := x.ResolvedTo().(*cc.Declarator); ok && d.Type().Kind() == cc.Function {
			return &AddrOf{Object: b.funcObject(b.lname(d)), Type: b.ptrType()}
		}
		if _, ok := x.ResolvedTo().(*cc.Enumerator); ok {
			if v, ok := intValue(x.Value()); ok {
				st := b.mustScalar(x.Type())
				return &Const{Type: st, Value: wrap(v, st)}
			}
		}
		s := b.lookup(x)
		return b.load(b.storageLval(s))
	case cc.PrimaryExpressionInt, cc.PrimaryExpressionChar, cc.PrimaryExpressionLChar, cc.PrimaryExpressionFloat:
		if c := b.constValue(x, x.Type()); c != nil {
			return c
		}
		b.fail("unsupported constant %s", x.Token.SrcStr())
	case cc.PrimaryExpressionString:
		sv, ok := x.Value().(cc.StringValue)
		if !ok {
			b.fail("unsupported wide string literal")
		}
		return &AddrOf{Object: b.stringObject(trimNul(string(sv))), Type: b.ptrType()}
	case cc.PrimaryExpressionLString:
		b.fail("unsupported wide string literal")
	case cc.PrimaryExpressionExpr:
		return b.rvalue(x.ExpressionList)
	case cc.PrimaryExpressionStmt:
		return b.stmtExpr(x.CompoundStatement, x.Type())
	case cc.PrimaryExpressionGeneric:
		if a := x.GenericSelection.Associated(); a != nil {
			return b.rvalue(a.AssignmentExpression)
		}
		b.fail("unresolved _Generic")
	}
	b.fail("unsupported primary expression")
	return nil
}

// stmtExpr lowers a GNU statement expression; its value is the last
// expression statement's.
func (b *builder) stmtExpr(cs *cc.CompoundStatement, t cc.Type) Expr {
	mark := b.cleanupMark()
	v := b.stmtExprValue(cs)
	if b.cleanupMark() > mark && v != nil && isAggregate(t) {
		// v is the address of the value, which a cleanup may change
		// before the enclosing expression reads it.
		b.failAt(cs, "unsupported: statement expression of aggregate type with a cleanup variable")
	}
	// The block's end: cleanups run after its value is taken (the
	// snapshot in stmtExprValue).
	b.closeCleanups(mark)
	return v
}

// stmtExprValue lowers the items of a statement expression's block and
// returns the value of its last expression statement (nil: none).
func (b *builder) stmtExprValue(cs *cc.CompoundStatement) Expr {
	var last *cc.BlockItem
	for l := cs.BlockItemList; l != nil; l = l.BlockItemList {
		if l.BlockItemList == nil {
			last = l.BlockItem
			break
		}
		b.blockItem(l.BlockItem)
	}
	if last == nil {
		return nil
	}
	if last.Case == cc.BlockItemStmt && last.Statement.Case == cc.StatementExpr &&
		last.Statement.ExpressionStatement.ExpressionList != nil {
		e := last.Statement.ExpressionStatement.ExpressionList
		if e.Type().Kind() == cc.Void {
			b.discard(e)
			return nil
		}
		v := b.rvalue(e)
		// Snapshot: the value must survive the block's end.
		if _, ok := v.(*Const); !ok && v != nil {
			t := b.temp(v.ExprType())
			b.emit(&Assign{Dst: &VarRef{Var: t}, Src: v})
			return &VarRef{Var: t}
		}
		return v
	}
	b.blockItem(last)
	return nil
}

// ---- lvalues ----

func (b *builder) lvalue(e cc.ExpressionNode) lval {
	b.depth++
	if b.depth > 2*maxNesting {
		b.fail("expression nested too deeply")
	}
	defer func() { b.depth-- }()
	switch x := e.(type) {
	case *cc.ExpressionList:
		if x.ExpressionList == nil {
			return b.lvalue(x.AssignmentExpression)
		}
		for l := x; l != nil; l = l.ExpressionList {
			if l.ExpressionList == nil {
				return b.lvalue(l.AssignmentExpression)
			}
			b.discard(l.AssignmentExpression)
		}
	case *cc.PrimaryExpression:
		b.setPos(x)
		switch x.Case {
		case cc.PrimaryExpressionIdent:
			s := b.lookup(x)
			return b.storageLval(s)
		case cc.PrimaryExpressionExpr:
			return b.lvalue(x.ExpressionList)
		case cc.PrimaryExpressionString:
			return lval{addr: b.rvalue(x), ctype: x.Type().Undecay()}
		case cc.PrimaryExpressionStmt:
			v := b.stmtExpr(x.CompoundStatement, x.Type())
			if v != nil && isAggregate(x.Type()) {
				return lval{addr: v, ctype: x.Type()}
			}
		case cc.PrimaryExpressionGeneric:
			if a := x.GenericSelection.Associated(); a != nil {
				return b.lvalue(a.AssignmentExpression)
			}
		}
	case *cc.PostfixExpression:
		b.setPos(x)
		switch x.Case {
		case cc.PostfixExpressionPrimary:
			return b.lvalue(x.PrimaryExpression)
		case cc.PostfixExpressionIndex:
			return b.index(x, false)
		case cc.PostfixExpressionSelect:
			f := x.Field()
			if f == nil {
				b.fail("unresolved field")
			}
			b.checkLayout(x.PostfixExpression.Type())
			base := b.aggAddr(x.PostfixExpression)
			return lval{addr: b.addOff(base, f.Offset()), ctype: f.Type(), field: bitField(f)}
		case cc.PostfixExpressionPSelect:
			f := x.Field()
			if f == nil {
				b.fail("unresolved field")
			}
			if pt, ok := x.PostfixExpression.Type().(*cc.PointerType); ok {
				b.checkLayout(pt.Elem())
			}
			base := b.rvalue(x.PostfixExpression)
			return lval{addr: b.addOff(base, f.Offset()), ctype: f.Type(), field: bitField(f)}
		case cc.PostfixExpressionComplit:
			return b.compoundLiteral(x)
		case cc.PostfixExpressionCall:
			if isAggregate(x.Type()) {
				return lval{addr: b.call(x, false), ctype: x.Type()}
			}
		}
	case *cc.UnaryExpression:
		b.setPos(x)
		switch x.Case {
		case cc.UnaryExpressionPostfix:
			return b.lvalue(x.PostfixExpression)
		case cc.UnaryExpressionDeref:
			p := b.rvalue(x.CastExpression)
			return lval{addr: p, ctype: x.Type().Undecay()}
		}
	case *cc.CastExpression:
		if x.Case == cc.CastExpressionUnary {
			return b.lvalue(x.UnaryExpression)
		}
	case *cc.ConditionalExpression:
		if x.Case == cc.ConditionalExpressionLOr {
			return b.lvalue(x.LogicalOrExpression)
		}
		if isAggregate(x.Type()) {
			return lval{addr: b.rvalue(x), ctype: x.Type()}
		}
	case *cc.AssignmentExpression:
		if x.Case == cc.AssignmentExpressionCond {
			return b.lvalue(x.ConditionalExpression)
		}
		if isAggregate(x.Type()) {
			return lval{addr: b.assignment(x, false), ctype: x.Type()}
		}
	case *cc.LogicalOrExpression:
		if x.Case == cc.LogicalOrExpressionLAnd {
			return b.lvalue(x.LogicalAndExpression)
		}
	case *cc.LogicalAndExpression:
		if x.Case == cc.LogicalAndExpressionOr {
			return b.lvalue(x.InclusiveOrExpression)
		}
	case *cc.InclusiveOrExpression:
		if x.Case == cc.InclusiveOrExpressionXor {
			return b.lvalue(x.ExclusiveOrExpression)
		}
	case *cc.ExclusiveOrExpression:
		if x.Case == cc.ExclusiveOrExpressionAnd {
			return b.lvalue(x.AndExpression)
		}
	case *cc.AndExpression:
		if x.Case == cc.AndExpressionEq {
			return b.lvalue(x.EqualityExpression)
		}
	case *cc.EqualityExpression:
		if x.Case == cc.EqualityExpressionRel {
			return b.lvalue(x.RelationalExpression)
		}
	case *cc.RelationalExpression:
		if x.Case == cc.RelationalExpressionShift {
			return b.lvalue(x.ShiftExpression)
		}
	case *cc.ShiftExpression:
		if x.Case == cc.ShiftExpressionAdd {
			return b.lvalue(x.AdditiveExpression)
		}
	case *cc.AdditiveExpression:
		if x.Case == cc.AdditiveExpressionMul {
			return b.lvalue(x.MultiplicativeExpression)
		}
	case *cc.MultiplicativeExpression:
		if x.Case == cc.MultiplicativeExpressionCast {
			return b.lvalue(x.CastExpression)
		}
	case *cc.ConstantExpression:
		return b.lvalue(x.ConditionalExpression)
	}
	b.failAt(e, "unsupported lvalue %s", nodeSrc(e))
	return lval{}
}

// aggAddr is the address of an aggregate-valued expression.
func (b *builder) aggAddr(e cc.ExpressionNode) Expr {
	lv := b.lvalue(e)
	if lv.reg != nil {
		b.failAt(e, "internal: aggregate in a register")
	}
	return lv.addr
}

// index lowers a[i] (and i[a]). For arrays of known length the index is
// checked to be in [0, len) (in [0, len] when only the address is used).
func (b *builder) index(x *cc.PostfixExpression, addrOnly bool) lval {
	// cc gives array-valued subexpressions (m[i] of int m[3][4]) their
	// decayed pointer type: Undecay recovers the array.
	arr, idx := x.PostfixExpression, x.ExpressionList
	if k := arr.Type().Undecay().Kind(); !(k == cc.Array || k == cc.Ptr) {
		arr, idx = idx, arr
	}
	et := x.Type().Undecay()
	var base Expr
	var length int64 = -1
	if at, ok := b.arrayTypeOf(arr); ok {
		base = b.aggAddr(arr)
		if !at.IsVLA() && at.Len() > 0 {
			length = at.Len()
		}
	} else {
		base = b.rvalue(arr)
	}
	iv := b.rvalue(idx)
	it := idx.Type()
	if length > 0 {
		b.setPos(x)
		b.boundsCheck(x, iv, it, length, addrOnly)
	}
	sz := et.Size()
	if sz <= 0 {
		sz = 1
	}
	return lval{addr: b.ptrAdd(base, b.scaled(iv, it, sz)), ctype: et}
}

// boundsCheck emits 0 <= i < length (i <= length for &a[i]).
func (b *builder) boundsCheck(n cc.Node, iv Expr, it cc.Type, length int64, addrOnly bool) {
	st := b.mustScalar(it)
	if k, ok := iv.(*Const); ok {
		v := k.Value
		if !st.Signed && st.Bits < 64 {
			v = int64(uint64(v) & (1<<uint(st.Bits) - 1))
		}
		if v >= 0 && (v < length || addrOnly && v == length) {
			return
		}
	}
	m := toMath(iv)
	upper := &Binary{Op: Lt, X: m, Y: &Const{Type: MathInt, Value: length}, Type: Bool}
	rel := "<"
	if addrOnly {
		upper = &Binary{Op: Le, X: m, Y: &Const{Type: MathInt, Value: length}, Type: Bool}
		rel = "<="
	}
	var c Expr = upper
	if st.Signed {
		c = &Binary{Op: LAnd, X: &Binary{Op: Le, X: &Const{Type: MathInt}, Y: m, Type: Bool}, Y: upper, Type: Bool}
	}
	b.check(BoundsCheck, c, "index "+nodeSrc(n)+" out of bounds: need 0 <= i "+rel+" "+itoa(length))
}

func itoa(v int64) string {
	return fmtInt(v)
}

// compoundLiteral makes (T){...}: a local object initialized here.
func (b *builder) compoundLiteral(x *cc.PostfixExpression) lval {
	t := x.Type().Undecay() // (int[]){...} is typed as its decayed pointer
	s := b.localStorage(b.curFunc+".complit", t, true)
	base := b.objAddr(s.obj)
	b.zeroFill(base, t)
	for l := x.InitializerList; l != nil; l = l.InitializerList {
		if l.Initializer != nil {
			b.initList(base, t, l.Initializer)
		}
	}
	return lval{addr: base, ctype: t}
}

// ---- loads and stores ----

// load reads an lvalue. Reads of memory and of Global registers go through
// a fresh Local temporary so that every location performs at most one
// shared access (DESIGN.md §2).
func (b *builder) load(lv lval) Expr {
	t := lv.ctype
	if t.Kind() == cc.Array || t.Kind() == cc.Function || isAggregate(t) {
		if lv.reg != nil {
			b.fail("internal: aggregate register")
		}
		return lv.addr
	}
	if isWideInt(t) && lv.field == nil {
		return b.wideValue(nil, t) // wideint.go
	}
	if lv.reg != nil {
		if lv.reg.Scope == Global {
			tmp := b.temp(lv.reg.Type)
			b.emit(&Assign{Dst: &VarRef{Var: tmp}, Src: &VarRef{Var: lv.reg}})
			return &VarRef{Var: tmp}
		}
		return &VarRef{Var: lv.reg}
	}
	if lv.field != nil {
		return b.loadBitField(lv)
	}
	st := b.mustScalar(t)
	tmp := b.temp(st)
	b.emit(&Assign{Dst: &VarRef{Var: tmp}, Src: &Deref{Addr: lv.addr, Type: st}})
	return &VarRef{Var: tmp}
}

// loadSnapshot reads an lvalue into a temporary even for a Local register
// (when the value must survive a later store to the same register).
func (b *builder) loadSnapshot(lv lval) Expr {
	v := b.load(lv)
	if r, ok := v.(*VarRef); ok && r.Var == lv.reg {
		tmp := b.temp(r.Var.Type)
		b.emit(&Assign{Dst: &VarRef{Var: tmp}, Src: v})
		return &VarRef{Var: tmp}
	}
	return v
}

// store writes a converted scalar value (or copies an aggregate from the
// address v).
func (b *builder) store(lv lval, v Expr) {
	t := lv.ctype
	if isAggregate(t) {
		b.copyAgg(lv.addr, v, t)
		return
	}
	if lv.reg != nil {
		b.emit(&Assign{Dst: &VarRef{Var: lv.reg}, Src: b.castTo(v, lv.reg.Type)})
		return
	}
	if lv.field != nil {
		b.storeBitField(lv, v)
		return
	}
	st := b.mustScalar(t)
	b.emit(&Assign{Dst: &Deref{Addr: lv.addr, Type: st}, Src: b.castTo(v, st)})
}

// Bit-fields: the storage unit (AccessBytes wide at the field's byte
// offset) is loaded, and the field's bits are extracted or replaced. A
// store is a read-modify-write of the unit in two locations, as on real
// hardware (not atomic).
func (b *builder) unitType(f *cc.Field) Type {
	return Type{Kind: IntType, Bits: int(f.AccessBytes() * 8)}
}

func (b *builder) loadBitField(lv lval) Expr {
	f := lv.field
	ut := b.unitType(f)
	u := b.temp(ut)
	b.emit(&Assign{Dst: &VarRef{Var: u}, Src: &Deref{Addr: lv.addr, Type: ut}})
	ft := b.mustScalar(f.Type())
	w := int(f.ValueBits())
	sh := f.OffsetBits()
	// Extract: shift the field to the top of a 64-bit value, then back
	// down (arithmetic for signed fields).
	wide := Type{Kind: IntType, Bits: 64, Signed: ft.Signed}
	x := &Binary{Op: Shl, X: &Cast{X: &VarRef{Var: u}, Type: wide}, Y: &Const{Type: Int32, Value: int64(64 - sh - w)}, Type: wide}
	y := &Binary{Op: Shr, X: x, Y: &Const{Type: Int32, Value: int64(64 - w)}, Type: wide}
	return b.castTo(y, ft)
}

func (b *builder) storeBitField(lv lval, v Expr) {
	f := lv.field
	ut := b.unitType(f)
	u := b.temp(ut)
	b.emit(&Assign{Dst: &VarRef{Var: u}, Src: &Deref{Addr: lv.addr, Type: ut}})
	w := uint(f.ValueBits())
	sh := uint(f.OffsetBits())
	mask := int64(((uint64(1) << w) - 1) << sh)
	if w >= 64 {
		mask = -1
	}
	keep := &Binary{Op: And, X: &VarRef{Var: u}, Y: &Const{Type: ut, Value: wrap(^mask, ut)}, Type: ut}
	nv := &Binary{Op: And, X: &Binary{Op: Shl, X: b.castTo(v, ut), Y: &Const{Type: Int32, Value: int64(sh)}, Type: ut}, Y: &Const{Type: ut, Value: wrap(mask, ut)}, Type: ut}
	b.emit(&Assign{Dst: &Deref{Addr: lv.addr, Type: ut}, Src: &Binary{Op: Or, X: keep, Y: nv, Type: ut}})
}

// copyAgg copies an aggregate of type t from src to dst, scalar by
// scalar (each a load into a temporary and a store). Arrays of more than
// unrollLimit elements are copied by a loop.
func (b *builder) copyAgg(dst, src Expr, t cc.Type) {
	b.forScalars(t, func(off Expr, st Type) {
		tmp := b.temp(st)
		b.emit(&Assign{Dst: &VarRef{Var: tmp}, Src: &Deref{Addr: b.ptrAdd(src, off), Type: st}})
		b.emit(&Assign{Dst: &Deref{Addr: b.ptrAdd(dst, off), Type: st}, Src: &VarRef{Var: tmp}})
	})
}

// zeroFill stores zero into every scalar of an object of type t at base.
func (b *builder) zeroFill(base Expr, t cc.Type) {
	b.forScalars(t, func(off Expr, st Type) {
		z := &Const{Type: st}
		if st.Kind == FloatType {
			z = floatConst(0, st)
		}
		b.emit(&Assign{Dst: &Deref{Addr: b.ptrAdd(base, off), Type: st}, Src: z})
	})
}

const unrollLimit = 16

// forScalars calls fn for every scalar position of type t, with the byte
// offset as an expression (a loop counter for long arrays). For unions,
// the largest member is used (the union's bytes as that member's scalars).
// Bit-field units are visited once.
func (b *builder) forScalars(t cc.Type, fn func(off Expr, st Type)) {
	b.forScalarsAt(t, &Const{Type: b.intptr()}, fn, 0)
}

func (b *builder) forScalarsAt(t cc.Type, off Expr, fn func(off Expr, st Type), depth int) {
	if depth > 64 {
		b.fail("type nested too deeply")
	}
	if st, ok := b.scalarType(t); ok {
		fn(off, st)
		return
	}
	addC := func(c int64) Expr {
		return fold(&Binary{Op: Add, X: off, Y: &Const{Type: b.intptr(), Value: c}, Type: b.intptr()})
	}
	switch x := t.(type) {
	case *cc.ArrayType:
		n := x.Len()
		es := x.Elem().Size()
		if n <= 0 || es <= 0 {
			return
		}
		if n <= unrollLimit {
			for i := int64(0); i < n; i++ {
				b.forScalarsAt(x.Elem(), addC(i*es), fn, depth+1)
			}
			return
		}
		// i := 0; while (i < n) { body(off + i*es); i++ }
		ip := b.intptr()
		i := b.temp(ip)
		b.emit(&Assign{Dst: &VarRef{Var: i}, Src: &Const{Type: ip}})
		head := b.join()
		t1, f1 := b.branch(&Binary{Op: Lt, X: &VarRef{Var: i}, Y: &Const{Type: ip, Value: n}, Type: Bool})
		b.cur = t1
		eoff := &Binary{Op: Add, X: off, Y: &Binary{Op: Mul, X: &VarRef{Var: i}, Y: &Const{Type: ip, Value: es}, Type: ip}, Type: ip}
		b.forScalarsAt(x.Elem(), eoff, fn, depth+1)
		b.emit(&Assign{Dst: &VarRef{Var: i}, Src: &Binary{Op: Add, X: &VarRef{Var: i}, Y: &Const{Type: ip, Value: 1}, Type: ip}})
		b.jumpTo(head)
		b.cur = f1
	case *cc.StructType:
		seen := map[int64]bool{}
		for i := 0; ; i++ {
			f := x.FieldByIndex(i)
			if f == nil {
				break
			}
			if f.IsBitfield() {
				if seen[f.Offset()] || f.AccessBytes() == 0 {
					continue
				}
				seen[f.Offset()] = true
				fn(addC(f.Offset()), b.unitType(f))
				continue
			}
			if f.Type().Size() <= 0 {
				continue
			}
			b.forScalarsAt(f.Type(), addC(f.Offset()), fn, depth+1)
		}
	case *cc.UnionType:
		var best *cc.Field
		for i := 0; ; i++ {
			f := x.FieldByIndex(i)
			if f == nil {
				break
			}
			if best == nil || f.Type().Size() > best.Type().Size() {
				best = f
			}
		}
		if best != nil {
			if best.IsBitfield() {
				fn(off, b.unitType(best))
				return
			}
			b.forScalarsAt(best.Type(), off, fn, depth+1)
		}
	default:
		if cc.IsComplexType(t) {
			b.fail("unsupported: complex numbers")
		}
	}
}

// arrayTypeOf returns the array type of an expression that denotes an
// array object. cc types array-valued subexpressions with their decayed
// pointer type (Undecay gives the array back), but a parameter declared
// as an array is a pointer: identifiers are judged by their storage.
func (b *builder) arrayTypeOf(e cc.ExpressionNode) (*cc.ArrayType, bool) {
	if p := unparen(e); p != nil && p.Case == cc.PrimaryExpressionIdent {
		if _, isParam := p.ResolvedTo().(*cc.Parameter); isParam {
			return nil, false
		}
		if d, ok := p.ResolvedTo().(*cc.Declarator); ok && d.IsParam() {
			return nil, false
		}
	}
	if !designatesObject(e) {
		return nil, false
	}
	at, ok := e.Type().Undecay().(*cc.ArrayType)
	return at, ok
}

// designatesObject is false for the operators whose result is a value,
// never an array object: cc types "a + 12" (a an array) with the array's
// decayed pointer type, whose Undecay is the array again, so that
// (a + 12)[0] (pigz's PULL4L(head + 12)) would be taken for indexing a.
func designatesObject(e cc.ExpressionNode) bool {
	for {
		switch x := e.(type) {
		case *cc.PrimaryExpression:
			if x.Case == cc.PrimaryExpressionExpr {
				e = x.ExpressionList
				continue
			}
		case *cc.ExpressionList:
			if x.ExpressionList != nil {
				return false
			}
			e = x.AssignmentExpression
			continue
		case *cc.AdditiveExpression:
			return x.Case == cc.AdditiveExpressionMul
		case *cc.CastExpression:
			return x.Case == cc.CastExpressionUnary
		case *cc.ConditionalExpression:
			return x.Case == cc.ConditionalExpressionLOr
		case *cc.AssignmentExpression:
			return x.Case == cc.AssignmentExpressionCond
		}
		return true
	}
}
