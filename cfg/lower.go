package cfg

import (
	"modernc.org/cc/v4"
)

// lowerTemplate lowers the body of a thread template: main, or a function
// passed to pthread_create.
func (b *builder) lowerTemplate(t *Template, fd *cc.FunctionDefinition) {
	b.tmpl = t
	b.cur = nil
	b.pos = posOf(fd.Declarator)
	if t.ID == 0 {
		t.Entry = b.emit(&InitGlobals{})
		b.startupSpawns()
	} else {
		t.Entry = b.emit(&Skip{})
	}
	fr := b.newFrame(fd, nil)
	ft, _ := fd.Declarator.Type().(*cc.FunctionType)
	var params []*cc.Parameter
	if ft != nil {
		params = ft.Parameters()
	}
	saveFr, saveFunc := b.fr, b.curFunc
	b.fr, b.curFunc = fr, b.lname(fd.Declarator)
	for i, p := range params {
		if p.Type().Kind() == cc.Void {
			continue
		}
		s := b.paramStorage(fr, p)
		st, ok := b.scalarType(p.Type())
		callback := t.ID != 0 && (b.callbacks[t.Name] || b.entries[t.Name])
		if !ok && callback && s.obj != nil {
			// A callback's aggregate parameter: any contents.
			b.forScalars(p.Type(), func(off Expr, st Type) {
				b.emit(&Havoc{Dst: &Deref{Addr: b.ptrAdd(b.objAddr(s.obj), off), Type: st}})
			})
			continue
		}
		if !ok {
			b.fail("unsupported aggregate parameter of a thread template")
		}
		switch {
		case t.ID != 0 && i == 0:
			// The spawn argument arrives in Param (a register); an
			// address-taken parameter is stored into its object.
			if s.reg != nil {
				t.Param = s.reg
			} else {
				t.Param = b.newVar(b.lname(fd.Declarator)+".arg", Local, st)
				b.store(lval{addr: b.objAddr(s.obj), ctype: p.Type()}, &VarRef{Var: t.Param})
			}
		default:
			// main(argc, argv, ...): any values; argv points to unknown memory.
			// A callback's further parameters: any value unknown code
			// may pass (pointers: see pointsTo, cbParams).
			tmp := b.temp(st)
			b.emit(&Havoc{Dst: &VarRef{Var: tmp}})
			if callback {
				b.cbParams = append(b.cbParams, tmp)
			}
			b.store(b.storageLval(s), &VarRef{Var: tmp})
		}
	}
	opaque := t.ID != 0 && (b.callbacks[t.Name] || b.entries[t.Name])
	if opaque && b.entries[t.Name] && ft != nil {
		b.freshClientObjects(t.Name, nonVoidParams(ft))
	}
	b.tmplExits = nil
	b.compound(fd.CompoundStatement)
	b.cur = union(union(b.cur, fr.returns), b.tmplExits)
	if opaque {
		// What a callback or entry returns goes to unknown code.
		switch {
		case fr.ret != nil:
			b.clientObjs = append(b.clientObjs, &VarRef{Var: fr.ret})
		case fr.retObj != nil:
			b.clientObjs = append(b.clientObjs, b.objAddr(fr.retObj))
		}
	}
	t.Exit = b.emit(&Skip{})
	b.cur = nil
	b.lowerGenerics()
	b.tmplExits = nil
	b.fr, b.curFunc = saveFr, saveFunc
}

func (b *builder) newFrame(fd *cc.FunctionDefinition, parent *frame) *frame {
	fr := &frame{fn: fd, name: b.lname(fd.Declarator), vars: map[cc.Node]*storage{}, labels: map[string]*Loc{}, parent: parent}
	if ft, ok := fd.Declarator.Type().(*cc.FunctionType); ok {
		fr.retT = ft.Result()
	}
	return fr
}

// paramStorage creates the storage of a parameter in frame fr.
func (b *builder) paramStorage(fr *frame, p *cc.Parameter) *storage {
	name := fr.name + "." + p.Name()
	addr := b.localAddrTaken(p.Declarator)
	s := b.localStorage(name, p.Type(), addr)
	fr.vars[p] = s
	if p.Declarator != nil {
		fr.vars[p.Declarator] = s
	}
	return s
}

// localStorage makes a register for a scalar local whose address is never
// taken, else a LocalObject (one per inlined instance; a generic instance's
// objects are summaries, see call.go).
func (b *builder) localStorage(name string, t cc.Type, addrTaken bool) *storage {
	s := &storage{ctype: t}
	if st, ok := b.scalarType(t); ok && !addrTaken {
		s.reg = b.newVar(name, Local, st)
		return s
	}
	if at, ok := t.(*cc.ArrayType); ok && (at.IsVLA() || at.Size() <= 0) {
		s.obj = b.newObject(name, LocalObject, at.Elem(), true)
	} else {
		s.obj = b.newObject(name, LocalObject, t, false)
	}
	return s
}

