package cfg

// Thread-local globals (`__thread`, `_Thread_local`) as locals.
//
// In C each thread has its own instance of a thread-local variable,
// initialized with the variable's initializer when the thread starts. A
// thread-local global register (its address is never taken, so no pointer
// can carry one thread's instance to another) is therefore exactly a local
// of every template that uses it, assigned its initial value on entry:
// localizeThreadLocals rewrites it so. The rewritten program has the same
// executions as the C program (each thread reads and writes only its own
// copy, which starts at Init in every thread, main included), so nothing
// depends on the number of threads; the analysis then sends none of its
// writes to other threads, and a spawned thread does not inherit its
// parent's value (testdata/check/prec_thread_local.c pins both).
//
// Thread-local objects whose address is taken stay one shared object:
// more behaviours than C, sound.

// localizeThreadLocals replaces every thread-local global register by a
// Local of each template that mentions it, initialized right after the
// template's entry. It runs before points-to, so the new locals are
// ordinary registers for every later pass. Every template that mentions
// one is rewritten: a shared register would not over-approximate (a fresh
// thread would see its parent's last write instead of Init). The
// initialization goes between the entry and all of its successors
// (spliceAfterEntry), which runs once per thread because no path returns
// to a template's entry (sanity checks it).
func (b *builder) localizeThreadLocals() {
	var tls []*Var
	for _, v := range b.prog.Vars {
		if v.Scope == Global && v.ThreadLocal && v.Mem == nil {
			tls = append(tls, v)
		}
	}
	if len(tls) == 0 {
		return
	}
	isTLS := map[*Var]bool{}
	for _, v := range tls {
		isTLS[v] = true
	}
	// A callback template (callback.go) stands for calls an external
	// makes in the calling thread, which see that thread's instance, and
	// for calls from threads of the external's own, which start with
	// Init; a library entry's template (library.go) stands for calls
	// from a client thread that may have called other entries before: a
	// variable such a template mentions stays one shared register (every
	// thread's writes reach every read), and the template's entry may set
	// it to Init (sharedThreadLocalInits).
	shared := map[*Var]bool{}
	for _, t := range b.prog.Templates {
		if !b.runsInCallersThread(t) {
			continue
		}
		for v := range templateUses(t, isTLS) {
			shared[v] = true
		}
	}
	kept := tls[:0]
	for _, v := range tls {
		if !shared[v] {
			kept = append(kept, v)
			continue
		}
		delete(isTLS, v)
		// (the interpreter would give each thread its own copy)
		v.ThreadLocal = false
		b.prog.SharedThreadLocals = append(b.prog.SharedThreadLocals, v)
	}
	tls = kept
	b.sharedThreadLocalInits(shared)
	saveTmpl, saveFunc := b.tmpl, b.curFunc
	defer func() { b.tmpl, b.curFunc = saveTmpl, saveFunc }()
	for _, t := range b.prog.Templates {
		if t.Entry == nil {
			continue
		}
		used := templateUses(t, isTLS)
		if len(used) == 0 {
			continue
		}
		b.tmpl, b.curFunc = t, b.locFunc[t.Entry]
		local := map[*Var]*Var{}
		var inits []*Loc
		for _, v := range tls {
			if !used[v] {
				continue
			}
			savePos := b.pos
			b.pos = v.Pos
			lv := b.newVar(v.Name+"@"+t.Name, Local, v.Type)
			b.tlsRegs = append(b.tlsRegs, lv) // expandSetjmps
			var init Expr = &Const{Type: v.Type, Value: 0}
			if v.Init != nil {
				init = v.Init
			}
			inits = append(inits, b.newLoc(&Assign{Dst: &VarRef{Var: lv}, Src: init}))
			b.pos = savePos
			local[v] = lv
		}
		for _, l := range t.Locs {
			renameVars(l.Act, local)
		}
		// entry -> init₁ -> ... -> initₙ -> the entry's old successors.
		for i, l := range inits {
			l.Pos = t.Entry.Pos
			if i > 0 {
				link(inits[i-1], l)
			}
		}
		spliceAfterEntry(t, inits[0], inits[len(inits)-1])
	}
}

// spliceAfterEntry puts the chain first..last (already linked) between t's
// entry and every successor the entry has, so that every path from the
// entry runs the chain first. It relies on the entry having no
// predecessors (checked by sanity): a path that came back to the entry
// would run the chain again, which a thread does not.
func spliceAfterEntry(t *Template, first, last *Loc) {
	succs := append([]*Loc(nil), t.Entry.Succs...)
	for _, s := range succs {
		unlink(t.Entry, s)
	}
	link(t.Entry, first)
	for _, s := range succs {
		link(last, s)
	}
}

