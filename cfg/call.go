package cfg

import (
	"fmt"
	"go/token"
	"strings"

	"modernc.org/cc/v4"
)

// unknownCall is a call to an external function without a body. After the
// points-to analysis it is replaced by havocs of every cell reachable from
// its pointer arguments (finish.go); its result is havocked here.
type unknownCall struct {
	loc   *Loc // a Skip placeholder
	name  string
	args  []Expr
	res   *Var   // may be nil
	cells []*Var // the cells havocked (after expansion)
	// memcpy/memmove: pointers stored in the source's objects may be
	// copied into the destination's.
	copyDst, copySrc Expr
	pos              token.Position
	// spawns are the callback spawns of this call (callback.go), one per
	// function of builder.callbacks, narrowed after the points-to
	// analysis to the functions the external can reach.
	spawns []*Loc
	dead   bool // on a cut path (indirectFallback): no effects, no note
	// pending: the unknown-callee path of an indirect call not yet shown
	// to be taken (pointsToLiveFallbacks): left out of the points-to
	// analysis.
	pending bool
	kind    libcKind
}

// presentArgs is vals without the arguments that have no value (nil).
func presentArgs(vals []Expr) []Expr {
	var out []Expr
	for _, v := range vals {
		if v != nil {
			out = append(out, v)
		}
	}
	return out
}

// addUnknownCall emits uc's location (a Skip the later passes expand into
// its effects) and records it.
func (b *builder) addUnknownCall(uc *unknownCall) {
	uc.loc = b.emit(&Skip{})
	b.unknownCalls = append(b.unknownCalls, uc)
}

func argList(l *cc.ArgumentExpressionList) []cc.ExpressionNode {
	var out []cc.ExpressionNode
	for ; l != nil; l = l.ArgumentExpressionList {
		out = append(out, l.AssignmentExpression)
	}
	return out
}

// calleeName returns the source name of a directly called function, or
// "" (library functions are recognized by it).
func calleeName(e cc.ExpressionNode) string {
	p := unparen(e)
	if p == nil || p.Case != cc.PrimaryExpressionIdent {
		return ""
	}
	switch d := p.ResolvedTo().(type) {
	case *cc.Declarator:
		if d.Type().Kind() == cc.Function {
			return d.Name()
		}
	case nil:
		return p.Token.SrcStr()
	}
	return ""
}

// calleeName returns the (linker) name of a directly called function, or "".
func (b *builder) calleeName(e cc.ExpressionNode) string {
	p := unparen(e)
	if p == nil || p.Case != cc.PrimaryExpressionIdent {
		return ""
	}
	switch d := p.ResolvedTo().(type) {
	case *cc.Declarator:
		if d.Type().Kind() == cc.Function {
			return b.lname(d)
		}
	case nil:
		// implicitly declared function
		return p.Token.SrcStr()
	}
	return ""
}

// call lowers a function call. It returns the result value (the result
// object's address for aggregates; nil for void).
func (b *builder) call(x *cc.PostfixExpression, discard bool) Expr {
	b.setPos(x)
	args := argList(x.ArgumentExpressionList)
	if name := b.calleeName(x.PostfixExpression); name != "" {
		if v, ok := b.builtin(name, x, args, discard); ok {
			return v
		}
		return b.callNamed(name, x, args, nil)
	}
	// Indirect call: a switch over the candidate functions. A call through
	// a pointer to a function of an incompatible type is undefined (C11
	// 6.3.2.3p8), so candidates are the address-taken functions whose
	// parameters and result have compatible shapes.
	ft := funcTypeOf(x.PostfixExpression.Type())
	fp := b.rvalue(x.PostfixExpression)
	cands := b.candidates(ft, len(args))
	if len(cands) == 0 {
		b.assume(b.pos, "indirect call %s has no known target: treated as an unknown function", nodeSrc(x.PostfixExpression))
		return b.unknownCallee(nodeSrc(x.PostfixExpression), x, args)
	}
	if k, ok := fp.(*AddrOf); ok && k.Object.Kind == FuncObject && k.Offset == 0 {
		return b.callNamed(k.Object.Func, x, args, nil)
	}
	if _, ok := fp.(*VarRef); !ok {
		t := b.temp(fp.ExprType())
		b.emit(&Assign{Dst: &VarRef{Var: t}, Src: fp})
		fp = &VarRef{Var: t}
	}
	// Evaluate the arguments once, before the dispatch.
	vals := b.evalArgs(ft, args)
	var res Expr
	var resVar *Var
	var ends []*Loc
	rt := x.Type()
	for _, c := range cands {
		t, f := b.branch(&Binary{Op: Eq, X: fp, Y: &AddrOf{Object: b.funcObject(c), Type: fp.ExprType()}, Type: Bool})
		b.cur = t
		v := b.callNamed(c, x, args, vals)
		if v != nil && !discard && rt.Kind() != cc.Void {
			if resVar == nil {
				resVar = b.temp(v.ExprType())
				res = &VarRef{Var: resVar}
			}
			b.emit(&Assign{Dst: &VarRef{Var: resVar}, Src: b.castTo(v, resVar.Type)})
		}
		ends = union(ends, b.cur)
		b.cur = f
	}
	// No candidate matched: the pointer may come from unknown code (an
	// unknown external's result, a library's client) and denote a
	// function without a body here: an unknown callee. When the
	// points-to analysis shows the pointer only ever holds candidates,
	// this path is cut (calling anything else is undefined behaviour;
	// finishCallbacks).
	if len(b.cur) > 0 {
		marker := b.emit(&Skip{})
		n := len(b.unknownCalls)
		v := b.unknownVals(nodeSrc(x.PostfixExpression), x, vals)
		if v != nil && !discard && rt.Kind() != cc.Void {
			if resVar == nil {
				resVar = b.temp(v.ExprType())
				res = &VarRef{Var: resVar}
			}
			b.emit(&Assign{Dst: &VarRef{Var: resVar}, Src: b.castTo(v, resVar.Type)})
		}
		if len(b.unknownCalls) > n {
			b.fallbacks = append(b.fallbacks, &indirectFallback{marker: marker, fp: fp, cands: cands, uc: b.unknownCalls[n]})
		}
		ends = union(ends, b.cur)
	}
	b.cur = ends
	return res
}

