package cfg

import (
	"fmt"
	"go/token"
	"slices"
	"sort"
	"strings"

	"modernc.org/cc/v4"
)

// builder holds the state of one Build call.
type builder struct {
	prog    *Program
	asts    []*cc.AST // the units of the program (several with Options.Link)
	model   DataModel
	file    string
	maxLocs int

	funcs     map[string]*cc.FunctionDefinition // defined functions by name
	funcDecls map[string]*cc.Declarator         // some declarator of every function
	globals   map[string]*storage               // file-scope variables by name
	statics   map[*cc.Declarator]*storage       // block-scope statics
	funcObjs  map[string]*Object
	addrTaken map[string]bool // functions whose address is taken
	strObjs   map[string]*Object
	objInfo   map[*Object]*objInfo
	// layoutChecked: aggregate types checkLayout has seen (packed.go).
	layoutChecked map[cc.Type]bool
	// packedDecls: the declarators of members packed by an attribute of
	// their own; packedScanned: the units' declarations were scanned for
	// them (packed.go packedMembers).
	packedDecls   map[*cc.Declarator]bool
	packedScanned bool
	structDefs    []*cc.StructOrUnionSpecifier
	unknownObj    *Object
	specific      *Var          // pthread_{get,set}specific's values (libc.go threadSpecific)
	vaArgObj      *Object       // the slots va_arg reads (libc.go vaArg)
	setjmps       []*setjmpSite // nonzero returns of setjmp (libc.go)
	tlsRegs       []*Var        // per-template registers of thread-locals (tls.go)

	// Thread templates.
	templateOf map[string]*Template
	pending    []*Template
	spawns     []*spawnSite

	// The template being lowered.
	tmpl      *Template
	cur       []*Loc // the frontier: locations whose successor is the next emitted one
	fr        *frame
	tempN     int
	pos       token.Position
	curFunc   string
	inlineDep int

	// Calls whose effect is decided after the points-to analysis.
	unknownCalls []*unknownCall
	summaries    []*summaryCall
	generic      map[genericKey]*genericInstance

	assumed map[string]bool
	wideAt  map[string]token.Position // by file:line: where its 128-bit values' havocs sit (wideint.go)
	// modeTypedefs: file-scope typedefs whose mode attribute cc ignores, by name: the message (ignoredattr.go)
	modeTypedefs map[string]string
	depth        int

	names            map[string]int
	addrTakenGlobals map[string]bool
	// uses are the address-taken walks of each unit, shared by the
	// builders of all lowering rounds (unitUsesOf).
	uses          map[*cc.AST]*unitUses
	allocHint     cc.Type // the pointer type an allocation is converted to
	tmplExits     []*Loc  // pthread_exit frontiers of the current template
	genericFrames []genericWork
	inlineCount   map[genericKey]int
	fnSize        map[string]int
	spawnMemo     map[string]bool
	globalDecls   map[string][]*cc.Declarator
	globalInits   map[string]*cc.Initializer
	locFunc       map[*Loc]string // the C function each location comes from
	shared        map[genericKey]*sharedBody
	shareAll      bool
	coarse        bool // the program did not fit hardLocFactor times its budget: every call shares (spawners' too)
	noAtomicLocks bool // Options.NoAtomicLocks
	// unsoundJoinAllBounds: Options.UnsoundJoinAllBounds.
	unsoundJoinAllBounds bool
	noThreadLocals       bool // Options.NoThreadLocals
	// startup: the constructor and destructor functions spawned at the
	// program's start (startup.go).
	startup       map[string]bool
	constBranches int                                  // constbranch.go: constBranchMode
	bodies        map[*cc.FunctionDefinition][]cc.Node // bodyNodes
	costMemo      map[string]int                       // inlineCost (-1: being computed)
	unitLargeMemo bool                                 // unitLarge's answer for shareUnitNodes = unitLargeFor
	unitLargeFor  int                                  // 0: unitLarge not computed
	callCount     map[string]int

	// Allocator wrappers (call.go allocWrapper): each function's class.
	wrapperMemo map[string]bool

	// Callbacks into unknown code (callback.go). callbacks is the set of
	// defined functions whose address may reach an unknown external
	// function (known before lowering: Build iterates to a fixpoint);
	// every unknown call spawns each of them, narrowed per call site
	// after the points-to analysis. needCallbacks is what this build
	// found; rebuild is set when it is not a subset of callbacks.
	callbacks     map[string]bool
	needCallbacks map[string]bool
	rebuild       bool
	cbParams      []*Var // callback templates' parameters: any value an external may pass
	noted         map[string]bool

	// Library mode (library.go).
	entryNames   []string        // Options.Entries
	entryThreads int             // Options.EntryThreads
	entries      map[string]bool // entry points (nil: not a library)
	staticFuncs  map[string]bool // functions with internal linkage
	clientObjs   []Expr          // values the client holds: fresh objects, entry results
	variadicArgs []Expr          // arguments past a defined callee's named parameters (passVariadicArgs)
	variadicAggs []Expr          // those of aggregate type: the address of the caller's object
	clientSite   *unknownCall    // the client's calls of function pointers it holds
	fallbacks    []*indirectFallback

	// Linking (link.go).
	unitFiles []string
	unitOf    map[*cc.Declarator]int
	internal  []map[string]bool // per unit: names with internal linkage
	unitNames []string
}