// nameAddrTaken reports whether &name appears anywhere in the unit
// (a conservative complement to cc's per-declarator flag).
func (b *builder) nameAddrTaken(name string) bool {
	b.globalAddrTaken(name)
	return b.addrTakenGlobals[name]
}

func (b *builder) storageLval(s *storage) lval {
	if s.reg != nil {
		return lval{reg: s.reg, ctype: s.ctype}
	}
	return lval{addr: b.objAddr(s.obj), ctype: s.ctype}
}

func (b *builder) objAddr(o *Object) Expr {
	return &AddrOf{Object: o, Type: b.ptrType()}
}

func (b *builder) ptrType() Type { return Type{Kind: PtrType, Bits: b.model.PtrBits()} }

// ---- statements ----

func (b *builder) compound(cs *cc.CompoundStatement) {
	if cs == nil {
		return
	}
	var items []*cc.BlockItem
	for l := cs.BlockItemList; l != nil; l = l.BlockItemList {
		items = append(items, l.BlockItem)
	}
	mark := b.cleanupMark()
	b.joinAllItems(items) // blockItem for each, recording join-all loops
	b.closeCleanups(mark)
	if b.fr.fn != nil && cs == b.fr.fn.CompoundStatement {
		b.checkPendingGotos()
	}
}

func (b *builder) blockItem(bi *cc.BlockItem) {
	if bi == nil {
		return
	}
	switch bi.Case {
	case cc.BlockItemDecl:
		b.localDeclaration(bi.Declaration)
	case cc.BlockItemStmt:
		b.stmt(bi.Statement)
	case cc.BlockItemLabel:
		// __label__ declarations: labels are per frame anyway.
	case cc.BlockItemFuncDef:
		b.failAt(bi.Declarator, "unsupported: nested function definition")
	}
}

func (b *builder) localDeclaration(d *cc.Declaration) {
	if d == nil {
		return
	}
	if d.Case != cc.DeclarationDecl && d.Case != cc.DeclarationAuto {
		return // _Static_assert
	}
	b.declarationModes(d, false) // ignoredattr.go
	if d.Case == cc.DeclarationAuto {
		// __auto_type x = e; (GCC; <stdatomic.h>'s generic macros use
		// it): x has e's type, which cc gave the declarator.
		b.localDeclarator(d.Declarator, d.Initializer, cleanupAttrs(d, d.Declarator, nil))
		return
	}
	for idl := d.InitDeclaratorList; idl != nil; idl = idl.InitDeclaratorList {
		id := idl.InitDeclarator
		b.localDeclarator(id.Declarator, id.Initializer, cleanupAttrs(d, id.Declarator, id.AttributeSpecifierList))
	}
}

// localDeclarator lowers one declarator of a block-scope declaration and
// its initializer (nil: none); cleanups are its cleanup attributes
// (cleanup.go).
func (b *builder) localDeclarator(decl *cc.Declarator, init *cc.Initializer, cleanups []*cc.AttributeValue) {
	if decl == nil {
		return
	}
	if decl.IsTypename() {
		// A typedef's VLA sizes are evaluated where it is declared.
		b.arraySizeEffects(decl.DirectDeclarator)
		return
	}
	b.setPos(decl)
	t := decl.Type()
	if t.Kind() == cc.Function {
		if _, ok := b.funcDecls[decl.Name()]; !ok {
			b.funcDecls[decl.Name()] = decl
		}
		return
	}
	// A static or extern local's cleanup attribute is ignored, as GCC
	// ignores it.
	if decl.IsExtern() {
		s := b.globalStorage(decl)
		b.fr.vars[decl] = s
		return
	}
	if decl.IsStatic() {
		b.staticLocal(decl, init)
		return
	}
	b.arraySizeEffects(decl.DirectDeclarator)
	var cleanupFn string
	switch len(cleanups) {
	case 0:
	case 1:
		cleanupFn = b.cleanupFunc(cleanups[0])
	default:
		b.failAt(cleanups[1], "unsupported: several cleanup attributes on %s", decl.Name())
	}
	// A cleanup variable's address is its cleanup function's argument.
	addr := b.localAddrTaken(decl) || decl.IsAtomic() || cleanupFn != ""
	s := b.localStorage(b.fr.name+"."+decl.Name(), t, addr)
	b.fr.vars[decl] = s
	if init != nil {
		b.initLocal(s, t, init)
	}
	if cleanupFn != "" {
		// In scope, and cleaned up, from the end of its declarator on.
		b.pushCleanup(cleanups[0], cleanupFn, s)
	}
}