// indirectFallback is the unknown-callee path of an indirect call.
type indirectFallback struct {
	marker *Loc // the first location of the path (cut: assume(false))
	fp     Expr
	cands  []string
	uc     *unknownCall
}

func funcTypeOf(t cc.Type) *cc.FunctionType {
	for i := 0; i < 4 && t != nil; i++ {
		switch x := t.(type) {
		case *cc.FunctionType:
			return x
		case *cc.PointerType:
			t = x.Elem()
			continue
		}
		return nil
	}
	return nil
}

// shape classifies a type for function-pointer compatibility.
func shape(t cc.Type) int {
	switch {
	case t == nil:
		return 0
	case t.Kind() == cc.Void:
		return 1
	case t.Kind() == cc.Ptr || t.Kind() == cc.Array || t.Kind() == cc.Function:
		return 2
	case cc.IsIntegerType(t):
		return 3
	case cc.IsFloatingPointType(t):
		return 4
	}
	return 5
}

// candidates lists the address-taken functions a call through a pointer
// of type ft with nargs arguments may reach.
func (b *builder) candidates(ft *cc.FunctionType, nargs int) []string {
	var out []string
	for _, name := range b.sortedAddrTakenFuncs() {
		d := b.funcDecls[name]
		if d == nil {
			continue
		}
		gt, ok := d.Type().(*cc.FunctionType)
		if !ok {
			continue
		}
		if ft != nil {
			if shape(ft.Result()) != shape(gt.Result()) {
				continue
			}
			gp := nonVoidParams(gt)
			if !gt.IsVariadic() && len(gp) != nargs && len(gp) > 0 {
				continue
			}
			if !prototypeAdmits(gt, nargs) {
				continue
			}
			fp := nonVoidParams(ft)
			if len(fp) == len(gp) {
				bad := false
				for i := range fp {
					if shape(fp[i].Type()) != shape(gp[i].Type()) {
						bad = true
					}
				}
				if bad {
					continue
				}
			}
		}
		out = append(out, name)
	}
	return out
}

func nonVoidParams(ft *cc.FunctionType) []*cc.Parameter {
	var out []*cc.Parameter
	for _, p := range ft.Parameters() {
		if p.Type().Kind() != cc.Void {
			out = append(out, p)
		}
	}
	return out
}

// evalArgs evaluates call arguments, converted to the parameter types
// when known (aggregates: their address).
func (b *builder) evalArgs(ft *cc.FunctionType, args []cc.ExpressionNode) []Expr {
	var params []*cc.Parameter
	if ft != nil {
		params = nonVoidParams(ft)
	}
	vals := make([]Expr, len(args))
	for i, a := range args {
		v := b.rvalue(a)
		if i < len(params) && v != nil {
			v = b.conv(v, a.Type(), params[i].Type())
		} else if v != nil && cc.IsIntegerType(a.Type()) {
			v = b.conv(v, a.Type(), cc.IntegerPromotion(a.Type()))
		}
		vals[i] = v
	}
	return vals
}

// callNamed calls a function by name: a builtin, an inlined definition,
// or an unknown external. vals are pre-evaluated arguments (or nil).
func (b *builder) callNamed(name string, x *cc.PostfixExpression, args []cc.ExpressionNode, vals []Expr) Expr {
	if vals != nil {
		if v, ok := b.builtinVals(name, x, vals); ok {
			return v
		}
	} else if v, ok := b.builtin(name, x, args, false); ok {
		return v
	}
	fd := b.funcs[name]
	if fd == nil {
		if vals == nil {
			var ft *cc.FunctionType
			if d := b.funcDecls[name]; d != nil {
				ft, _ = d.Type().(*cc.FunctionType)
			}
			vals = b.evalArgs(ft, args)
		}
		return b.unknownVals(name, x, vals)
	}
	ft, _ := fd.Declarator.Type().(*cc.FunctionType)
	if vals == nil {
		vals = b.evalArgs(ft, args)
	}
	return b.inline(fd, x, vals)
}

// inline lowers a call to a defined function by inlining its body with
// fresh storage for its parameters and locals.
func (b *builder) inline(fd *cc.FunctionDefinition, x *cc.PostfixExpression, vals []Expr) Expr {
	name := b.lname(fd.Declarator)
	b.passVariadicArgs(fd, x, vals)
	for f := b.fr; f != nil; f = f.parent {
		if f.name == name {
			return b.summarize(fd, x, vals, "recursive call of "+name)
		}
	}
	key := genericKey{b.tmpl, name}
	if why := b.shareCall(name, key); why != "" {
		return b.callShared(fd, x, vals, why)
	}
	b.inlineCount[key]++
	startLocs := len(b.prog.Locs)
	defer func() {
		if sz := len(b.prog.Locs) - startLocs; sz > b.fnSize[name] {
			b.fnSize[name] = sz
		}
	}()
	b.inlineDep++
	if b.inlineDep > 200 {
		b.fail("calls nested too deeply")
	}
	fr := b.newFrame(fd, b.fr)
	fr.generic = b.fr.generic
	ft, _ := fd.Declarator.Type().(*cc.FunctionType)
	saveFr, saveFunc := b.fr, b.curFunc
	b.fr, b.curFunc = fr, name
	var params []*cc.Parameter
	if ft != nil {
		params = nonVoidParams(ft)
	}
	for i, p := range params {
		s := b.paramStorage(fr, p)
		if i < len(vals) && vals[i] != nil {
			b.store(b.storageLval(s), vals[i])
		}
	}
	atomic := isAtomicFunc(name)
	if atomic {
		b.emit(&AtomicBegin{})
	}
	b.compound(fd.CompoundStatement)
	b.cur = union(b.cur, fr.returns)
	if atomic {
		b.emit(&AtomicEnd{})
	}
	b.fr, b.curFunc = saveFr, saveFunc
	b.inlineDep--
	b.setPos(x)
	rt := fr.retT
	switch {
	case rt == nil || rt.Kind() == cc.Void:
		return nil
	case isAggregate(rt):
		if fr.retObj == nil {
			fr.retObj = b.newObject(name+".ret", LocalObject, rt, false)
		}
		return b.objAddr(fr.retObj)
	}
	if fr.ret == nil {
		// Falls off the end: the value is indeterminate.
		fr.ret = b.newVar(name+".ret", Local, b.mustScalar(rt))
	}
	return &VarRef{Var: fr.ret}
}