// storage is where a C variable lives: a register or a memory object.
type storage struct {
	reg   *Var
	obj   *Object
	ctype cc.Type
}

// objInfo is the layout information of an object.
type objInfo struct {
	ctype   cc.Type // the object's C type; nil: a blob (one cell)
	arrayOf bool    // ctype is the element type of an array of unknown length (heap)
	cells   []*Var
	sizes   []int64 // byte size of each cell's type
	recur   bool    // a local of a generic (recursive/summarized) instance
}

// frame is one inlined function instance.
type frame struct {
	fn       *cc.FunctionDefinition
	name     string
	vars     map[cc.Node]*storage
	ret      *Var    // result register (scalar results)
	retObj   *Object // result object (aggregate results)
	retT     cc.Type // the C result type
	returns  []*Loc  // frontier of return statements
	labels   map[string]*Loc
	brk      []*[]*Loc // break targets (innermost last)
	cont     []*[]*Loc // continue targets
	switches []*switchCtx
	parent   *frame
	generic  *genericInstance // non-nil inside a generic instance
	cleanups cleanupScopes    // cleanup variables in scope (cleanup.go)
}

type switchCtx struct {
	cases    map[*cc.LabeledStatement]*Loc
	cleanups int // cleanup variables in scope at the switch (cleanup.go)
}

// spawnSite is a pthread_create location.
type spawnSite struct {
	loc        *Loc
	candidates []*Template
	callback   bool // a callback spawn at an unknown call: Unbounded targets
	entry      bool // a library client's spawn of an entry point (never narrowed)
}

func newBuilder(file string, asts []*cc.AST, m DataModel, maxLocs int) *builder {
	b := &builder{
		prog:        &Program{File: file, DataModel: m},
		asts:        asts,
		model:       m,
		file:        file,
		maxLocs:     maxLocs,
		funcs:       map[string]*cc.FunctionDefinition{},
		funcDecls:   map[string]*cc.Declarator{},
		globals:     map[string]*storage{},
		statics:     map[*cc.Declarator]*storage{},
		funcObjs:    map[string]*Object{},
		addrTaken:   map[string]bool{},
		strObjs:     map[string]*Object{},
		objInfo:     map[*Object]*objInfo{},
		templateOf:  map[string]*Template{},
		generic:     map[genericKey]*genericInstance{},
		assumed:     map[string]bool{},
		inlineCount: map[genericKey]int{},
		fnSize:      map[string]int{},
		spawnMemo:   map[string]bool{},
		globalDecls: map[string][]*cc.Declarator{},
		startup:     map[string]bool{},
		globalInits: map[string]*cc.Initializer{},
		locFunc:     map[*Loc]string{},
		shared:      map[genericKey]*sharedBody{},
		bodies:      map[*cc.FunctionDefinition][]cc.Node{},
		costMemo:    map[string]int{},
		staticFuncs: map[string]bool{},
		uses:        map[*cc.AST]*unitUses{},
	}
	return b
}