// arraySizeEffects evaluates the array sizes of a local declarator (a
// VLA's, a pointer to one's, a typedef's) that have side effects: C
// evaluates them when the declaration is reached (C11 6.7.6.2p5), and
// `int a[h++]` dropped h's increment, proving a later h == 0 that gcc's
// binary fails.
// Sizes without side effects are not lowered (their value is not used:
// a VLA object is a summary of any length). Parameter lists are not
// visited (not evaluated at the declaration).
func (b *builder) arraySizeEffects(dd *cc.DirectDeclarator) {
	for ; dd != nil; dd = dd.DirectDeclarator {
		if e := dd.AssignmentExpression; e != nil && hasSideEffects(e) {
			b.setPos(e)
			b.discard(e)
		}
		if dd.Declarator != nil {
			b.arraySizeEffects(dd.Declarator.DirectDeclarator)
		}
	}
}

// abstractSizeEffects is arraySizeEffects for the abstract declarator
// of a type name.
func (b *builder) abstractSizeEffects(ad *cc.AbstractDeclarator) {
	if ad == nil {
		return
	}
	for dd := ad.DirectAbstractDeclarator; dd != nil; dd = dd.DirectAbstractDeclarator {
		if e := dd.AssignmentExpression; e != nil && hasSideEffects(e) {
			b.setPos(e)
			b.discard(e)
		}
		b.abstractSizeEffects(dd.AbstractDeclarator)
	}
}

// hasSideEffects reports whether evaluating e may write memory or call a
// function (conservatively: any assignment, increment, call or statement
// expression in it, evaluated or not).
func hasSideEffects(e cc.ExpressionNode) bool {
	found := false
	walkAST(e, func(n cc.Node) {
		switch x := n.(type) {
		case *cc.AssignmentExpression:
			found = found || x.Case != cc.AssignmentExpressionCond
		case *cc.UnaryExpression:
			found = found || x.Case == cc.UnaryExpressionInc || x.Case == cc.UnaryExpressionDec
		case *cc.PostfixExpression:
			found = found || x.Case == cc.PostfixExpressionInc || x.Case == cc.PostfixExpressionDec || x.Case == cc.PostfixExpressionCall
		case *cc.PrimaryExpression:
			found = found || x.Case == cc.PrimaryExpressionStmt
		}
	})
	return found
}

// staticLocal makes a block-scope static: one instance program-wide,
// initialized at program start like a global.
func (b *builder) staticLocal(decl *cc.Declarator, init *cc.Initializer) {
	if s := b.statics[decl]; s != nil {
		b.fr.vars[decl] = s
		return
	}
	name := b.curFunc + "." + decl.Name()
	t := decl.Type()
	s := &storage{ctype: t}
	saveT := b.tmpl
	if st, ok := b.scalarType(t); ok && !decl.AddressTaken() && !b.nameAddrTaken(decl.Name()) {
		s.reg = b.newVar(name, Global, st)
	} else {
		s.obj = b.newObject(name, GlobalObject, t, false)
	}
	b.tmpl = saveT
	b.statics[decl] = s
	b.fr.vars[decl] = s
	if init != nil {
		b.staticInit(s, init)
	}
}

func (b *builder) stmt(s *cc.Statement) {
	if s == nil {
		return
	}
	b.depth++
	if b.depth > 2*maxNesting {
		b.fail("statements nested too deeply")
	}
	defer func() { b.depth-- }()
	switch s.Case {
	case cc.StatementLabeled:
		b.labeled(s.LabeledStatement)
	case cc.StatementCompound:
		b.compound(s.CompoundStatement)
	case cc.StatementExpr:
		if es := s.ExpressionStatement; es != nil && es.ExpressionList != nil {
			b.setPos(es.ExpressionList)
			b.discard(es.ExpressionList)
		}
	case cc.StatementSelection:
		b.selection(s.SelectionStatement)
	case cc.StatementIteration:
		b.iteration(s.IterationStatement)
	case cc.StatementJump:
		b.jump(s.JumpStatement)
	case cc.StatementAsm:
		b.setPos(s.AsmStatement)
		b.asm(s.AsmStatement)
	}
}

func (b *builder) labelLoc(name string) *Loc {
	if l := b.fr.labels[name]; l != nil {
		return l
	}
	l := b.newLoc(&Skip{})
	b.fr.labels[name] = l
	return l
}