// passVariadicArgs hands the arguments of a call past the callee's named
// parameters to unknown code (builder.variadicArgs, points-to's <reach>).
// The callee reads them only through va_arg, an unknown external whose
// result is anything unknown code holds; they are stored nowhere else, so
// without this a pointer passed there was in no points-to set and a write
// through va_arg's result missed its object: `f(1, &x)` with f doing
// `*va_arg(ap, int *) = 5` proved a later `x == 0` (fixture
// variadic_args.c).
//
// An aggregate argument's value here is the address of the caller's
// object; what the callee reads through va_arg is its contents, so it is
// also recorded in variadicAggs (points-to copies the pointers stored in
// it into the <va_arg> slot, as memcpy would: va_arg_model.c's struct).
func (b *builder) passVariadicArgs(fd *cc.FunctionDefinition, x *cc.PostfixExpression, vals []Expr) {
	ft, _ := fd.Declarator.Type().(*cc.FunctionType)
	if ft == nil || !ft.IsVariadic() {
		return
	}
	var args []cc.ExpressionNode
	if x != nil {
		args = argList(x.ArgumentExpressionList)
	}
	if n := len(nonVoidParams(ft)); len(vals) > n {
		for i, v := range vals[n:] {
			if v == nil {
				continue
			}
			b.variadicArgs = append(b.variadicArgs, v)
			if n+i >= len(args) || isAggregate(args[n+i].Type()) {
				b.variadicAggs = append(b.variadicAggs, v)
			}
		}
	}
}

func isAtomicFunc(name string) bool {
	return strings.HasPrefix(name, "__VERIFIER_atomic_") && name != "__VERIFIER_atomic_begin" && name != "__VERIFIER_atomic_end"
}

// unknownCallee evaluates the arguments of an unknown callee and models it.
func (b *builder) unknownCallee(name string, x *cc.PostfixExpression, args []cc.ExpressionNode) Expr {
	vals := b.evalArgs(funcTypeOf(x.PostfixExpression.Type()), args)
	return b.unknownVals(name, x, vals)
}

// unknownVals models a call to an external function without a body: it
// may write any cell reachable from its arguments (havocs inserted after
// the points-to analysis) and returns any value. We assume it does not
// write global variables by name and does not synchronize; this is
// recorded in Program.Assumptions.
func (b *builder) unknownVals(name string, x *cc.PostfixExpression, vals []Expr) Expr {
	if pureExternals[name] && !literalFormatWrites(name, x) {
		b.assume(b.pos, "%s: assumed to write no memory the program reads", name)
		b.emit(&Skip{})
		if st, ok := b.scalarType(x.Type()); ok {
			r := b.temp(st)
			b.emit(&Havoc{Dst: &VarRef{Var: r}})
			return &VarRef{Var: r}
		}
		return nil
	}
	switch name {
	case "strdup", "strndup", "__strdup", "realloc":
		return b.libcAlloc(name, x, vals)
	case "pthread_setspecific", "pthread_getspecific":
		return b.threadSpecific(name, x, vals)
	case "__builtin_va_arg_impl":
		return b.vaArg(name, x, vals)
	}
	if setjmpNames[name] {
		return b.setjmp(name, x, vals) // libc.go
	}
	if longjmpNames[name] {
		b.longjmp(name)
		return nil
	}
	kind := externalModel(name) // kernel.go
	if cancelMachinery[name] && !b.mayUnwind() {
		switch name {
		case "__pthread_unwind_next":
			// Does not return; reached only when __sigsetjmp_cancel
			// returned nonzero, which it does not here (libc.go).
			b.assume(b.pos, "%s: C library model: never reached (no thread is cancelled or calls pthread_exit)", name)
			b.emit(&Assume{Cond: &Const{Type: Bool}})
			b.cur = nil
			return nil
		case "__sigsetjmp_cancel":
			b.assume(b.pos, "%s: C library model: returns 0 (no thread is cancelled or calls pthread_exit)", name)
		}
		kind = libcWrites
	}
	uc := &unknownCall{name: name, pos: b.pos, kind: kind}
	switch uc.kind {
	case libcReadOnly:
		b.assume(b.pos, "%s: C library model: writes no memory the program reads, returns any value", name)
	case libcWrites:
		b.assume(b.pos, "%s: C library model: writes only memory reachable from its arguments, returns any value", name)
	case libcCalls:
		b.assume(b.pos, "%s: C library model: writes only memory reachable from its arguments, may call the functions they reach, returns any value", name)
	default:
		b.assume(b.pos, "%s: external function without a body: assumed to modify only memory reachable from its arguments and from address-taken globals, without copying pointers between objects", name)
	}
	uc.args = presentArgs(vals)
	if uc.kind == unknownExternal || uc.kind == libcCalls {
		b.callbackSpawns(uc)
	}
	if strings.Contains(name, "memcpy") || strings.Contains(name, "memmove") {
		// The one external that copies pointers between objects.
		if len(vals) >= 2 && vals[0] != nil && vals[1] != nil {
			uc.copyDst, uc.copySrc = vals[0], vals[1]
		}
	}
	if name == "qsort" && len(vals) >= 1 && vals[0] != nil {
		// Elements change places: pointers move between the array's cells.
		uc.copyDst, uc.copySrc = vals[0], vals[0]
	}
	b.addUnknownCall(uc)
	if x == nil {
		return nil // a call without a C expression (a cleanup call): result unused
	}
	rt := x.Type()
	if rt == nil || rt.Kind() == cc.Void {
		return nil
	}
	if isAggregate(rt) {
		o := b.newObject(name+".ret", LocalObject, rt, false)
		b.forScalars(rt, func(off Expr, st Type) {
			b.emit(&Havoc{Dst: &Deref{Addr: b.ptrAdd(b.objAddr(o), off), Type: st}})
		})
		return b.objAddr(o)
	}
	st := b.mustScalar(rt)
	r := b.temp(st)
	b.emit(&Havoc{Dst: &VarRef{Var: r}})
	uc.res = r
	if kind == libcWrites && name == "__sigsetjmp_cancel" {
		return &Const{Type: st}
	}
	return &VarRef{Var: r}
}