// fail aborts the build with an error at the current position.
func (b *builder) fail(format string, args ...any) {
	pos := b.pos
	if pos.Filename == "" {
		pos.Filename = b.file
	}
	panic(&Error{Pos: pos, Msg: fmt.Sprintf(format, args...)})
}

func (b *builder) failAt(n cc.Node, format string, args ...any) {
	if n != nil {
		b.setPos(n)
	}
	b.fail(format, args...)
}

func (b *builder) setPos(n cc.Node) {
	if n == nil {
		return
	}
	p := n.Position()
	if p.Line > 0 {
		b.pos = token.Position{Filename: p.Filename, Line: p.Line, Column: p.Column, Offset: p.Offset}
	}
}

func posOf(n cc.Node) token.Position {
	if n == nil {
		return token.Position{}
	}
	p := n.Position()
	return token.Position{Filename: p.Filename, Line: p.Line, Column: p.Column, Offset: p.Offset}
}

// assume records a modelling assumption once per message.
func (b *builder) assume(pos token.Position, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	key := fmt.Sprintf("%s:%d:%s", pos.Filename, pos.Line, msg)
	if b.assumed[key] {
		return
	}
	b.assumed[key] = true
	b.prog.Assumptions = append(b.prog.Assumptions, Assumption{Pos: pos, Msg: msg})
}

// note records an assumption shown in check's output, once per key.
func (b *builder) note(key string, pos token.Position, format string, args ...any) {
	if b.noted == nil {
		b.noted = map[string]bool{}
	}
	if b.noted[key] {
		return
	}
	b.noted[key] = true
	b.prog.Assumptions = append(b.prog.Assumptions, Assumption{Pos: pos, Msg: fmt.Sprintf(format, args...), Note: true})
}

// ---- variables and objects ----

func (b *builder) newVar(name string, scope Scope, t Type) *Var {
	v := &Var{ID: len(b.prog.Vars), Name: b.uniqueName(name), Scope: scope, Type: t, Pos: b.pos}
	b.prog.Vars = append(b.prog.Vars, v)
	if scope == Local {
		if b.tmpl == nil {
			panic("local outside a template")
		}
		v.Template = b.tmpl
		b.tmpl.Locals = append(b.tmpl.Locals, v)
	}
	return v
}

func (b *builder) uniqueName(name string) string {
	// Names get a numeric suffix when taken; nameCount lives on the program
	// builder so names are deterministic.
	if b.names == nil {
		b.names = map[string]int{}
	}
	n := b.names[name]
	b.names[name] = n + 1
	if n == 0 {
		return name
	}
	for {
		cand := fmt.Sprintf("%s#%d", name, n)
		if b.names[cand] == 0 {
			b.names[cand] = 1
			return cand
		}
		n++
	}
}

// temp makes a fresh Local register of the current template.
func (b *builder) temp(t Type) *Var {
	b.tempN++
	return b.newVar(fmt.Sprintf("t%d", b.tempN), Local, t)
}

