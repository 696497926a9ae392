package cfg

// Library code: a translation unit (or linked set) without main, or with
// entry points named by Options.Entries, is analyzed against its most
// general client (doc.go, "Libraries").
//
// The client is unknown code, like an unknown external function (see
// callback.go): it holds every pointer the library hands out (results of
// entry calls, memory reachable from them and from the arguments) and
// may pass any of them back, or pointers to fresh objects of the
// declared type, or any other value. So an entry point is lowered like a
// callback: its parameters hold any value (pointers: anything unknown
// code can reach, including one fresh object per pointer parameter, which
// the library may keep), and what it returns is reachable by unknown
// code. The synthetic main ("<client>") initializes the globals as C
// says and then, in a loop, spawns an Unbounded template per entry
// point: any entry, any number of times, in any order, from any number
// of threads at once. With EntryThreads == 1 the client is one thread
// calling (inlined) entries in any order in a loop.

import (
	"go/token"
	"sort"
	"strings"

	"modernc.org/cc/v4"
)

// entryPoints lists the library's entry points: Options.Entries, else
// every defined function with external linkage (sorted).
func (b *builder) entryPoints() []string {
	if len(b.entryNames) > 0 {
		var out []string
		for _, n := range b.entryNames {
			if b.funcs[n] == nil {
				b.pos = token.Position{Filename: b.file}
				b.fail("--entry %s: no definition of %s", n, n)
			}
			out = append(out, n)
		}
		return out
	}
	var out []string
	for n := range b.funcs {
		if !b.staticFuncs[n] {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// buildLibrary lowers the synthetic client and the entry templates.
func (b *builder) buildLibrary() {
	entries := b.entryPoints()
	b.pos = token.Position{Filename: b.file}
	if len(entries) == 0 {
		// Nothing for a client to call by name (e.g. every function
		// preprocessed away): the client still initializes the globals
		// and calls any function pointer it can reach (a static function
		// stored in a global table), so the unit is analysed, usually
		// with 0 checks.
		b.note("library", b.pos, "no main function and no function with external linkage: the only client code is global initialization and calls of function pointers reachable from globals (usually nothing to analyse)")
	}
	b.entries = map[string]bool{}
	for _, n := range entries {
		b.entries[n] = true
	}
	how := "from any number of threads at once"
	if b.entryThreads == 1 {
		how = "from one thread"
	}
	why := "no main"
	if len(b.entryNames) > 0 {
		why = "--entry"
	}
	b.note("library", b.pos, "%s: analyzed as a library against its most general client: %s called in any order, any number of times, %s, with any arguments (pointers: to fresh objects of the declared type, or to anything the library handed out); the client changes the library's globals only through these functions", why, strings.Join(entries, ", "), how)
	t := b.newTemplate("<client>")
	b.tmpl = t
	b.cur = nil
	b.curFunc = "<client>"
	t.Entry = b.emit(&InitGlobals{})
	b.startupSpawns()
	head := b.emit(&Skip{})
	for _, n := range entries {
		b.cur = []*Loc{head}
		fd := b.funcs[n]
		b.pos = posOf(fd.Declarator)
		if b.entryThreads == 1 {
			b.clientCall(fd)
		} else {
			arg := b.temp(b.ptrType())
			b.emit(&Havoc{Dst: &VarRef{Var: arg}})
			b.cbParams = append(b.cbParams, arg)
			tm := b.templateFor(n)
			l := b.emit(&Spawn{Fn: &AddrOf{Object: b.funcObject(n), Type: b.ptrType()}, Targets: []*Template{tm}, Arg: &VarRef{Var: arg}})
			b.spawns = append(b.spawns, &spawnSite{loc: l, candidates: []*Template{tm}, callback: true, entry: true})
		}
		b.jumpTo(head)
	}
	// The client names the library's globals of external linkage: it may
	// read every pointer they hold (a table of static functions, a
	// handle) and call or pass it back.
	b.clientObjs = append(b.clientObjs, b.externalGlobalValues()...)
	// The client calls the function pointers it holds (callback.go).
	b.cur = []*Loc{head}
	b.clientSite = &unknownCall{name: "<client>", pos: b.pos}
	b.callbackSpawns(b.clientSite)
	b.jumpTo(head)
	b.cur = []*Loc{head}
	t.Exit = b.emit(&Skip{})
	b.cur = nil
	b.lowerGenerics()
	b.tmplExits = nil
}

// clientCall lowers one call of entry fd by the single-threaded client:
// arguments as unknown code passes them, the result handed to it.
func (b *builder) clientCall(fd *cc.FunctionDefinition) {
	ft, _ := fd.Declarator.Type().(*cc.FunctionType)
	var vals []Expr
	if ft != nil {
		params := nonVoidParams(ft)
		b.freshClientObjects(b.lname(fd.Declarator), params)
		for _, p := range params {
			pt := p.Type()
			if isAggregate(pt) {
				o := b.newObject(b.lname(fd.Declarator)+".arg", LocalObject, pt, false)
				b.forScalars(pt, func(off Expr, st Type) {
					b.emit(&Havoc{Dst: &Deref{Addr: b.ptrAdd(b.objAddr(o), off), Type: st}})
				})
				vals = append(vals, b.objAddr(o))
				continue
			}
			st, ok := b.scalarType(pt)
			if !ok {
				b.fail("unsupported parameter type %v of entry point %s", pt, b.lname(fd.Declarator))
			}
			v := b.temp(st)
			b.emit(&Havoc{Dst: &VarRef{Var: v}})
			b.cbParams = append(b.cbParams, v)
			vals = append(vals, &VarRef{Var: v})
		}
	}
	saveFr := b.fr
	if b.fr == nil {
		b.fr = &frame{name: "<client>", vars: map[cc.Node]*storage{}, labels: map[string]*Loc{}}
	}
	res := b.inline(fd, nil, vals)
	b.fr = saveFr
	if res != nil {
		b.clientObjs = append(b.clientObjs, res)
	}
}

// freshClientObjects makes, for each pointer parameter to a complete
// object type (or void), one fresh object the client may pass; it is
// reachable by unknown code from then on, so the library may keep it and
// every parameter of an entry may point to it.
func (b *builder) freshClientObjects(fn string, params []*cc.Parameter) {
	for _, p := range params {
		pt, ok := p.Type().Decay().(*cc.PointerType)
		if !ok {
			continue
		}
		e := pt.Elem()
		if e == nil || e.Kind() == cc.Function {
			continue
		}
		save := b.allocHint
		b.allocHint = pt
		saveFunc := b.curFunc
		b.curFunc = fn + "." + p.Name()
		size := e.Size()
		if size <= 0 || e.Kind() == cc.Void {
			size = 1
		}
		v := b.alloc("client", &Const{Type: b.intptr(), Value: size}, false)
		b.curFunc = saveFunc
		b.allocHint = save
		b.clientObjs = append(b.clientObjs, v)
	}
}

// externalGlobalValues lists, for each file-scope variable of external
// linkage whose type may hold a pointer, what a client reading it by name
// holds: the object's address (everything reachable from it), or the
// register's value.
func (b *builder) externalGlobalValues() []Expr {
	seen := map[string]bool{}
	var out []Expr
	for _, ast := range b.asts {
		for l := ast.TranslationUnit; l != nil; l = l.TranslationUnit {
			ed := l.ExternalDeclaration
			if ed == nil || ed.Case != cc.ExternalDeclarationDecl {
				continue
			}
			for idl := ed.Declaration.InitDeclaratorList; idl != nil; idl = idl.InitDeclaratorList {
				d := idl.InitDeclarator.Declarator
				if d == nil || d.IsTypename() || d.IsStatic() || d.Type() == nil || d.Type().Kind() == cc.Function {
					continue
				}
				if !mayHoldPointer(d.Type(), int64(b.model.PtrBits()/8), 0) {
					continue
				}
				name := b.lname(d)
				if seen[name] {
					continue
				}
				seen[name] = true
				s := b.globals[name]
				if s == nil {
					if d.IsExtern() {
						continue // defined elsewhere, unused here
					}
					// Unused by the library but defined here: the
					// client may read it (a table of static functions).
					s = b.globalStorage(d)
				}
				if s.obj != nil {
					out = append(out, b.objAddr(s.obj))
				} else if s.reg != nil {
					out = append(out, &VarRef{Var: s.reg})
				}
			}
		}
	}
	return out
}

// mayHoldPointer reports whether an object of type t may hold a pointer:
// a pointer, an integer as wide as one (uintptr_t), or an aggregate with
// such a member.
func mayHoldPointer(t cc.Type, ptrSize int64, depth int) bool {
	if t == nil || depth > 64 {
		return true
	}
	switch x := t.(type) {
	case *cc.PointerType:
		return true
	case *cc.ArrayType:
		return mayHoldPointer(x.Elem(), ptrSize, depth+1)
	case *cc.StructType:
		for i := 0; i < x.NumFields(); i++ {
			if f := x.FieldByIndex(i); f != nil && mayHoldPointer(f.Type(), ptrSize, depth+1) {
				return true
			}
		}
		return false
	case *cc.UnionType:
		for i := 0; i < x.NumFields(); i++ {
			if f := x.FieldByIndex(i); f != nil && mayHoldPointer(f.Type(), ptrSize, depth+1) {
				return true
			}
		}
		return false
	}
	return cc.IsIntegerType(t) && t.Size() >= ptrSize || t.Kind() == cc.Ptr
}