// ---- shared bodies ----

// Inlining policy. A call is inlined unless one of these holds (then it
// goes to the template's shared body of the callee, see callShared):
//   - the callee already has a shared body in this template (once shared,
//     every further call of this template shares it);
//   - the program is already over its location budget (maxLocs);
//   - the callee's inlined copies in this template would exceed
//     maxLocs/25 locations;
//   - the unit is large (its function bodies hold more than
//     shareUnitNodes AST nodes) and the callee is not small (its inline
//     cost, inlineCost, is over shareFuncNodes nodes) and may be called
//     from more than one site (several direct call sites, or its address
//     is taken).
//
// A program over hardLocFactor times its budget is lowered again with
// every call shared, spawning functions' included (builder.coarse), and
// says so in a note and Program.Coarsened; only a program too large even
// then is an error.
//
// In a large unit a function is therefore lowered once per template
// unless it is small (its body together with what it inlines) or called
// from one site only, whose caller is itself lowered once: the lowered
// size of a template grows with the code, not with its call paths.
//
// __VERIFIER_atomic_* functions are always inlined (atomic sections stay
// per call path); functions that may spawn threads are inlined in small
// units (spawn sites per call path keep a template spawned once in main
// bounded) and shared like any other in large ones (a spawn site in a
// body called twice lies on a cycle of the location graph, so its
// templates are Unbounded: sound).
var (
	hardLocFactor  = 20
	shareUnitNodes = 20000
	shareFuncNodes = 150
)

// shareCall decides whether a call of name in the current template goes
// to a shared body, and why ("" : inline it).
func (b *builder) shareCall(name string, key genericKey) string {
	if isAtomicFunc(name) || b.allocWrapper(name) {
		return ""
	}
	if b.shared[key] != nil {
		return "shared body of " + name
	}
	if b.coarse {
		return "program over its location budget: call of " + name
	}
	large := b.unitLarge()
	if b.maySpawn(name) && !large {
		return ""
	}
	if b.shareAll {
		return "call of " + name
	}
	if len(b.prog.Locs) > b.maxLocs {
		b.overBudget()
		return "inlining budget exceeded at call of " + name
	}
	if sz := b.fnSize[name]; sz > 0 && (b.inlineCount[key]+1)*sz > b.maxLocs/25 {
		return "inlining budget of " + name + " exceeded"
	}
	if large && !b.inlinePays(name) {
		return "large unit: " + name + " analyzed once per template"
	}
	return ""
}

// overBudget records, once, that the program went over its location
// budget and that further calls share their callee's body.
func (b *builder) overBudget() {
	if b.prog.Coarsened != "" {
		return
	}
	b.prog.Coarsened = fmt.Sprintf("over its budget of %d locations: further calls share one body per function and thread template", b.maxLocs)
	b.note("budget", token.Position{Filename: b.file}, "program %s (values of their call sites meet: less precise)", b.prog.Coarsened)
}

// errCoarsen is the panic that makes lowerUnits lower the program again
// with every call shared (builder.coarse).
type errCoarsen struct{}

// inlinePays reports whether, in a large unit, calls of name are inlined:
// it is small (inlineCost within shareFuncNodes) or has exactly one call
// site (direct, and its address is not taken).
func (b *builder) inlinePays(name string) bool {
	if b.inlineCost(name) <= shareFuncNodes {
		return true
	}
	return b.callSites()[name] == 1 && !b.addrTaken[name]
}

// inlineCost is the number of AST nodes a call of name inlines: its body
// and the inline costs of the functions it calls that are inlined there
// (inlinePays; an indirect call dispatches over its candidates).
// Recursive calls (and a function whose cost is being computed) count
// nothing: they are summarized.
func (b *builder) inlineCost(name string) int {
	if c, ok := b.costMemo[name]; ok {
		if c < 0 {
			return 0 // on the stack: recursion
		}
		return c
	}
	fd := b.funcs[name]
	if fd == nil {
		return 0
	}
	b.costMemo[name] = -1
	n := b.funcNodes(name)
	b.walkBody(fd, func(x cc.Node) {
		pe, ok := x.(*cc.PostfixExpression)
		if !ok || pe.Case != cc.PostfixExpressionCall {
			return
		}
		if c := b.calleeName(pe.PostfixExpression); c != "" {
			if b.funcs[c] != nil && b.inlinePays(c) {
				n += b.inlineCost(c)
			}
			return
		}
		ft := funcTypeOf(pe.PostfixExpression.Type())
		for _, c := range b.candidates(ft, len(argList(pe.ArgumentExpressionList))) {
			if b.inlinePays(c) {
				n += b.inlineCost(c)
			}
		}
	})
	if n > 1<<30 {
		n = 1 << 30
	}
	b.costMemo[name] = n
	return n
}