func (b *builder) labeled(ls *cc.LabeledStatement) {
	b.setPos(ls)
	switch ls.Case {
	case cc.LabeledStatementLabel:
		l := b.labelLoc(ls.Token.SrcStr())
		b.labelCleanups(ls.Token.SrcStr(), l)
		b.jumpTo(l)
		b.cur = []*Loc{l}
	case cc.LabeledStatementCaseLabel, cc.LabeledStatementRange, cc.LabeledStatementDefault:
		var l *Loc
		var sc *switchCtx
		for i := len(b.fr.switches) - 1; i >= 0 && l == nil; i-- {
			sc = b.fr.switches[i]
			l = sc.cases[ls]
		}
		if l == nil {
			b.fail("case label outside switch")
		}
		b.checkCaseScope(sc)
		b.jumpTo(l)
		b.cur = []*Loc{l}
	}
	b.stmt(ls.Statement)
}

func (b *builder) selection(ss *cc.SelectionStatement) {
	b.setPos(ss)
	if b.assertStmt(ss) { // assert.go
		return
	}
	switch ss.Case {
	case cc.SelectionStatementIf:
		t, f := b.cond(ss.ExpressionList)
		b.cur = t
		b.stmt(ss.Statement)
		b.cur = union(b.cur, f)
	case cc.SelectionStatementIfElse:
		t, f := b.cond(ss.ExpressionList)
		b.cur = t
		b.stmt(ss.Statement)
		endT := b.cur
		b.cur = f
		b.stmt(ss.Statement2)
		b.cur = union(endT, b.cur)
	case cc.SelectionStatementSwitch:
		b.switchStmt(ss)
	}
}

func (b *builder) switchStmt(ss *cc.SelectionStatement) {
	ct := cc.IntegerPromotion(ss.ExpressionList.Type())
	v := b.conv(b.rvalue(ss.ExpressionList), ss.ExpressionList.Type(), ct)
	if _, ok := v.(*Const); !ok {
		if _, ok := v.(*VarRef); !ok {
			t := b.temp(v.ExprType())
			b.emit(&Assign{Dst: &VarRef{Var: t}, Src: v})
			v = &VarRef{Var: t}
		}
	}
	vt := v.ExprType()
	sc := &switchCtx{cases: map[*cc.LabeledStatement]*Loc{}, cleanups: b.cleanupMark()}
	var def *cc.LabeledStatement
	for _, ls := range ss.LabeledStatements() {
		if ls.Switch() != ss {
			continue
		}
		b.setPos(ls)
		l := b.newLoc(&Skip{})
		sc.cases[ls] = l
		switch ls.Case {
		case cc.LabeledStatementDefault:
			def = ls
		case cc.LabeledStatementCaseLabel:
			c := b.constOf(ls.ConstantExpression, vt)
			var match Expr = &Binary{Op: Eq, X: v, Y: c, Type: Bool}
			if isWideInt(ct) {
				match = b.wideTruth(ls) // wideint.go
			}
			t, f := b.branch(match)
			b.cur = t
			b.jumpTo(l)
			b.cur = f
		case cc.LabeledStatementRange:
			lo := b.constOf(ls.ConstantExpression, vt)
			hi := b.constOf(ls.ConstantExpression2, vt)
			var c Expr = &Binary{Op: LAnd, X: &Binary{Op: Le, X: lo, Y: v, Type: Bool}, Y: &Binary{Op: Le, X: v, Y: hi, Type: Bool}, Type: Bool}
			if isWideInt(ct) {
				c = b.wideTruth(ls)
			}
			t, f := b.branch(c)
			b.cur = t
			b.jumpTo(l)
			b.cur = f
		}
	}
	var brk []*Loc
	if def != nil {
		b.jumpTo(sc.cases[def])
	} else {
		brk = b.cur
	}
	b.cur = nil
	b.fr.switches = append(b.fr.switches, sc)
	b.fr.brk = append(b.fr.brk, &brk)
	cs := &b.fr.cleanups
	cs.brk = append(cs.brk, sc.cleanups)
	b.stmt(ss.Statement)
	b.fr.switches = b.fr.switches[:len(b.fr.switches)-1]
	b.fr.brk = b.fr.brk[:len(b.fr.brk)-1]
	cs.brk = cs.brk[:len(cs.brk)-1]
	b.cur = union(b.cur, brk)
}

// constOf evaluates a constant expression to a Const of type t.
func (b *builder) constOf(e cc.ExpressionNode, t Type) *Const {
	v, ok := intValue(e.Value())
	if !ok {
		b.failAt(e, "case label is not an integer constant")
	}
	return &Const{Type: t, Value: wrap(v, t)}
}