// newObject makes a memory object whose cells follow the layout of ctype
// (nil ctype: one blob cell). Cells of LocalObjects start Local; the
// escape analysis (finish.go) may make them Global.
func (b *builder) newObject(name string, kind ObjectKind, ctype cc.Type, arrayOf bool) *Object {
	o := &Object{ID: len(b.prog.Objects), Name: b.uniqueName(name), Kind: kind, Pos: b.pos, Size: -1}
	if ctype != nil && !arrayOf {
		o.Size = ctype.Size()
	}
	if kind == LocalObject {
		o.Template = b.tmpl
	}
	b.prog.Objects = append(b.prog.Objects, o)
	info := &objInfo{ctype: ctype, arrayOf: arrayOf}
	// A local of a generic (recursive) instance may exist once per active
	// call: its cells are summaries (see escape).
	info.recur = kind == LocalObject && b.fr != nil && b.fr.generic != nil
	b.objInfo[o] = info
	if kind == FuncObject {
		return o
	}
	var leaves []leaf
	if ctype != nil {
		leaves = b.layout(ctype)
		if leaves == nil && ctype.Size() != 0 {
			info.ctype = nil // blob
		}
	}
	scope := Global
	if kind == LocalObject {
		scope = Local
	}
	if info.ctype == nil {
		leaves = []leaf{{off: 0, typ: Type{Kind: IntType, Bits: 8}, summary: true, name: "[blob]"}}
	}
	for _, l := range leaves {
		v := &Var{ID: len(b.prog.Vars), Name: b.uniqueName(o.Name + l.name), Scope: scope, Type: l.typ,
			Pos: b.pos, Mem: o, Offset: l.off, Summary: l.summary || kind == HeapObject || arrayOf || info.ctype == nil}
		if l.name == "" {
			v.Name = b.uniqueName(o.Name + "@" + fmt.Sprint(l.off))
			if len(leaves) == 1 && l.off == 0 {
				v.Name = o.Name
				b.names[o.Name]++
			}
		}
		b.prog.Vars = append(b.prog.Vars, v)
		if scope == Local {
			v.Template = b.tmpl
			b.tmpl.Locals = append(b.tmpl.Locals, v)
		}
		o.Cells = append(o.Cells, v)
		info.sizes = append(info.sizes, l.typ.Size())
	}
	return o
}

// unknown returns the object standing for memory not known to the
// points-to analysis (integer constants cast to pointers, nondeterministic
// pointers, results of unknown functions): one summary blob cell.
func (b *builder) unknown() *Object {
	if b.unknownObj == nil {
		save := b.pos
		b.pos = token.Position{Filename: b.file}
		b.unknownObj = b.newObject("<unknown>", GlobalObject, nil, false)
		b.pos = save
	}
	return b.unknownObj
}

func (b *builder) funcObject(name string) *Object {
	if o := b.funcObjs[name]; o != nil {
		return o
	}
	o := b.newObject(name, FuncObject, nil, false)
	o.Func = name
	o.Size = 0
	b.funcObjs[name] = o
	return o
}

func (b *builder) stringObject(s string) *Object {
	if o := b.strObjs[s]; o != nil {
		return o
	}
	name := "str\"" + abbrev(s) + "\""
	o := b.newObjectArr(name, StringObject, b.asts[0].Char, int64(len(s)+1))
	for i := 0; i < len(s); i++ {
		o.Init = append(o.Init, InitValue{Offset: int64(i), Type: Type{Kind: IntType, Bits: 8, Signed: true}, Value: &Const{Type: Type{Kind: IntType, Bits: 8, Signed: true}, Value: int64(int8(s[i]))}})
	}
	b.strObjs[s] = o
	return o
}

// newObjectArr makes an object that is an array of n elements of elem.
func (b *builder) newObjectArr(name string, kind ObjectKind, elem cc.Type, n int64) *Object {
	o := b.newObject(name, kind, elem, true)
	o.Size = n * elem.Size()
	return o
}

func abbrev(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < ' ' || r > '~' || r == '"' || r == '\\' {
			return '.'
		}
		return r
	}, s)
	if len(s) > 16 {
		s = s[:16] + "..."
	}
	return s
}

// ---- locations ----

// emit appends a location with act after the frontier and makes it the
// frontier. Locations are created even in dead code (empty frontier); they
// are simply unreachable.
func (b *builder) emit(act Action) *Loc {
	l := b.newLoc(act)
	for _, p := range b.cur {
		link(p, l)
	}
	b.cur = []*Loc{l}
	return l
}

func (b *builder) newLoc(act Action) *Loc {
	// Over maxLocs every further call shares its callee's body, so the
	// program grows with the code from there on; this hard bound is for
	// code that alone would not fit the machine.
	if len(b.prog.Locs) >= hardLocFactor*b.maxLocs {
		if !b.coarse {
			panic(errCoarsen{}) // lowerUnits lowers again, every call shared
		}
		b.fail("program too large: more than %d locations even with every call shared (budget %d)", len(b.prog.Locs), b.maxLocs)
	}
	l := &Loc{ID: len(b.prog.Locs), Template: b.tmpl, Act: act, Pos: b.pos}
	b.locFunc[l] = b.curFunc
	b.prog.Locs = append(b.prog.Locs, l)
	b.tmpl.Locs = append(b.tmpl.Locs, l)
	return l
}