// funcNodes is the number of AST nodes of a function's body.
func (b *builder) funcNodes(name string) int {
	if fd := b.funcs[name]; fd != nil {
		return len(b.bodyNodes(fd))
	}
	return 0
}

// bodyNodes is the nodes of fd's body in walkAST's order, walked once and
// kept: a body is walked for its size, its calls, whether it may spawn,
// whether it wraps an allocator, and reflection makes each walk cost more
// than the walk over the kept nodes. The AST is not changed after
// translation, so the kept list stays the walk's.
func (b *builder) bodyNodes(fd *cc.FunctionDefinition) []cc.Node {
	if ns, ok := b.bodies[fd]; ok {
		return ns
	}
	var ns []cc.Node
	walkAST(fd.CompoundStatement, func(n cc.Node) { ns = append(ns, n) })
	b.bodies[fd] = ns
	return ns
}

// walkBody calls f for every node of fd's body, as
// walkAST(fd.CompoundStatement, f) does.
func (b *builder) walkBody(fd *cc.FunctionDefinition, f func(cc.Node)) {
	for _, n := range b.bodyNodes(fd) {
		f(n)
	}
}

// unitLarge reports whether the function bodies of the unit have more
// than shareUnitNodes AST nodes together. It stops adding once past the
// limit: only the comparison is used.
func (b *builder) unitLarge() bool {
	if b.unitLargeFor == shareUnitNodes && shareUnitNodes != 0 {
		return b.unitLargeMemo
	}
	n := 0
	for _, fd := range b.funcs {
		if n > shareUnitNodes {
			break
		}
		if fd != nil {
			n += len(b.bodyNodes(fd))
		}
	}
	large := n > shareUnitNodes
	b.unitLargeFor, b.unitLargeMemo = shareUnitNodes, large
	return large
}

// callSites counts the direct call sites of each function in the unit.
func (b *builder) callSites() map[string]int {
	if b.callCount == nil {
		b.callCount = map[string]int{}
		for _, fd := range b.funcs {
			b.walkBody(fd, func(n cc.Node) {
				if pe, ok := n.(*cc.PostfixExpression); ok && pe.Case == cc.PostfixExpressionCall {
					if c := b.calleeName(pe.PostfixExpression); c != "" {
						b.callCount[c]++
					}
				}
			})
		}
	}
	return b.callCount
}

// sharedBody is the builder's side of a Body.
type sharedBody struct {
	body   *Body
	params []*storage
	ret    *Var    // scalar result
	retObj *Object // aggregate result
	retT   cc.Type
}

// callShared lowers a call to the current template's shared body of fd,
// lowering the body first when it does not exist yet. The body is lowered
// right away, nested in the caller's frame chain, so that a call back to
// a function on the chain (recursion) is summarized instead of re-entering
// a body that is being lowered: shared bodies never call themselves,
// directly or through other bodies, except through the dead-end generic
// instances of summarize (whose callers never resume).
func (b *builder) callShared(fd *cc.FunctionDefinition, x *cc.PostfixExpression, vals []Expr, why string) Expr {
	name := b.lname(fd.Declarator)
	key := genericKey{b.tmpl, name}
	sb := b.shared[key]
	if sb == nil {
		b.assume(b.pos, "%s: shared body (calls and returns context-insensitive)", why)
		sb = b.lowerShared(fd, key)
	}
	body := sb.body
	b.setPos(x)
	for i, s := range sb.params {
		if i < len(vals) && vals[i] != nil {
			b.store(b.storageLval(s), vals[i])
		}
	}
	k := int64(len(body.Calls) + 1)
	call := b.emit(&Assign{Dst: &VarRef{Var: body.RetSite}, Src: &Const{Type: Int32, Value: k}})
	b.jumpTo(body.Entry)
	ret := b.newLoc(&Assume{Cond: &Binary{Op: Eq, X: &VarRef{Var: body.RetSite}, Y: &Const{Type: Int32, Value: k}, Type: Bool}})
	link(body.Exit, ret)
	b.cur = []*Loc{ret}
	// The landing location: only threads returning to this call stand
	// here (a thread at ret may be stuck there, returning elsewhere).
	land := b.emit(&Skip{})
	land.Return = &ReturnSite{Body: body, Call: call}
	body.Calls = append(body.Calls, call)
	body.Returns = append(body.Returns, ret)
	switch rt := sb.retT; {
	case rt == nil || rt.Kind() == cc.Void:
		return nil
	case isAggregate(rt):
		// Copy out: a later call overwrites the body's result object.
		o := b.newObject(name+".res", LocalObject, rt, false)
		b.copyAgg(b.objAddr(o), b.objAddr(sb.retObj), rt)
		return b.objAddr(o)
	}
	r := b.temp(sb.ret.Type)
	b.emit(&Assign{Dst: &VarRef{Var: r}, Src: &VarRef{Var: sb.ret}})
	return &VarRef{Var: r}
}