func (b *builder) iteration(is *cc.IterationStatement) {
	b.setPos(is)
	var brk, cont []*Loc
	cs := &b.fr.cleanups
	pushLoop := func() {
		b.fr.brk = append(b.fr.brk, &brk)
		b.fr.cont = append(b.fr.cont, &cont)
		// break and continue stay in the scopes open at the loop (a for
		// clause's declaration included) and leave those of the body.
		cs.brk = append(cs.brk, b.cleanupMark())
		cs.cont = append(cs.cont, b.cleanupMark())
	}
	popLoop := func() {
		b.fr.brk = b.fr.brk[:len(b.fr.brk)-1]
		b.fr.cont = b.fr.cont[:len(b.fr.cont)-1]
		cs.brk = cs.brk[:len(cs.brk)-1]
		cs.cont = cs.cont[:len(cs.cont)-1]
	}
	switch is.Case {
	case cc.IterationStatementWhile:
		head := b.join()
		t, f := b.cond(is.ExpressionList)
		b.cur = t
		pushLoop()
		b.stmt(is.Statement)
		popLoop()
		b.cur = union(b.cur, cont)
		b.jumpTo(head)
		b.cur = union(f, brk)
	case cc.IterationStatementDo:
		head := b.join()
		pushLoop()
		b.stmt(is.Statement)
		popLoop()
		b.cur = union(b.cur, cont)
		b.setPos(is.ExpressionList)
		t, f := b.cond(is.ExpressionList)
		b.cur = t
		b.jumpTo(head)
		b.cur = union(f, brk)
	case cc.IterationStatementFor, cc.IterationStatementForDecl:
		// for (e1; e2; e3) keeps e2, e3 in ExpressionList2, 3; with a
		// declaration, cc keeps the condition in ExpressionList and the
		// post expression in ExpressionList2.
		condE, postE := is.ExpressionList2, is.ExpressionList3
		mark := b.cleanupMark() // the for statement's own scope
		if is.Case == cc.IterationStatementForDecl {
			b.localDeclaration(is.Declaration)
			condE, postE = is.ExpressionList, is.ExpressionList2
		} else if is.ExpressionList != nil {
			b.discard(is.ExpressionList)
		}
		head := b.join()
		var f []*Loc
		if condE != nil {
			var t []*Loc
			t, f = b.cond(condE)
			b.cur = t
		}
		pushLoop()
		b.stmt(is.Statement)
		popLoop()
		b.cur = union(b.cur, cont)
		if postE != nil {
			b.setPos(postE)
			b.discard(postE)
		}
		b.jumpTo(head)
		b.cur = union(f, brk)
		b.closeCleanups(mark) // the declaration's variables, on leaving the loop
	}
}

func (b *builder) jump(js *cc.JumpStatement) {
	b.setPos(js)
	switch js.Case {
	case cc.JumpStatementGoto:
		name := js.Token2.SrcStr()
		b.gotoCleanups(name, b.labelLoc(name))
	case cc.JumpStatementGotoExpr:
		b.fail("unsupported: computed goto")
	case cc.JumpStatementContinue:
		if len(b.fr.cont) == 0 {
			b.fail("continue outside a loop")
		}
		b.leaveTo(b.fr.cleanups.cont[len(b.fr.cleanups.cont)-1])
		c := b.fr.cont[len(b.fr.cont)-1]
		*c = union(*c, b.cur)
		b.cur = nil
	case cc.JumpStatementBreak:
		if len(b.fr.brk) == 0 {
			b.fail("break outside a loop or switch")
		}
		b.leaveTo(b.fr.cleanups.brk[len(b.fr.cleanups.brk)-1])
		c := b.fr.brk[len(b.fr.brk)-1]
		*c = union(*c, b.cur)
		b.cur = nil
	case cc.JumpStatementReturn:
		if js.ExpressionList != nil {
			b.returnValue(js.ExpressionList)
		}
		// After the value is in the result register or object: the
		// cleanups cannot change what is returned.
		b.leaveTo(0)
		b.fr.returns = union(b.fr.returns, b.cur)
		b.cur = nil
	}
}

func (b *builder) returnValue(e cc.ExpressionNode) {
	fr := b.fr
	rt := fr.retT
	if rt == nil || rt.Kind() == cc.Void {
		b.discard(e)
		return
	}
	if isAggregate(rt) {
		src := b.rvalue(e)
		if fr.retObj == nil {
			fr.retObj = b.newObject(fr.name+".ret", LocalObject, rt, false)
		}
		b.copyAgg(b.objAddr(fr.retObj), src, rt)
		return
	}
	v := b.conv(b.rvalue(e), e.Type(), rt)
	if fr.ret == nil {
		fr.ret = b.newVar(fr.name+".ret", Local, b.mustScalar(rt))
	}
	b.emit(&Assign{Dst: &VarRef{Var: fr.ret}, Src: v})
}