func link(from, to *Loc) {
	for _, s := range from.Succs {
		if s == to {
			return
		}
	}
	from.Succs = append(from.Succs, to)
	to.Preds = append(to.Preds, from)
}

// unlink removes the edge from -> to.
func unlink(from, to *Loc) {
	from.Succs = slices.DeleteFunc(from.Succs, func(l *Loc) bool { return l == to })
	for i, p := range to.Preds {
		if p == from {
			to.Preds = append(to.Preds[:i:i], to.Preds[i+1:]...)
			break
		}
	}
}

// newLocAt makes a location with act, no edges, in at's template,
// function and position (a location inserted by a pass after lowering).
func (b *builder) newLocAt(at *Loc, act Action) *Loc {
	n := &Loc{ID: len(b.prog.Locs), Template: at.Template, Act: act, Pos: at.Pos}
	b.prog.Locs = append(b.prog.Locs, n)
	at.Template.Locs = append(at.Template.Locs, n)
	b.locFunc[n] = b.locFunc[at]
	return n
}

// jumpTo links the frontier to l and empties the frontier.
func (b *builder) jumpTo(l *Loc) {
	for _, p := range b.cur {
		link(p, l)
	}
	b.cur = nil
}

// join makes a Skip location joining the frontier (used for labels and
// loop heads).
func (b *builder) join() *Loc { return b.emit(&Skip{}) }

// branch emits assume(c) and assume(!c) from the current frontier and
// returns the two new frontiers. A constant condition gives one side only.
func (b *builder) branch(c Expr) (t, f []*Loc) {
	if k, ok := c.(*Const); ok {
		if k.Value != 0 {
			return b.cur, nil
		}
		return nil, b.cur
	}
	saved := b.cur
	lt := b.emit(&Assume{Cond: c})
	b.cur = saved
	lf := b.emit(&Assume{Cond: negate(c)})
	b.cur = nil
	return []*Loc{lt}, []*Loc{lf}
}

func union(a, c []*Loc) []*Loc {
	out := append([]*Loc(nil), a...)
	for _, l := range c {
		found := false
		for _, x := range out {
			if x == l {
				found = true
				break
			}
		}
		if !found {
			out = append(out, l)
		}
	}
	return out
}

// ---- top level ----

func (b *builder) build() {
	b.collect()
	mainDef := b.funcs["main"]
	if mainDef == nil || len(b.entryNames) > 0 {
		b.buildLibrary()
	} else {
		b.lowerTemplate(b.newTemplate("main"), mainDef)
	}
	for len(b.pending) > 0 {
		t := b.pending[0]
		b.pending = b.pending[1:]
		b.lowerTemplate(t, b.funcs[t.Name])
	}
	b.finish()
}

func (b *builder) newTemplate(name string) *Template {
	t := &Template{ID: len(b.prog.Templates), Name: name}
	b.prog.Templates = append(b.prog.Templates, t)
	b.templateOf[name] = t
	return t
}

// templateFor returns the template of a spawnable function, queueing it
// for lowering when new.
func (b *builder) templateFor(name string) *Template {
	if t := b.templateOf[name]; t != nil {
		return t
	}
	t := b.newTemplate(name)
	b.pending = append(b.pending, t)
	return t
}

// collect records the file-scope declarations: functions, global
// variables (with their initializers) and which functions have their
// address taken.
func (b *builder) collect() {
	b.indexUnits()
	for u, ast := range b.asts {
		b.collectUnit(u, ast)
	}
	b.packedMembers()   // every struct's layout is gcc's (packed.go)
	b.sizeofFunctions() // ignoredattr.go
	b.findAddrTakenFuncs()
}