// lowerShared lowers the body of fd once for the current template.
func (b *builder) lowerShared(fd *cc.FunctionDefinition, key genericKey) *sharedBody {
	name := key.fn
	saveCur, saveFr, saveFunc, savePos := b.cur, b.fr, b.curFunc, b.pos
	b.inlineDep++
	if b.inlineDep > 200 {
		b.fail("calls nested too deeply")
	}
	fr := b.newFrame(fd, b.fr) // the chain detects recursion
	b.fr, b.curFunc = fr, name
	b.pos = posOf(fd.Declarator)
	body := &Body{ID: len(b.prog.Bodies), Func: name, Template: b.tmpl}
	b.prog.Bodies = append(b.prog.Bodies, body)
	sb := &sharedBody{body: body, retT: fr.retT}
	b.shared[key] = sb
	if ft, _ := fd.Declarator.Type().(*cc.FunctionType); ft != nil {
		for _, p := range nonVoidParams(ft) {
			sb.params = append(sb.params, b.paramStorage(fr, p))
		}
	}
	switch rt := fr.retT; {
	case rt == nil || rt.Kind() == cc.Void:
	case isAggregate(rt):
		fr.retObj = b.newObject(name+".ret", LocalObject, rt, false)
		sb.retObj = fr.retObj
	default:
		// Made up front: call sites read it before the body sets it.
		fr.ret = b.newVar(name+".ret", Local, b.mustScalar(rt))
		sb.ret = fr.ret
	}
	body.RetSite = b.newVar(name+".retsite", Local, Int32)
	b.cur = nil
	body.Entry = b.emit(&Skip{})
	firstVar := len(b.prog.Vars)
	b.compound(fd.CompoundStatement)
	// Registers made while lowering the body (its locals and temporaries,
	// and those of bodies lowered inside it) hold no value a C program may
	// read at the entry: indeterminate there.
	for _, v := range b.prog.Vars[firstVar:] {
		if v.Scope == Local && !v.IsCell() && v.Template == b.tmpl {
			body.Fresh = append(body.Fresh, v)
		}
	}
	b.cur = union(b.cur, fr.returns)
	body.Exit = b.emit(&Skip{})
	b.cur, b.fr, b.curFunc, b.pos = saveCur, saveFr, saveFunc, savePos
	b.inlineDep--
	return sb
}

// ---- summaries of recursive calls ----

// genericKey identifies the generic instance of a function in a template.
type genericKey struct {
	tmpl *Template
	fn   string
}

// genericInstance is one out-of-line copy of a function body in a
// template, entered from every summarized call of that function there.
// Its exit is a dead end: it exists to cover the callee's behaviour and
// checks at every call depth; callers continue through the summary.
type genericInstance struct {
	entry   *Loc
	params  []*storage
	ret     *Var
	locs    map[*Loc]bool // filled after lowering: its locations
	first   int           // Locs index range [first, last)
	last    int
	fd      *cc.FunctionDefinition
	lowered bool
}

// summaryCall is a summarized call: after the points-to analysis its
// placeholder becomes havocs of everything the generic instance may
// modify.
type summaryCall struct {
	loc *Loc
	gi  *genericInstance
	res *Var
}

// summarize models a call without inlining it. The call site branches
// nondeterministically into
//   - the generic instance of the callee (parameters := arguments), which
//     explores the callee's checks for this call and, through its own
//     summarized recursive calls, for every deeper call; it never returns;
//   - the continuation, after havocking every cell and Global register the
//     generic instance may write (its mod set, from the points-to
//     analysis) and the result.
//
// Known gap (documented): threads spawned or locks left held inside a
// summarized call are not reflected in the continuation.
func (b *builder) summarize(fd *cc.FunctionDefinition, x *cc.PostfixExpression, vals []Expr, why string) Expr {
	name := b.lname(fd.Declarator)
	b.assume(b.pos, "%s: summarized (callee's effects havocked after the call)", why)
	key := genericKey{b.tmpl, name}
	gi := b.generic[key]
	if gi == nil {
		gi = &genericInstance{fd: fd}
		b.generic[key] = gi
		ft, _ := fd.Declarator.Type().(*cc.FunctionType)
		// Parameters live in the generic instance's frame; make them now
		// so call sites can assign them.
		fr := b.newFrame(fd, nil)
		fr.generic = gi
		saveFr, saveFunc := b.fr, b.curFunc
		b.fr, b.curFunc = fr, name
		if ft != nil {
			for _, p := range nonVoidParams(ft) {
				gi.params = append(gi.params, b.paramStorage(fr, p))
			}
		}
		b.fr, b.curFunc = saveFr, saveFunc
		gi.entry = b.newLoc(&Skip{})
		b.genericFrames = append(b.genericFrames, genericWork{gi: gi, fr: fr})
	}
	saved := b.cur
	// (a) enter the generic instance
	for i, s := range gi.params {
		if i < len(vals) && vals[i] != nil {
			b.store(b.storageLval(s), vals[i])
		}
	}
	b.jumpTo(gi.entry)
	// (b) continue after the summary
	b.cur = saved
	sc := &summaryCall{gi: gi}
	sc.loc = b.emit(&Skip{})
	b.summaries = append(b.summaries, sc)
	rt := fd.Declarator.Type().(*cc.FunctionType).Result()
	if rt == nil || rt.Kind() == cc.Void {
		return nil
	}
	if isAggregate(rt) {
		o := b.newObject(name+".ret", LocalObject, rt, false)
		b.forScalars(rt, func(off Expr, st Type) {
			b.emit(&Havoc{Dst: &Deref{Addr: b.ptrAdd(b.objAddr(o), off), Type: st}})
		})
		return b.objAddr(o)
	}
	r := b.temp(b.mustScalar(rt))
	b.emit(&Havoc{Dst: &VarRef{Var: r}})
	sc.res = r
	return &VarRef{Var: r}
}

type genericWork struct {
	gi *genericInstance
	fr *frame
}