// ---- initializers ----

// initLocal lowers the initializer of an automatic variable as stores.
func (b *builder) initLocal(s *storage, t cc.Type, in *cc.Initializer) {
	if s.reg != nil {
		if in.Case != cc.InitializerExpr {
			// scalar with braces: {e}
			if in.InitializerList != nil && in.InitializerList.Initializer != nil {
				in = in.InitializerList.Initializer
			}
			if in.Case != cc.InitializerExpr {
				b.emit(&Assign{Dst: &VarRef{Var: s.reg}, Src: &Const{Type: s.reg.Type}})
				return
			}
		}
		v := b.conv(b.rvalue(in.AssignmentExpression), in.AssignmentExpression.Type(), t)
		b.emit(&Assign{Dst: &VarRef{Var: s.reg}, Src: v})
		return
	}
	base := b.objAddr(s.obj)
	if isLockType(t) {
		b.store(lval{addr: base, ctype: t}, &Const{Type: Int32})
		return
	}
	if in.Case == cc.InitializerExpr && !isAggregate(t) {
		v := b.conv(b.rvalue(in.AssignmentExpression), in.AssignmentExpression.Type(), t)
		b.store(lval{addr: base, ctype: t}, v)
		return
	}
	if in.Case == cc.InitializerExpr && t.Kind() != cc.Array {
		// struct s = expr;
		src := b.rvalue(in.AssignmentExpression)
		b.copyAgg(base, src, t)
		return
	}
	// Aggregates with a list (or a string for a char array): zero the
	// object, then store the initialized scalars in source order.
	b.zeroFill(base, t)
	b.initList(base, t, in)
}

// initList stores the scalar initializers of in (offsets are relative to
// the whole object, as cc computes them).
func (b *builder) initList(base Expr, t cc.Type, in *cc.Initializer) {
	b.forInitLeaves(in, func(off int64, lt cc.Type, e cc.ExpressionNode, f *cc.Field) {
		if lt.Kind() == cc.Array {
			// char array from a string literal
			if sv, ok := e.Value().(cc.StringValue); ok {
				str := string(sv)
				at := lt.(*cc.ArrayType)
				es := at.Elem()
				for i := int64(0); i < int64(len(str)) && (at.Len() <= 0 || i < at.Len()); i++ {
					b.store(lval{addr: b.addOff(base, off+i*es.Size()), ctype: es}, &Const{Type: b.mustScalar(es), Value: int64(int8(str[i]))})
				}
				return
			}
			b.fail("unsupported array initializer")
		}
		if isAggregate(lt) {
			b.copyAgg(b.addOff(base, off), b.rvalue(e), lt)
			return
		}
		v := b.conv(b.rvalue(e), e.Type(), lt)
		b.store(lval{addr: b.addOff(base, off), ctype: lt, field: bitField(f)}, v)
	})
}

func bitField(f *cc.Field) *cc.Field {
	if f != nil && f.IsBitfield() {
		return f
	}
	return nil
}

// forInitLeaves calls leafFn for every expression initializer below in,
// replicated for [lo ... hi] designators.
func (b *builder) forInitLeaves(in *cc.Initializer, leafFn func(off int64, t cc.Type, e cc.ExpressionNode, f *cc.Field)) {
	var walk func(in *cc.Initializer, depth int)
	walk = func(in *cc.Initializer, depth int) {
		if depth > maxNesting {
			b.fail("initializer nested too deeply")
		}
		switch in.Case {
		case cc.InitializerExpr:
			t := in.Type()
			n := in.Len()
			step := t.Size()
			if n > 1 && step <= 0 {
				n = 1
			}
			if n > 1<<16 {
				b.fail("unsupported: range designator of %d elements", n)
			}
			for k := int64(0); k < n; k++ {
				leafFn(in.Offset()+k*step, t, in.AssignmentExpression, in.Field())
			}
		case cc.InitializerInitList:
			for l := in.InitializerList; l != nil; l = l.InitializerList {
				if l.Initializer != nil {
					walk(l.Initializer, depth+1)
				}
			}
		}
	}
	walk(in, 0)
}