// collectUnit records the file-scope declarations of one unit.
func (b *builder) collectUnit(u int, ast *cc.AST) {
	for l := ast.TranslationUnit; l != nil; l = l.TranslationUnit {
		ed := l.ExternalDeclaration
		if ed == nil {
			continue
		}
		switch ed.Case {
		case cc.ExternalDeclarationFuncDef:
			fd := ed.FunctionDefinition
			name := b.lname(fd.Declarator)
			if old := b.funcs[name]; old != nil && !(old.Declarator.IsInline() && fd.Declarator.IsInline()) {
				b.pos = posOf(fd.Declarator)
				b.fail("multiple definitions of function %s (also at %s)", name, posOf(old.Declarator))
			}
			if b.funcs[name] == nil {
				b.funcs[name] = fd
				b.funcDecls[name] = fd.Declarator
			}
			if b.internal[u][fd.Declarator.Name()] {
				b.staticFuncs[name] = true
			}
		case cc.ExternalDeclarationDecl:
			d := ed.Declaration
			for idl := d.InitDeclaratorList; idl != nil; idl = idl.InitDeclaratorList {
				id := idl.InitDeclarator
				decl := id.Declarator
				if decl == nil || decl.IsTypename() {
					continue
				}
				name := b.lname(decl)
				if decl.Type().Kind() == cc.Function {
					if b.internal[u][decl.Name()] {
						b.staticFuncs[name] = true
					}
					if _, ok := b.funcDecls[name]; !ok {
						b.funcDecls[name] = decl
					}
					continue
				}
				// Storage is created on first use (lookup), so the many
				// unused declarations of system headers cost nothing.
				b.globalDecls[name] = append(b.globalDecls[name], decl)
				if id.Initializer != nil {
					if old := b.globalInits[name]; old != nil && len(b.asts) > 1 {
						b.pos = posOf(decl)
						b.fail("multiple definitions of %s (also at %s)", name, posOf(old))
					}
					b.globalInits[name] = id.Initializer
				}
			}
		}
	}
}

// globalStorage creates (or finds) the storage of a file-scope variable.
// Scalars whose address is never taken are Global registers; everything
// else is a GlobalObject.
func (b *builder) globalStorage(decl *cc.Declarator) *storage {
	name := b.lname(decl)
	if s := b.globals[name]; s != nil {
		return s
	}
	// The most complete declaration gives the type (extern int a[];
	// int a[10];).
	t := decl.Type()
	for _, d := range b.globalDecls[name] {
		if dt := d.Type(); dt.Size() > t.Size() {
			t = dt
		}
	}
	savePos := b.pos
	b.pos = posOf(decl)
	defer func() { b.pos = savePos }()
	s := &storage{ctype: t}
	if st, ok := b.scalarType(t); ok && !b.globalAddrTaken(name) && !decl.IsAtomic() {
		s.reg = b.newVar(name, Global, st)
	} else {
		s.obj = b.newObject(name, GlobalObject, t, false)
	}
	tls := decl.IsThreadLocal()
	for _, d := range b.globalDecls[name] {
		tls = tls || d.IsThreadLocal()
	}
	if s.reg != nil {
		s.reg.ThreadLocal = tls
	} else {
		s.obj.ThreadLocal = tls
	}
	b.globals[name] = s
	if in := b.globalInits[name]; in != nil {
		saveFr := b.fr
		b.fr = nil
		b.staticInit(s, in)
		b.fr = saveFr
	}
	return s
}

// globalAddrTaken reports whether any declarator of a file-scope name has
// its address taken (by source name: a static of another unit with the
// same name counts too, which only adds address-taken globals).
func (b *builder) globalAddrTaken(name string) bool {
	if b.addrTakenGlobals == nil {
		b.addrTakenGlobals = map[string]bool{}
		for _, ast := range b.asts {
			for l := ast.TranslationUnit; l != nil; l = l.TranslationUnit {
				ed := l.ExternalDeclaration
				if ed == nil || ed.Case != cc.ExternalDeclarationDecl {
					continue
				}
				for idl := ed.Declaration.InitDeclaratorList; idl != nil; idl = idl.InitDeclaratorList {
					if d := idl.InitDeclarator.Declarator; d != nil && d.AddressTaken() {
						b.addrTakenGlobals[d.Name()] = true
					}
				}
			}
			// Uses resolve to some declarator of the name; cc marks the one
			// it resolved to. Every & of an identifier counts too
			// (unitUsesOf walks all identifier uses once).
			for id := range b.unitUsesOf(ast).addrOf {
				b.addrTakenGlobals[id] = true
			}
		}
	}
	if i := strings.IndexByte(name, '@'); i > 0 {
		name = name[:i]
	}
	return b.addrTakenGlobals[name]
}