// templateUses returns the variables of set that t's actions mention.
func templateUses(t *Template, set map[*Var]bool) map[*Var]bool {
	used := map[*Var]bool{}
	for _, l := range t.Locs {
		for _, v := range actionVars(l.Act) {
			if set[v] {
				used[v] = true
			}
		}
	}
	return used
}

// actionVars lists the registers an action mentions (read or written),
// addresses included.
func actionVars(act Action) []*Var {
	var out []*Var
	mapActionExprs(act, func(e Expr) Expr {
		if x, ok := e.(*VarRef); ok {
			out = append(out, x.Var)
		}
		return e
	})
	return out
}

// renameVars replaces, in act, every reference to a key of m by its value.
func renameVars(act Action, m map[*Var]*Var) {
	mapActionExprs(act, func(e Expr) Expr {
		if x, ok := e.(*VarRef); ok {
			if nv := m[x.Var]; nv != nil {
				return &VarRef{Var: nv}
			}
		}
		return e
	})
}

// mapActionExprs replaces every VarRef-level leaf expression e of act by
// f(e), descending through the operators and dereferences.
func mapActionExprs(act Action, f func(Expr) Expr) {
	var rw func(e Expr) Expr
	rw = func(e Expr) Expr {
		switch x := e.(type) {
		case *VarRef:
			return f(x)
		case *Deref:
			x.Addr = rw(x.Addr)
		case *Unary:
			x.X = rw(x.X)
		case *Binary:
			x.X, x.Y = rw(x.X), rw(x.Y)
		case *Cast:
			x.X = rw(x.X)
		}
		return e
	}
	lv := func(d LValue) LValue {
		if d == nil {
			return nil
		}
		return rw(d).(LValue)
	}
	switch x := act.(type) {
	case *Assign:
		x.Dst, x.Src = lv(x.Dst), rw(x.Src)
	case *Assume:
		x.Cond = rw(x.Cond)
	case *Havoc:
		x.Dst = lv(x.Dst)
	case *CheckAct:
		x.Cond = rw(x.Cond)
	case *Acquire:
		x.Lock = lv(x.Lock)
	case *Release:
		x.Lock = lv(x.Lock)
	case *Spawn:
		x.Fn = rw(x.Fn)
		if x.Arg != nil {
			x.Arg = rw(x.Arg)
		}
		if x.Handle != nil {
			x.Handle = lv(x.Handle)
		}
	case *Join:
		x.Handle = rw(x.Handle)
	case *Alloc:
		x.Dst = lv(x.Dst)
		if x.Size != nil {
			x.Size = rw(x.Size)
		}
	case *Output:
		for i := range x.Args {
			x.Args[i] = rw(x.Args[i])
		}
	}
}

// runsInCallersThread reports whether t's code may run in a thread that
// ran other code before (a callback, a library entry, a constructor or
// destructor: startup.go).
func (b *builder) runsInCallersThread(t *Template) bool {
	return b.callbacks[t.Name] || b.entries[t.Name] || b.startup[t.Name]
}

// sharedThreadLocalInits adds, right after the entry of each callback or
// entry template that mentions a variable of shared, a choice between going on
// and setting those variables to their initial values first: a callback
// called in a fresh thread of the external sees Init, one called in the
// calling thread sees that thread's value (from the spawn and the
// interference of the caller's writes).
func (b *builder) sharedThreadLocalInits(shared map[*Var]bool) {
	if len(shared) == 0 {
		return
	}
	saveTmpl, saveFunc := b.tmpl, b.curFunc
	defer func() { b.tmpl, b.curFunc = saveTmpl, saveFunc }()
	var vars []*Var
	for _, v := range b.prog.Vars {
		if shared[v] {
			vars = append(vars, v)
		}
	}
	for _, t := range b.prog.Templates {
		if !b.runsInCallersThread(t) || t.Entry == nil {
			continue
		}
		used := templateUses(t, shared)
		if len(used) == 0 {
			continue
		}
		b.tmpl, b.curFunc = t, b.locFunc[t.Entry]
		fork := b.newLoc(&Skip{})
		fork.Pos = t.Entry.Pos
		var inits []*Loc
		for _, v := range vars {
			if !used[v] {
				continue
			}
			var init Expr = &Const{Type: v.Type, Value: 0}
			if v.Init != nil {
				init = v.Init
			}
			l := b.newLoc(&Assign{Dst: &VarRef{Var: v}, Src: init})
			l.Pos = t.Entry.Pos
			inits = append(inits, l)
		}
		// entry -> fork -> (init₁ -> ... -> initₙ ->) the old successors;
		// fork -> the old successors.
		succs := append([]*Loc(nil), t.Entry.Succs...)
		prev := fork
		for _, l := range inits {
			link(prev, l)
			prev = l
		}
		spliceAfterEntry(t, fork, prev)
		for _, s := range succs {
			link(fork, s)
		}
	}
}