// staticInit records the initial value of a static-duration variable:
// Var.Init for a register, Object.Init for an object. Values must be
// constants or address constants.
func (b *builder) staticInit(s *storage, in *cc.Initializer) {
	if s == nil {
		return
	}
	if s.reg != nil {
		e := in
		for e.Case == cc.InitializerInitList && e.InitializerList != nil && e.InitializerList.Initializer != nil {
			e = e.InitializerList.Initializer
		}
		if e.Case != cc.InitializerExpr {
			return
		}
		s.reg.Init = b.constInit(e.AssignmentExpression, s.ctype)
		return
	}
	o := s.obj
	o.Init = nil
	if isLockType(s.ctype) {
		return // lock word 0
	}
	if in.Case == cc.InitializerExpr && !isAggregate(s.ctype) {
		o.Init = append(o.Init, InitValue{Offset: 0, Type: b.mustScalar(s.ctype), Value: b.constInit(in.AssignmentExpression, s.ctype)})
		return
	}
	b.forInitLeaves(in, func(off int64, lt cc.Type, e cc.ExpressionNode, f *cc.Field) {
		if lt.Kind() == cc.Array {
			if sv, ok := e.Value().(cc.StringValue); ok {
				str := string(sv)
				at := lt.(*cc.ArrayType)
				es := at.Elem()
				st := b.mustScalar(es)
				for i := int64(0); i < int64(len(str)) && (at.Len() <= 0 || i < at.Len()); i++ {
					o.Init = append(o.Init, InitValue{Offset: off + i*es.Size(), Type: st, Value: &Const{Type: st, Value: wrap(int64(str[i]), st)}})
				}
				return
			}
			b.failAt(e, "unsupported static array initializer")
		}
		if f != nil && f.IsBitfield() {
			v, ok := intValue(e.Value())
			if !ok {
				b.failAt(e, "non-constant bit-field initializer")
			}
			ut := Type{Kind: IntType, Bits: int(f.AccessBytes() * 8)}
			// merge into the storage unit's value
			bits := (uint64(v) & (uint64(1)<<uint(f.ValueBits()) - 1)) << uint(f.OffsetBits())
			for i := range o.Init {
				if o.Init[i].Offset == off && o.Init[i].Type == ut {
					c := o.Init[i].Value.(*Const)
					o.Init[i].Value = &Const{Type: ut, Value: c.Value | int64(bits)}
					return
				}
			}
			o.Init = append(o.Init, InitValue{Offset: off, Type: ut, Value: &Const{Type: ut, Value: int64(bits)}})
			return
		}
		if isAggregate(lt) {
			b.failAt(e, "unsupported: aggregate copy in a static initializer")
		}
		o.Init = append(o.Init, InitValue{Offset: off, Type: b.mustScalar(lt), Value: b.constInit(e, lt)})
	})
}

// constInit evaluates a static initializer expression: an arithmetic
// constant or an address constant (&x, &x.f, arrays, functions, string
// literals, plus or minus a constant).
func (b *builder) constInit(e cc.ExpressionNode, t cc.Type) Expr {
	st := b.mustScalar(t)
	if isWideInt(t) {
		// Never read as this type: a 128-bit register's reads are any
		// value, and an object holding one is a blob whose cells this
		// 64-bit entry only overlaps (wideint.go). cc folds no 128-bit
		// constant.
		return &Const{Type: st}
	}
	if v, ok := intValue(e.Value()); ok && st.Kind != FloatType {
		return &Const{Type: st, Value: wrap(v, st)}
	}
	if f, ok := floatValue(e.Value()); ok {
		return floatConst(f, st)
	}
	a, ok := b.addrConst(e)
	if !ok {
		b.failAt(e, "initializer is not a constant: %s", cc.NodeSource(e))
	}
	if st.Kind != PtrType {
		return &Cast{X: a, Type: st}
	}
	return a
}