// lowerGenerics lowers the generic instances queued while lowering the
// current template (they may queue more).
func (b *builder) lowerGenerics() {
	for len(b.genericFrames) > 0 {
		w := b.genericFrames[0]
		b.genericFrames = b.genericFrames[1:]
		gi, fr := w.gi, w.fr
		saveFr, saveFunc := b.fr, b.curFunc
		b.fr, b.curFunc = fr, fr.name
		b.cur = []*Loc{gi.entry}
		gi.first = len(b.prog.Locs)
		atomic := isAtomicFunc(fr.name)
		if atomic {
			b.emit(&AtomicBegin{})
		}
		b.compound(gi.fd.CompoundStatement)
		b.cur = union(b.cur, fr.returns)
		if atomic {
			b.emit(&AtomicEnd{})
		}
		// Dead end: the generic instance does not return to a caller.
		b.emit(&Assume{Cond: &Const{Type: Bool}})
		b.cur = nil
		// pthread_exit inside it ends the thread.
		for _, l := range b.tmplExits {
			link(l, b.tmpl.Exit)
		}
		b.tmplExits = nil
		gi.last = len(b.prog.Locs)
		gi.ret = fr.ret
		gi.lowered = true
		b.fr, b.curFunc = saveFr, saveFunc
	}
}

// maySpawn reports whether a function may (transitively, through direct
// calls) call pthread_create.
func (b *builder) maySpawn(name string) bool {
	if v, ok := b.spawnMemo[name]; ok {
		return v
	}
	b.spawnMemo[name] = false // recursion: assume no until shown
	fd := b.funcs[name]
	if fd == nil {
		return name == "pthread_create"
	}
	res := false
	b.walkBody(fd, func(n cc.Node) {
		if res {
			return
		}
		if pe, ok := n.(*cc.PostfixExpression); ok && pe.Case == cc.PostfixExpressionCall {
			if c := b.calleeName(pe.PostfixExpression); c != "" && c != name && b.maySpawn(c) {
				res = true
			}
		}
	})
	b.spawnMemo[name] = res
	return res
}

// pureExternals are logging functions assumed to write no memory the
// program reads (their output goes to the console).
// literalFormatWrites reports whether a call of an output function of
// pureExternals has a literal format with a %n conversion (formatWrites),
// which writes through its argument: the call then gets the model of an
// unknown external instead (printf("%n", &x) proved x unchanged).
func literalFormatWrites(name string, x *cc.PostfixExpression) bool {
	at := 0
	switch name {
	case "printf", "vprintf", "printk":
	case "fprintf", "vfprintf":
		at = 1
	default:
		return false
	}
	if x == nil {
		return false
	}
	args := argList(x.ArgumentExpressionList)
	if at >= len(args) {
		return false
	}
	sv, ok := args[at].Value().(cc.StringValue)
	return ok && formatWrites(string(sv))
}

var pureExternals = map[string]bool{
	"printk": true, "printf": true, "fprintf": true, "puts": true, "putchar": true, "perror": true,
	"vprintf": true, "vfprintf": true, "fflush": true, "fputs": true, "fputc": true, "putc": true,
}

// Allocator wrappers: heap cloning by inlining.
//
// An allocator wrapper is a small defined function that returns memory it
// got from malloc/calloc/realloc/strdup (or from another wrapper) and
// does nothing else with that pointer (pigz's alloc, yarn's my_malloc).
// Its calls are always inlined (shareCall), so every call site of the
// caller's code gets its own allocation site, also where the size policy
// shares bodies (past the location budget, a coarse program, a wrapper
// whose inline cost is over shareFuncNodes in a large unit): a shared body
// gives one object per template for every allocation made through it,
// and that object reaches everything stored in any of them.
//
// Why this is sound: inlining is the program's own semantics (the small
// units inline every call); an inlined copy's allocation site stands for
// every object that copy allocates, in every thread and every execution
// of it, exactly as a malloc written at the call site would. Nothing is
// assumed about the wrapper: its whole body is lowered in each copy, so
// whatever it does with the pointer (store it in a global, pass it on)
// is seen there, and a call through a function pointer dispatches to the
// same inlined copies (call: callNamed per candidate); unknown code never
// calls a wrapper's body except as a callback template, which lowers it
// on its own. The classification below only chooses what to inline (a
// function that keeps the pointer would gain nothing: its clones would
// all be reached from where it keeps them); it is not a soundness
// condition. Strong updates are untouched: a heap site is a summary
// whether inlined or not.

// allocWrapperNodes bounds the body of an allocator wrapper (AST nodes):
// it is inlined at every call site, so its copies must stay small.
const allocWrapperNodes = 120

// allocFuncs are the C library allocators whose result is fresh memory
// (alloca's memory dies with the wrapper's frame: not a wrapper's).
var allocFuncs = map[string]bool{
	"malloc": true, "calloc": true, "realloc": true, "strdup": true, "strndup": true, "__strdup": true,
	"__builtin_malloc": true, "__builtin_calloc": true,
}

// stripCasts returns e without parentheses and casts.
func stripCasts(e cc.ExpressionNode) cc.ExpressionNode {
	for {
		if inner := unwrapParens(e); inner != e {
			e = inner
			continue
		}
		if x, ok := e.(*cc.CastExpression); ok && x.Case == cc.CastExpressionCast {
			e = x.CastExpression
			continue
		}
		return e
	}
}

// isAllocCall reports whether e (casts aside) is a call that returns
// fresh memory: a C library allocator, an allocator wrapper, or an
// indirect call all of whose candidates are those.
func (b *builder) isAllocCall(e cc.ExpressionNode) bool {
	pe, ok := stripCasts(e).(*cc.PostfixExpression)
	if !ok || pe.Case != cc.PostfixExpressionCall {
		return false
	}
	isAlloc := func(name string) bool {
		if b.funcs[name] == nil {
			return allocFuncs[name]
		}
		return b.allocWrapper(name)
	}
	if name := b.calleeName(pe.PostfixExpression); name != "" {
		return isAlloc(name)
	}
	ft := funcTypeOf(pe.PostfixExpression.Type())
	cands := b.candidates(ft, len(argList(pe.ArgumentExpressionList)))
	for _, c := range cands {
		if !isAlloc(c) {
			return false
		}
	}
	return len(cands) > 0
}