// baseIdent returns the identifier an lvalue expression is rooted at
// (x, x.f, x[i] with x an array...), or "".
func baseIdent(n cc.ExpressionNode) string {
	for {
		switch x := n.(type) {
		case *cc.PrimaryExpression:
			switch x.Case {
			case cc.PrimaryExpressionIdent:
				return x.Token.SrcStr()
			case cc.PrimaryExpressionExpr:
				n = x.ExpressionList
				continue
			}
			return ""
		case *cc.PostfixExpression:
			switch x.Case {
			case cc.PostfixExpressionSelect:
				n = x.PostfixExpression
				continue
			case cc.PostfixExpressionIndex:
				if x.PostfixExpression.Type().Kind() == cc.Array {
					n = x.PostfixExpression
					continue
				}
			}
			return ""
		case *cc.ExpressionList:
			if x.ExpressionList == nil {
				n = x.AssignmentExpression
				continue
			}
			return ""
		}
		return ""
	}
}

// findAddrTakenFuncs marks functions used other than as a direct callee.
func (b *builder) findAddrTakenFuncs() {
	for _, ast := range b.asts {
		for _, d := range b.unitUsesOf(ast).funcValues {
			b.addrTaken[b.lname(d)] = true
		}
	}
}

// unitUses is what one walk over a unit's AST finds for the address-taken
// analyses: the functions named other than as a direct callee
// (findAddrTakenFuncs) and the identifiers & is applied to
// (globalAddrTaken). A walk visits every node of the unit by reflection,
// except the file-scope declarations that evaluate nothing
// (evaluatesNothing: the header declarations of a preprocessed file); it
// is done once per unit and shared by the builders of every lowering round.
type unitUses struct {
	funcValues []*cc.Declarator
	addrOf     map[string]bool
	// addrOfDecls and addrOfUnresolved: the same &s by the declarator
	// their identifier resolves to, or by name when cc resolved it to no
	// declarator (localAddrTaken, addrtaken.go).
	addrOfDecls      map[*cc.Declarator]bool
	addrOfUnresolved map[string]bool
}