// addrConst evaluates an address constant.
func (b *builder) addrConst(e cc.ExpressionNode) (*AddrOf, bool) {
	switch x := e.(type) {
	case *cc.PrimaryExpression:
		switch x.Case {
		case cc.PrimaryExpressionExpr:
			return b.addrConst(x.ExpressionList)
		case cc.PrimaryExpressionString:
			sv, _ := x.Value().(cc.StringValue)
			return &AddrOf{Object: b.stringObject(trimNul(string(sv))), Type: b.ptrType()}, true
		case cc.PrimaryExpressionIdent:
			switch d := x.ResolvedTo().(type) {
			case *cc.Declarator:
				if d.Type().Kind() == cc.Function {
					return &AddrOf{Object: b.funcObject(b.lname(d)), Type: b.ptrType()}, true
				}
				if d.Type().Kind() == cc.Array {
					s := b.staticStorageOf(d)
					if s != nil && s.obj != nil {
						return &AddrOf{Object: s.obj, Type: b.ptrType()}, true
					}
				}
			}
		}
	case *cc.ExpressionList:
		if x.ExpressionList == nil {
			return b.addrConst(x.AssignmentExpression)
		}
	case *cc.CastExpression:
		if x.Case == cc.CastExpressionCast {
			if v, ok := intValue(x.CastExpression.Value()); ok && v == 0 {
				return nil, false
			}
			return b.addrConst(x.CastExpression)
		}
	case *cc.UnaryExpression:
		if x.Case == cc.UnaryExpressionAddrof {
			return b.addrOfConst(x.CastExpression)
		}
	case *cc.AdditiveExpression:
		a, ok := b.addrConst(x.AdditiveExpression)
		if !ok {
			return nil, false
		}
		k, ok := intValue(x.MultiplicativeExpression.Value())
		if !ok {
			return nil, false
		}
		pt, ok2 := x.AdditiveExpression.Type().Decay().(*cc.PointerType)
		if !ok2 {
			return nil, false
		}
		sz := pt.Elem().Size()
		if x.Case == cc.AdditiveExpressionSub {
			k = -k
		}
		return &AddrOf{Object: a.Object, Offset: a.Offset + k*sz, Type: a.Type}, true
	}
	return nil, false
}

// addrOfConst evaluates &lvalue in a static initializer.
func (b *builder) addrOfConst(e cc.ExpressionNode) (*AddrOf, bool) {
	switch x := e.(type) {
	case *cc.PrimaryExpression:
		switch x.Case {
		case cc.PrimaryExpressionExpr:
			return b.addrOfConst(x.ExpressionList)
		case cc.PrimaryExpressionIdent:
			d, ok := x.ResolvedTo().(*cc.Declarator)
			if !ok {
				return nil, false
			}
			if d.Type().Kind() == cc.Function {
				return &AddrOf{Object: b.funcObject(b.lname(d)), Type: b.ptrType()}, true
			}
			s := b.staticStorageOf(d)
			if s == nil || s.obj == nil {
				return nil, false
			}
			return &AddrOf{Object: s.obj, Type: b.ptrType()}, true
		case cc.PrimaryExpressionString:
			sv, _ := x.Value().(cc.StringValue)
			return &AddrOf{Object: b.stringObject(trimNul(string(sv))), Type: b.ptrType()}, true
		}
	case *cc.ExpressionList:
		if x.ExpressionList == nil {
			return b.addrOfConst(x.AssignmentExpression)
		}
	case *cc.PostfixExpression:
		switch x.Case {
		case cc.PostfixExpressionSelect:
			a, ok := b.addrOfConst(x.PostfixExpression)
			if !ok || x.Field() == nil {
				return nil, false
			}
			return &AddrOf{Object: a.Object, Offset: a.Offset + x.Field().Offset(), Type: a.Type}, true
		case cc.PostfixExpressionPSelect:
			a, ok := b.addrConst(x.PostfixExpression)
			if !ok || x.Field() == nil {
				return nil, false
			}
			return &AddrOf{Object: a.Object, Offset: a.Offset + x.Field().Offset(), Type: a.Type}, true
		case cc.PostfixExpressionIndex:
			k, ok := intValue(x.ExpressionList.Value())
			if !ok {
				return nil, false
			}
			var a *AddrOf
			if x.PostfixExpression.Type().Kind() == cc.Array {
				a, ok = b.addrOfConst(x.PostfixExpression)
			} else {
				a, ok = b.addrConst(x.PostfixExpression)
			}
			if !ok {
				return nil, false
			}
			return &AddrOf{Object: a.Object, Offset: a.Offset + k*x.Type().Size(), Type: a.Type}, true
		}
	case *cc.UnaryExpression:
		if x.Case == cc.UnaryExpressionDeref {
			return b.addrConst(x.CastExpression)
		}
	}
	return nil, false
}

// staticStorageOf finds the storage of a static-duration declarator.
func (b *builder) staticStorageOf(d *cc.Declarator) *storage {
	if s := b.statics[d]; s != nil {
		return s
	}
	if d.StorageDuration() == cc.Static && !d.IsStatic() || d.Linkage() != cc.None {
		if s := b.globals[b.lname(d)]; s != nil {
			return s
		}
		return b.globalStorage(d)
	}
	if d.IsStatic() {
		if b.fr == nil {
			return b.globals[b.lname(d)]
		}
	}
	return nil
}

func trimNul(s string) string {
	if n := len(s); n > 0 && s[n-1] == 0 {
		return s[:n-1]
	}
	return s
}