// isNullExpr reports whether e (casts aside) is the constant 0.
func isNullExpr(e cc.ExpressionNode) bool {
	e = stripCasts(e)
	if p, ok := e.(*cc.PrimaryExpression); ok && p.Case == cc.PrimaryExpressionInt {
		return p.Token.SrcStr() == "0"
	}
	return false
}

// identOf returns what e (parentheses and casts aside) names when it is
// an identifier, else nil.
func identOf(e cc.ExpressionNode) cc.Node {
	if p, ok := stripCasts(e).(*cc.PrimaryExpression); ok && p.Case == cc.PrimaryExpressionIdent {
		return p.ResolvedTo()
	}
	return nil
}

// allocWrapper reports whether name is an allocator wrapper: a defined,
// non-spawning function of at most allocWrapperNodes AST nodes with a
// pointer result, whose every return statement returns an allocator call
// (isAllocCall), 0, or a local variable or parameter that is assigned
// allocator calls and nothing else (or initialized with one or with 0;
// some assignment or initializer is one), and is otherwise
// only compared with 0, tested, returned, or passed as realloc's old
// pointer - so the function keeps no pointer it allocates.
func (b *builder) allocWrapper(name string) bool {
	if w, ok := b.wrapperMemo[name]; ok {
		return w
	}
	if b.wrapperMemo == nil {
		b.wrapperMemo = map[string]bool{}
	}
	b.wrapperMemo[name] = false // while deciding: a recursive wrapper is none
	w := b.decideAllocWrapper(name)
	b.wrapperMemo[name] = w
	return w
}

func (b *builder) decideAllocWrapper(name string) bool {
	fd := b.funcs[name]
	if fd == nil || isAtomicFunc(name) || b.funcNodes(name) > allocWrapperNodes {
		return false
	}
	ft, _ := fd.Declarator.Type().(*cc.FunctionType)
	if ft == nil || ft.Result() == nil || ft.Result().Kind() != cc.Ptr {
		return false
	}
	// The variables returned, and the uses of each that are allowed.
	returned := map[cc.Node]int{}
	returnsSome := false
	ok := true
	b.walkBody(fd, func(n cc.Node) {
		js, isJump := n.(*cc.JumpStatement)
		if !isJump || js.Case != cc.JumpStatementReturn {
			return
		}
		returnsSome = true
		switch {
		case js.ExpressionList == nil:
			ok = false
		case b.isAllocCall(js.ExpressionList), isNullExpr(js.ExpressionList):
		default:
			v := identOf(js.ExpressionList)
			switch d := v.(type) {
			case *cc.Parameter:
			case *cc.Declarator:
				if d.StorageDuration() != cc.Automatic || d.AddressTaken() {
					ok = false
				}
			default:
				ok = false
			}
			if ok {
				returned[v]++ // the return itself is an allowed use
			}
		}
	})
	if !ok || !returnsSome || b.maySpawn(name) {
		return false
	}
	if len(returned) == 0 {
		return true
	}
	allowed := map[cc.Node]int{}
	for v, n := range returned {
		allowed[v] = n
	}
	uses := map[cc.Node]int{}
	fresh := map[cc.Node]bool{} // assigned or initialized with an allocator call
	b.walkBody(fd, func(n cc.Node) {
		switch x := n.(type) {
		case *cc.PrimaryExpression:
			if x.Case == cc.PrimaryExpressionIdent {
				if v := x.ResolvedTo(); v != nil {
					if _, r := returned[v]; r {
						uses[v]++
					}
				}
			}
		case *cc.InitDeclarator:
			if _, r := returned[x.Declarator]; r && x.Initializer != nil {
				in := x.Initializer
				switch {
				case in.Case != cc.InitializerExpr:
					ok = false
				case b.isAllocCall(in.AssignmentExpression):
					fresh[x.Declarator] = true
				case !isNullExpr(in.AssignmentExpression):
					ok = false
				}
			}
		case *cc.AssignmentExpression:
			if v := identOf(x.UnaryExpression); v != nil {
				if _, r := returned[v]; r {
					if x.Case != cc.AssignmentExpressionAssign || !b.isAllocCall(x.AssignmentExpression) {
						ok = false
					}
					fresh[v] = true
					allowed[v]++
				}
			}
		case *cc.EqualityExpression:
			if x.Case == cc.EqualityExpressionEq || x.Case == cc.EqualityExpressionNeq {
				if v := identOf(x.EqualityExpression); v != nil && isNullExpr(x.RelationalExpression) {
					allowed[v]++
				} else if v := identOf(x.RelationalExpression); v != nil && isNullExpr(x.EqualityExpression) {
					allowed[v]++
				}
			}
		case *cc.UnaryExpression:
			if x.Case == cc.UnaryExpressionNot {
				if v := identOf(x.CastExpression); v != nil {
					allowed[v]++
				}
			}
		case *cc.SelectionStatement:
			if x.Case == cc.SelectionStatementIf || x.Case == cc.SelectionStatementIfElse {
				if v := identOf(x.ExpressionList); v != nil {
					allowed[v]++
				}
			}
		case *cc.PostfixExpression:
			// realloc's old pointer: realloc keeps no pointer to it.
			if x.Case == cc.PostfixExpressionCall && b.funcs["realloc"] == nil && b.calleeName(x.PostfixExpression) == "realloc" {
				if args := argList(x.ArgumentExpressionList); len(args) > 0 {
					if v := identOf(args[0]); v != nil {
						allowed[v]++
					}
				}
			}
		}
	})
	if !ok {
		return false
	}
	for v := range returned {
		if !fresh[v] || allowed[v] != uses[v] {
			return false
		}
	}
	return true
}