func (b *builder) unitUsesOf(ast *cc.AST) *unitUses {
	if u := b.uses[ast]; u != nil {
		return u
	}
	u := &unitUses{addrOf: map[string]bool{}, addrOfDecls: map[*cc.Declarator]bool{}, addrOfUnresolved: map[string]bool{}}
	callees := map[*cc.PrimaryExpression]bool{}
	var idents []*cc.PrimaryExpression
	visit := func(n cc.Node) {
		switch n := n.(type) {
		case *cc.PostfixExpression:
			if n.Case == cc.PostfixExpressionCall {
				if p := unparen(n.PostfixExpression); p != nil {
					callees[p] = true
				}
			}
		case *cc.PrimaryExpression:
			if n.Case == cc.PrimaryExpressionIdent {
				idents = append(idents, n)
			}
			if n.Case == cc.PrimaryExpressionString {
				b.checkStringToken(n) // ignoredattr.go
			}
		case *cc.StructDeclaration:
			b.noteStructDeclaration(n) // packed.go
		case *cc.StructOrUnionSpecifier:
			b.noteStructDefinition(n)
		case *cc.UnaryExpression:
			b.checkAlignof(n) // packed.go
			b.checkSizeofZeroElems(n)
			if n.Case == cc.UnaryExpressionMinus || n.Case == cc.UnaryExpressionCpl {
				b.checkWideBitfieldOperand(n, n.CastExpression) // packed.go
			}
			if n.Case == cc.UnaryExpressionAddrof {
				if id := baseIdent(n.CastExpression); id != "" {
					u.addrOf[id] = true
					u.noteAddrOf(n.CastExpression)
				}
			}
		case *cc.AdditiveExpression:
			b.checkWideBitfieldOperand(n, n.AdditiveExpression)
			b.checkWideBitfieldOperand(n, n.MultiplicativeExpression)
		case *cc.MultiplicativeExpression:
			if n.Case == cc.MultiplicativeExpressionMul {
				b.checkWideBitfieldOperand(n, n.MultiplicativeExpression)
				b.checkWideBitfieldOperand(n, n.CastExpression)
			}
		case *cc.ShiftExpression:
			if n.Case == cc.ShiftExpressionLsh {
				b.checkWideBitfieldOperand(n, n.ShiftExpression)
			}
		}
	}
	checkZeroElems := func(n cc.Node) {
		if x, ok := n.(*cc.UnaryExpression); ok {
			b.checkSizeofZeroElems(x) // packed.go
		}
	}
	for tu := ast.TranslationUnit; tu != nil; tu = tu.TranslationUnit {
		ed := tu.ExternalDeclaration
		skip := unitWalk == walkEvaluating && evaluatesNothing(ed) || unitWalk == skipDeclarations && ed != nil && ed.Case == cc.ExternalDeclarationDecl
		if ed != nil && !skip {
			walkAST(ed, visit)
		} else if skip {
			// What is never evaluated can still be folded: an array size
			// or an enumerator's value reads sizeof at compile time, and
			// cc's sizeof of an array of zero-size elements is not gcc's.
			walkAST(ed, checkZeroElems)
		}
	}
	for _, p := range idents {
		if callees[p] {
			continue
		}
		if d, ok := p.ResolvedTo().(*cc.Declarator); ok && d.Type().Kind() == cc.Function {
			u.funcValues = append(u.funcValues, d)
		}
	}
	b.uses[ast] = u
	return u
}

// unitWalk is walkEvaluating; the tests set the others: walkEverything to
// compare with the walk of every declaration (TestUnitUsesSkipSameProgram),
// skipDeclarations (UNSOUND: skips initializers too) to show that the
// comparison notices.
var unitWalk = walkEvaluating

const (
	walkEvaluating = iota
	walkEverything
	skipDeclarations
)

// evaluatesNothing reports whether an external declaration is a
// file-scope declaration without an initializer: what its expressions
// name (array sizes and bit-field widths, which are constant expressions
// at file scope, typeof and sizeof operands, attribute arguments, a
// prototype's parameter array sizes) is never evaluated, so it takes no
// address and passes no function as a value at run time. Skipping such
// declarations in unitUsesOf (most of a preprocessed file: the system
// headers' declarations) only drops marks no execution needs; a
// declaration with an initializer, a function definition and anything
// else is walked.
func evaluatesNothing(ed *cc.ExternalDeclaration) bool {
	if ed == nil || ed.Case != cc.ExternalDeclarationDecl || ed.Declaration == nil {
		return false
	}
	d := ed.Declaration
	if d.Initializer != nil {
		return false
	}
	for l := d.InitDeclaratorList; l != nil; l = l.InitDeclaratorList {
		if l.InitDeclarator != nil && l.InitDeclarator.Initializer != nil {
			return false
		}
	}
	return true
}

func unparen(n cc.ExpressionNode) *cc.PrimaryExpression {
	for {
		switch x := n.(type) {
		case *cc.PrimaryExpression:
			if x.Case == cc.PrimaryExpressionExpr {
				n = x.ExpressionList
				continue
			}
			return x
		case *cc.ExpressionList:
			if x.ExpressionList == nil {
				n = x.AssignmentExpression
				continue
			}
		}
		return nil
	}
}

// sortedAddrTakenFuncs lists address-taken functions deterministically.
func (b *builder) sortedAddrTakenFuncs() []string {
	var out []string
	for n := range b.addrTaken {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
