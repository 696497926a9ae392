package cfg

import (
	"slices"
	"strings"

	"modernc.org/cc/v4"
)

// Library functions with a fixed meaning. They are recognized by name even
// when the file defines them (SV-COMP files define reach_error and
// __VERIFIER_assert; the ddverify models define pthread_create, which runs
// the thread synchronously, and the mutex functions): the definitions are
// models of exactly these semantics.

// builtin lowers a call to a known library function from its argument
// expressions. ok is false when name is not a builtin.
func (b *builder) builtin(name string, x *cc.PostfixExpression, args []cc.ExpressionNode, discard bool) (Expr, bool) {
	switch name {
	case "__VERIFIER_assume", "__CPROVER_assume", "assume_abort_if_not", "__builtin_assume":
		if len(args) < 1 {
			b.fail("%s needs an argument", name)
		}
		t, _ := b.cond(args[0])
		b.cur = t
		return nil, true
	case "__VERIFIER_assert", "__CPROVER_assert":
		if len(args) < 1 {
			b.fail("%s needs an argument", name)
		}
		v := b.rvalue(args[0])
		b.setPos(x)
		b.check(AssertCheck, truth(v), "assertion "+nodeSrc(args[0]))
		for _, a := range args[1:] {
			b.discard(a)
		}
		return nil, true
	case "__builtin_expect", "__builtin_expect_with_probability":
		if len(args) < 1 {
			b.fail("%s needs an argument", name)
		}
		v := b.rvalue(args[0])
		for _, a := range args[1:] {
			b.discard(a)
		}
		return b.conv(v, args[0].Type(), x.Type()), true
	case "printf", "puts", "putchar":
		if v, ok := b.output(name, x, args); ok {
			return v, true
		}
	case "memset", "__builtin_memset", "memcpy", "__builtin_memcpy", "memmove", "__builtin_memmove":
		if v, ok := b.memOp(name, x, args); ok {
			return v, true
		}
	}
	if isNondet(name) {
		for _, a := range args {
			b.discard(a)
		}
		return b.nondet(x.Type()), true
	}
	if !isBuiltinName(name) {
		return nil, false
	}
	var ft *cc.FunctionType
	if d := b.funcDecls[name]; d != nil {
		ft, _ = d.Type().(*cc.FunctionType)
	}
	vals := b.evalArgs(ft, args)
	return b.builtinVals(name, x, vals)
}

func isNondet(name string) bool {
	return strings.HasPrefix(name, "__VERIFIER_nondet_") || strings.HasPrefix(name, "nondet_") || strings.HasPrefix(name, "__CPROVER_nondet")
}

var builtinNames = map[string]bool{
	"reach_error": true, "__VERIFIER_error": true, "__assert_fail": true, "__assert_perror_fail": true, "__assert": true,
	"abort": true, "exit": true, "_exit": true, "_Exit": true, "__builtin_abort": true, "__builtin_trap": true, "__builtin_unreachable": true,
	"__VERIFIER_atomic_begin": true, "__VERIFIER_atomic_end": true, "__CPROVER_atomic_begin": true, "__CPROVER_atomic_end": true,
	"pthread_create": true, "pthread_join": true, "pthread_exit": true,
	"pthread_mutex_lock": true, "pthread_mutex_unlock": true, "pthread_mutex_trylock": true, "pthread_mutex_init": true, "pthread_mutex_destroy": true,
	"pthread_rwlock_wrlock": true, "pthread_rwlock_rdlock": true, "pthread_rwlock_unlock": true, "pthread_rwlock_init": true, "pthread_rwlock_destroy": true,
	"pthread_spin_lock": true, "pthread_spin_unlock": true, "pthread_spin_trylock": true, "pthread_spin_init": true, "pthread_spin_destroy": true,
	"pthread_cond_wait": true, "pthread_cond_timedwait": true, "pthread_cond_signal": true, "pthread_cond_broadcast": true,
	"pthread_cond_init": true, "pthread_cond_destroy": true, "pthread_self": true, "pthread_equal": true, "pthread_detach": true,
	"pthread_yield": true, "sched_yield": true,
	"malloc": true, "calloc": true, "alloca": true, "__builtin_alloca": true, "free": true, "__builtin_malloc": true, "__builtin_calloc": true, "__builtin_free": true,
	"__sync_synchronize": true, "__atomic_thread_fence": true, "__atomic_signal_fence": true,
	"__atomic_load_n": true, "__atomic_store_n": true, "__atomic_exchange_n": true, "__atomic_compare_exchange_n": true,
	"__atomic_load": true, "__atomic_store": true, "__atomic_exchange": true, "__atomic_compare_exchange": true,
	"__atomic_test_and_set": true, "__atomic_clear": true,
	"__atomic_fetch_add": true, "__atomic_fetch_sub": true, "__atomic_fetch_and": true, "__atomic_fetch_or": true, "__atomic_fetch_xor": true,
	"__atomic_add_fetch": true, "__atomic_sub_fetch": true, "__atomic_and_fetch": true, "__atomic_or_fetch": true, "__atomic_xor_fetch": true,
	"__sync_fetch_and_add": true, "__sync_fetch_and_sub": true, "__sync_fetch_and_and": true, "__sync_fetch_and_or": true, "__sync_fetch_and_xor": true,
	"__sync_add_and_fetch": true, "__sync_sub_and_fetch": true, "__sync_and_and_fetch": true, "__sync_or_and_fetch": true, "__sync_xor_and_fetch": true,
	"__atomic_fetch_nand": true, "__atomic_nand_fetch": true, "__sync_fetch_and_nand": true, "__sync_nand_and_fetch": true,
	"__sync_bool_compare_and_swap": true, "__sync_val_compare_and_swap": true, "__sync_lock_test_and_set": true, "__sync_lock_release": true,
	"__builtin_constant_p": true,
}

func isBuiltinName(name string) bool { return builtinNames[name] || isValueBuiltin(name) }

// builtinVals lowers a builtin from evaluated arguments.
func (b *builder) builtinVals(name string, x *cc.PostfixExpression, vals []Expr) (Expr, bool) {
	if e, ok := b.valueBuiltin(name, x, vals); ok { // valuebuiltins.go
		return e, true
	}
	if !isBuiltinName(name) {
		if isNondet(name) {
			return b.nondet(x.Type()), true
		}
		return nil, false
	}
	b.setPos(x)
	arg := func(i int) Expr {
		if i >= len(vals) || vals[i] == nil {
			b.fail("%s: missing argument %d", name, i+1)
		}
		return vals[i]
	}
	zero := func() Expr {
		rt := x.Type()
		if st, ok := b.scalarType(rt); ok {
			return &Const{Type: st}
		}
		return nil
	}
	switch name {
	case "reach_error", "__VERIFIER_error":
		b.check(AssertCheck, &Const{Type: Bool}, name+"() reachable")
		b.cur = nil
		return nil, true
	case "__assert_fail", "__assert_perror_fail", "__assert":
		msg := "assertion failed"
		if len(vals) > 0 {
			if a, ok := vals[0].(*AddrOf); ok && a.Object.Kind == StringObject {
				msg = "assertion " + b.stringOf(a.Object)
			}
		}
		b.check(AssertCheck, &Const{Type: Bool}, msg)
		b.cur = nil
		return nil, true
	case "abort", "exit", "_exit", "_Exit", "__builtin_abort", "__builtin_trap", "__builtin_unreachable":
		// The program stops: no successor for this thread. Other threads
		// are not stopped (an over-approximation of exit's behaviours).
		b.emit(&Assume{Cond: &Const{Type: Bool}})
		b.cur = nil
		return nil, true
	case "__VERIFIER_atomic_begin", "__CPROVER_atomic_begin":
		b.emit(&AtomicBegin{})
		return nil, true
	case "__VERIFIER_atomic_end", "__CPROVER_atomic_end":
		b.emit(&AtomicEnd{})
		return nil, true
	case "pthread_create":
		return b.spawn(x, vals), true
	case "pthread_join":
		h := arg(0)
		b.emit(&Join{Handle: h})
		if len(vals) > 1 && !isNullConst(vals[1]) {
			// The thread's exit value is not tracked: any value.
			b.emit(&Havoc{Dst: &Deref{Addr: vals[1], Type: b.ptrType()}})
		}
		return zero(), true
	case "pthread_exit":
		b.tmplExits = union(b.tmplExits, b.cur)
		b.cur = nil
		return nil, true
	case "pthread_mutex_lock", "pthread_spin_lock":
		b.emit(&Acquire{Lock: b.lockWord(arg(0))})
		return zero(), true
	case "pthread_mutex_unlock", "pthread_spin_unlock":
		b.emit(&Release{Lock: b.lockWord(arg(0))})
		return zero(), true
	case "pthread_rwlock_wrlock":
		// A read-write lock is one lock word taken by writers only:
		// writers exclude each other; readers take nothing, so they
		// exclude no one (more behaviours than real). Any unlock releases
		// the word: a reader's unlock can only release spuriously, which
		// again adds behaviours.
		b.emit(&Acquire{Lock: b.lockWord(arg(0))})
		return zero(), true
	case "pthread_rwlock_rdlock":
		b.emit(&Skip{})
		return zero(), true
	case "pthread_rwlock_unlock":
		b.emit(&Release{Lock: b.lockWord(arg(0))})
		return zero(), true
	case "pthread_rwlock_init":
		b.emit(&Assign{Dst: b.lockWord(arg(0)), Src: &Const{Type: Int32}})
		return zero(), true
	case "pthread_mutex_trylock", "pthread_spin_trylock":
		// Either takes the lock (0) or fails with EBUSY. Failing is allowed
		// even when the lock is free (an over-approximation).
		st := b.mustScalar(x.Type())
		r := b.temp(st)
		saved := b.cur
		b.emit(&Acquire{Lock: b.lockWord(arg(0))})
		b.emit(&Assign{Dst: &VarRef{Var: r}, Src: &Const{Type: st}})
		took := b.cur
		b.cur = saved
		b.emit(&Assign{Dst: &VarRef{Var: r}, Src: &Const{Type: st, Value: 16}})
		b.cur = union(took, b.cur)
		return &VarRef{Var: r}, true
	case "pthread_mutex_init", "pthread_spin_init":
		b.emit(&Assign{Dst: b.lockWord(arg(0)), Src: &Const{Type: Int32}})
		return zero(), true
	case "pthread_cond_wait", "pthread_cond_timedwait":
		// Spurious wake-ups are allowed by POSIX, so waiting is modelled as
		// release; acquire (signals are then irrelevant: sound).
		m := arg(1)
		b.emit(&Release{Lock: b.lockWord(m)})
		b.emit(&Acquire{Lock: b.lockWord(m)})
		if name == "pthread_cond_timedwait" {
			return b.nondet(x.Type()), true
		}
		return zero(), true
	case "pthread_mutex_destroy", "pthread_spin_destroy", "pthread_rwlock_destroy", "pthread_cond_signal", "pthread_cond_broadcast",
		"pthread_cond_init", "pthread_cond_destroy", "pthread_detach", "pthread_yield", "sched_yield", "free", "__builtin_free",
		"__sync_synchronize", "__atomic_thread_fence", "__atomic_signal_fence":
		b.emit(&Skip{})
		return zero(), true
	case "pthread_self", "pthread_equal":
		return b.nondet(x.Type()), true
	case "__builtin_constant_p":
		return zero(), true
	case "malloc", "__builtin_malloc", "alloca", "__builtin_alloca":
		return b.alloc(name, arg(0), false), true
	case "calloc", "__builtin_calloc":
		n := b.castTo(arg(0), b.intptr())
		s := b.castTo(arg(1), b.intptr())
		return b.alloc(name, fold(&Binary{Op: Mul, X: n, Y: s, Type: b.intptr()}), true), true
	}
	if strings.HasPrefix(name, "__atomic_") || strings.HasPrefix(name, "__sync_") {
		return b.atomicBuiltin(name, x, vals), true
	}
	return nil, false
}

func isNullConst(e Expr) bool {
	switch x := e.(type) {
	case *Const:
		return x.Value == 0
	case *Cast:
		return isNullConst(x.X)
	}
	return false
}

// nondet returns a fresh value anywhere in the range of C type t
// (_Bool: 0 or 1).
func (b *builder) nondet(t cc.Type) Expr {
	if t == nil || t.Kind() == cc.Void {
		return nil
	}
	if isAggregate(t) {
		o := b.newObject("nondet", LocalObject, t, false)
		b.forScalars(t, func(off Expr, st Type) {
			b.emit(&Havoc{Dst: &Deref{Addr: b.ptrAdd(b.objAddr(o), off), Type: st}})
		})
		return b.objAddr(o)
	}
	st := b.mustScalar(t)
	r := b.temp(st)
	b.emit(&Havoc{Dst: &VarRef{Var: r}})
	if t.Kind() == cc.Bool {
		tr, _ := b.branch(&Binary{Op: Le, X: &VarRef{Var: r}, Y: &Const{Type: st, Value: 1}, Type: Bool})
		b.cur = tr
	}
	return &VarRef{Var: r}
}

// lockWord is the lock word of the mutex at address p.
func (b *builder) lockWord(p Expr) LValue {
	return &Deref{Addr: b.castTo(p, b.ptrType()), Type: Int32}
}

// alloc makes a heap allocation site. The element type comes from the
// pointer type the result is converted to (allocHint), which gives the
// site a field-sensitive layout (an array of that type of unknown length);
// without one the site is one blob. Allocation is assumed to succeed.
func (b *builder) alloc(name string, size Expr, zero bool) Expr {
	var elem cc.Type
	if h := b.allocHint; h != nil {
		if pt, ok := h.(*cc.PointerType); ok {
			if e := pt.Elem(); e != nil && e.Kind() != cc.Void && e.Size() > 0 && e.Kind() != cc.Function {
				elem = e
			}
		}
	}
	site := b.newObject(b.curFunc+"."+name, HeapObject, elem, elem != nil)
	if k, ok := size.(*Const); ok {
		site.Size = k.Value
	} else {
		site.Size = -1
	}
	r := b.temp(b.ptrType())
	b.emit(&Alloc{Dst: &VarRef{Var: r}, Site: site, Size: b.castTo(size, b.intptr()), Zero: zero})
	return &VarRef{Var: r}
}

// spawn lowers pthread_create(handle, attr, fn, arg). Thread creation is
// assumed to succeed (result 0), as in SV-COMP.
func (b *builder) spawn(x *cc.PostfixExpression, vals []Expr) Expr {
	if len(vals) < 3 {
		b.fail("pthread_create needs 4 arguments")
	}
	fn := vals[2]
	var argv Expr
	if len(vals) > 3 {
		argv = vals[3]
	}
	var handle LValue
	if !isNullConst(vals[0]) {
		ht := b.ptrType()
		if d := b.funcDecls["pthread_create"]; d != nil {
			if ft, ok := d.Type().(*cc.FunctionType); ok {
				if ps := nonVoidParams(ft); len(ps) > 0 {
					if pt, ok := ps[0].Type().(*cc.PointerType); ok {
						if st, ok := b.scalarType(pt.Elem()); ok {
							ht = st
						} else {
							ht = Int32 // struct pthread_t (ddverify): its first word
						}
					}
				}
			}
		}
		handle = &Deref{Addr: vals[0], Type: ht}
	}
	var cands []*Template
	if a, ok := fn.(*AddrOf); ok && a.Object.Kind == FuncObject && a.Offset == 0 {
		if b.funcs[a.Object.Func] == nil {
			b.fail("pthread_create of %s, which has no body", a.Object.Func)
		}
		if a.Object.Func == "main" {
			b.fail("unsupported: pthread_create of main")
		}
		cands = append(cands, b.templateFor(a.Object.Func))
	} else {
		for _, name := range b.candidates(nil, 1) {
			if b.funcs[name] == nil || name == "main" {
				continue
			}
			ft, _ := b.funcDecls[name].Type().(*cc.FunctionType)
			if ft != nil && len(nonVoidParams(ft)) <= 1 {
				cands = append(cands, b.templateFor(name))
			}
		}
		if len(cands) == 0 {
			b.fail("pthread_create through a pointer with no candidate thread function")
		}
	}
	if _, ok := fn.(*AddrOf); !ok {
		if _, ok := fn.(*VarRef); !ok {
			t := b.temp(fn.ExprType())
			b.emit(&Assign{Dst: &VarRef{Var: t}, Src: fn})
			fn = &VarRef{Var: t}
		}
	}
	if argv != nil {
		argv = b.castTo(argv, b.ptrType())
	}
	sp := &Spawn{Fn: fn, Targets: cands, Arg: argv, Handle: handle}
	l := b.emit(sp)
	b.spawns = append(b.spawns, &spawnSite{loc: l, candidates: cands})
	rt := x.Type()
	if st, ok := b.scalarType(rt); ok {
		return &Const{Type: st}
	}
	return nil
}

// atomicBuiltin lowers GCC __atomic_* / __sync_* builtins as atomic
// sections around the load / modify / store.
func (b *builder) atomicBuiltin(name string, x *cc.PostfixExpression, vals []Expr) Expr {
	if len(vals) < 1 {
		b.fail("%s needs arguments", name)
	}
	p := vals[0]
	rt := x.Type()
	var et Type
	if pt, ok := x.ArgumentExpressionList.AssignmentExpression.Type().Decay().(*cc.PointerType); ok {
		if st, ok := b.scalarType(pt.Elem()); ok {
			et = st
		}
	}
	if et.Bits == 0 {
		if st, ok := b.scalarType(rt); ok {
			et = st
		} else {
			et = Int32
		}
	}
	if name == "__atomic_test_and_set" || name == "__atomic_clear" {
		// (GCC: they act on the byte at p, whatever p's type, e.g.
		// <stdatomic.h>'s atomic_flag struct; test_and_set returns
		// whether it was set)
		et = Type{Kind: IntType, Bits: 8}
		set := int64(1)
		if name == "__atomic_clear" {
			name, set = "__atomic_store_n", 0
		} else {
			name = "__atomic_exchange_n"
		}
		vals = []Expr{p, &Const{Type: et, Value: set}}
	}
	cell := func() *Deref { return &Deref{Addr: p, Type: et} }
	// The generic forms (<stdatomic.h>'s macros use them) pass values
	// through pointers: __atomic_load(p, ret, order), __atomic_store(p,
	// val, order), __atomic_exchange(p, val, ret, order),
	// __atomic_compare_exchange(p, expected, desired, weak, s, f). The
	// value is read from the caller's object before the atomic step and
	// a result stored into it after: those objects are the caller's, not
	// the atomic one (C11 7.17.7: only *p is accessed atomically).
	var retPtr Expr
	switch name {
	case "__atomic_load", "__atomic_store", "__atomic_exchange", "__atomic_compare_exchange":
		if pt, ok := x.ArgumentExpressionList.AssignmentExpression.Type().Decay().(*cc.PointerType); !ok {
			b.fail("%s: the first argument is not a pointer", name)
		} else if _, ok := b.scalarType(pt.Elem()); !ok {
			b.fail("unsupported: %s on a non-scalar object", name)
		}
		need := map[string]int{"__atomic_load": 2, "__atomic_store": 2, "__atomic_exchange": 3, "__atomic_compare_exchange": 3}[name]
		if len(vals) < need || slices.Contains(vals[:need], nil) {
			b.fail("%s: missing argument", name)
		}
		if name == "__atomic_load" {
			t := b.temp(et)
			b.emit(&Assign{Dst: &VarRef{Var: t}, Src: cell()})
			b.emit(&Assign{Dst: &Deref{Addr: vals[1], Type: et}, Src: &VarRef{Var: t}})
			return nil
		}
		i := 1
		if name == "__atomic_compare_exchange" {
			i = 2
		}
		v := b.temp(et)
		b.emit(&Assign{Dst: &VarRef{Var: v}, Src: &Deref{Addr: vals[i], Type: et}})
		vals = slices.Clone(vals)
		vals[i] = &VarRef{Var: v}
		if name == "__atomic_exchange" {
			retPtr = vals[2]
		}
		name += "_n"
	}
	val := func(i int) Expr {
		if i >= len(vals) {
			b.fail("%s: missing argument", name)
		}
		return b.castTo(vals[i], et)
	}
	// res converts a result to the call's type. cc types these generic
	// builtins as implicitly declared (int), but GCC gives a value result
	// (the old or new *p) the type of *p: __sync_add_and_fetch on a long
	// returned its sum truncated to 32 bits (a wrong proof). Value results
	// keep et; build.go's typedAtomicBuiltins casts the call to *p's type
	// for cc, so the context converts them as GCC does.
	res := func(v Expr) Expr {
		if v != nil && v.ExprType() == et && et.Bits != 0 {
			return v
		}
		if st, ok := b.scalarType(rt); ok && v != nil {
			return b.castTo(v, st)
		}
		return nil
	}
	switch name {
	case "__atomic_load_n":
		t := b.temp(et)
		b.emit(&Assign{Dst: &VarRef{Var: t}, Src: cell()})
		return res(&VarRef{Var: t})
	case "__atomic_store_n", "__sync_lock_release":
		v := Expr(&Const{Type: et})
		if name == "__atomic_store_n" {
			v = val(1)
		}
		b.emit(&Assign{Dst: cell(), Src: v})
		return nil
	}
	b.emit(&AtomicBegin{})
	old := b.temp(et)
	b.emit(&Assign{Dst: &VarRef{Var: old}, Src: cell()})
	var out Expr
	switch name {
	case "__atomic_exchange_n", "__sync_lock_test_and_set":
		b.emit(&Assign{Dst: cell(), Src: val(1)})
		out = &VarRef{Var: old}
	case "__sync_bool_compare_and_swap", "__sync_val_compare_and_swap":
		r := b.temp(Bool)
		t, f := b.branch(&Binary{Op: Eq, X: &VarRef{Var: old}, Y: val(1), Type: Bool})
		b.cur = t
		b.emit(&Assign{Dst: cell(), Src: val(2)})
		b.emit(&Assign{Dst: &VarRef{Var: r}, Src: &Const{Type: Bool, Value: 1}})
		tt := b.cur
		b.cur = f
		b.emit(&Assign{Dst: &VarRef{Var: r}, Src: &Const{Type: Bool}})
		b.cur = union(tt, b.cur)
		if name == "__sync_bool_compare_and_swap" {
			out = &VarRef{Var: r}
		} else {
			out = &VarRef{Var: old}
		}
	case "__atomic_compare_exchange_n":
		// (p, expected*, desired, weak, success, failure)
		ep := vals[1]
		e := b.temp(et)
		b.emit(&Assign{Dst: &VarRef{Var: e}, Src: &Deref{Addr: ep, Type: et}})
		r := b.temp(Bool)
		t, f := b.branch(&Binary{Op: Eq, X: &VarRef{Var: old}, Y: &VarRef{Var: e}, Type: Bool})
		b.cur = t
		b.emit(&Assign{Dst: cell(), Src: val(2)})
		b.emit(&Assign{Dst: &VarRef{Var: r}, Src: &Const{Type: Bool, Value: 1}})
		tt := b.cur
		b.cur = f
		b.emit(&Assign{Dst: &Deref{Addr: ep, Type: et}, Src: &VarRef{Var: old}})
		b.emit(&Assign{Dst: &VarRef{Var: r}, Src: &Const{Type: Bool}})
		b.cur = union(tt, b.cur)
		out = &VarRef{Var: r}
	default:
		op, nand, fetchFirst, ok := atomicRMW(name)
		if !ok {
			b.fail("unsupported builtin %s", name)
		}
		// GCC (and C11 7.17.7.5 for atomic_fetch_*) defines these to wrap
		// (two's complement): no overflow check, and a signed operation is
		// done in the unsigned type of its width and converted back (a
		// signed Binary is one whose overflow stops the execution: the
		// analysis clamps it, so _Atomic signed char c = 127;
		// atomic_fetch_add(&c, 1) made the rest unreachable).
		opType := et
		if et.Kind == IntType && et.Signed {
			opType.Signed = false
		}
		var nv Expr = &Binary{Op: op, X: b.castTo(&VarRef{Var: old}, opType), Y: b.castTo(val(1), opType), Type: opType}
		if nand {
			nv = &Unary{Op: BitNot, X: nv, Type: opType}
		}
		nv = b.castTo(nv, et)
		nt := b.temp(et)
		b.emit(&Assign{Dst: &VarRef{Var: nt}, Src: nv})
		b.emit(&Assign{Dst: cell(), Src: &VarRef{Var: nt}})
		if fetchFirst {
			out = &VarRef{Var: old}
		} else {
			out = &VarRef{Var: nt}
		}
	}
	b.emit(&AtomicEnd{})
	if retPtr != nil {
		b.emit(&Assign{Dst: &Deref{Addr: retPtr, Type: et}, Src: out})
		return nil
	}
	return res(out)
}

// atomicRMWOps maps the OP of an atomic read-modify-write builtin to its
// binary operation (nand: And, then complemented).
var atomicRMWOps = map[string]BinOp{"add": Add, "sub": Sub, "and": And, "or": Or, "xor": Xor, "nand": And}

// atomicRMW parses the name of an atomic read-modify-write builtin:
// __atomic_fetch_OP and __sync_fetch_and_OP return the old value,
// __atomic_OP_fetch and __sync_OP_and_fetch the new one; OP is add, sub,
// and, or, xor or nand (new = ~(old & v), GCC's meaning since 4.4). The
// operation is read from its own place in the name: a search for "and"
// anywhere took __sync_fetch_and_or and __sync_xor_and_fetch for "and"
// and proved asserts that fail (fixture atomic_rmw_ops.c).
func atomicRMW(name string) (op BinOp, nand, fetchFirst, ok bool) {
	var opName string
	switch {
	case strings.HasPrefix(name, "__atomic_fetch_"):
		opName, fetchFirst = strings.TrimPrefix(name, "__atomic_fetch_"), true
	case strings.HasPrefix(name, "__sync_fetch_and_"):
		opName, fetchFirst = strings.TrimPrefix(name, "__sync_fetch_and_"), true
	case strings.HasPrefix(name, "__atomic_") && strings.HasSuffix(name, "_fetch"):
		opName = strings.TrimSuffix(strings.TrimPrefix(name, "__atomic_"), "_fetch")
	case strings.HasPrefix(name, "__sync_") && strings.HasSuffix(name, "_and_fetch"):
		opName = strings.TrimSuffix(strings.TrimPrefix(name, "__sync_"), "_and_fetch")
	default:
		return 0, false, false, false
	}
	if op, ok := atomicRMWOps[opName]; ok {
		return op, opName == "nand", fetchFirst, true
	}
	return 0, false, false, false
}

// formatWrites reports whether a printf format has a %n conversion, which
// stores the count of characters written so far through its pointer
// argument: such a call is not output only (output leaves it to the
// unknown-external model, which writes what its arguments reach).
func formatWrites(format string) bool {
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		j := i + 1
		for j < len(format) && strings.IndexByte("-+ #0123456789.*'$hlLqjzt", format[j]) >= 0 {
			j++
		}
		if j < len(format) && format[j] == 'n' {
			return true
		}
		i = j // past the conversion ("%%" included)
	}
	return false
}

// output lowers printf/puts/putchar with a constant format to Output.
func (b *builder) output(name string, x *cc.PostfixExpression, args []cc.ExpressionNode) (Expr, bool) {
	if len(args) == 0 {
		return nil, false
	}
	var format string
	var rest []cc.ExpressionNode
	switch name {
	case "printf":
		sv, ok := args[0].Value().(cc.StringValue)
		if !ok {
			return nil, false
		}
		format, rest = trimNul(string(sv)), args[1:]
		if formatWrites(format) {
			return nil, false // %n writes through its argument: not output only
		}
	case "puts":
		format, rest = "%s\n", args
	case "putchar":
		format, rest = "%c", args
	}
	var vals []Expr
	for _, a := range rest {
		v := b.rvalue(a)
		if v == nil {
			continue
		}
		if cc.IsIntegerType(a.Type()) {
			v = b.conv(v, a.Type(), cc.IntegerPromotion(a.Type()))
		}
		if _, ok := v.(*Const); !ok {
			if _, ok := v.(*AddrOf); !ok {
				if r, ok := v.(*VarRef); !ok || r.Var.Scope == Global {
					t := b.temp(v.ExprType())
					b.emit(&Assign{Dst: &VarRef{Var: t}, Src: v})
					v = &VarRef{Var: t}
				}
			}
		}
		vals = append(vals, v)
	}
	b.setPos(x)
	b.emit(&Output{Format: format, Args: vals})
	if st, ok := b.scalarType(x.Type()); ok {
		// The number of characters written: not tracked.
		r := b.temp(st)
		b.emit(&Havoc{Dst: &VarRef{Var: r}})
		return &VarRef{Var: r}, true
	}
	return nil, true
}

// stringOf returns the contents of a string object.
func (b *builder) stringOf(o *Object) string {
	for s, so := range b.strObjs {
		if so == o {
			return s
		}
	}
	return ""
}

// memOp lowers memset(p, 0, n), memcpy(d, s, n) and memmove(d, s, n) as
// scalar stores when n is a constant multiple of the size of the type
// the (first) pointer argument points to (or of the array it denotes):
// exact, and the copies keep points-to information. Other forms are
// unknown calls (ok false).
func (b *builder) memOp(name string, x *cc.PostfixExpression, args []cc.ExpressionNode) (Expr, bool) {
	if len(args) != 3 {
		return nil, false
	}
	n, ok := intValue(args[2].Value())
	if !ok || n <= 0 || !args[2].Pure() {
		return nil, false
	}
	t, count := elemFor(args[0].Type(), n)
	if t == nil {
		return nil, false
	}
	isSet := strings.HasSuffix(name, "memset")
	if isSet {
		if c, ok := intValue(args[1].Value()); !ok || c != 0 {
			return nil, false
		}
	} else if t2, c2 := elemFor(args[1].Type(), n); t2 == nil || c2 != count || t2.Size() != t.Size() {
		return nil, false
	}
	dst := b.castTo(b.rvalue(args[0]), b.ptrType())
	dst = b.snapshot(dst)
	var src Expr
	if isSet {
		b.discard(args[1])
	} else {
		src = b.snapshot(b.castTo(b.rvalue(args[1]), b.ptrType()))
	}
	b.setPos(x)
	b.repeat(count, t.Size(), func(off Expr) {
		d := b.ptrAddE(dst, off)
		if isSet {
			b.zeroFill(d, t)
		} else {
			b.copyAgg(d, b.ptrAddE(src, off), t)
		}
	})
	return dst, true
}

// elemFor finds the element type T and count with count*sizeof(T) == n
// for a pointer argument of C type pt (an array argument counts whole).
func elemFor(pt cc.Type, n int64) (cc.Type, int64) {
	if u := pt.Undecay(); u.Kind() == cc.Array && u.Size() == n {
		return u, 1
	}
	p, ok := pt.(*cc.PointerType)
	if !ok {
		return nil, 0
	}
	e := p.Elem()
	if e == nil || e.Kind() == cc.Void || e.Kind() == cc.Function || e.Size() <= 0 || n%e.Size() != 0 {
		return nil, 0
	}
	return e, n / e.Size()
}

// snapshot keeps a pure value in a temporary unless it is a constant, an
// address or a Local register.
func (b *builder) snapshot(v Expr) Expr {
	switch x := v.(type) {
	case *Const, *AddrOf:
		return v
	case *VarRef:
		if x.Var.Scope == Local {
			return v
		}
	}
	t := b.temp(v.ExprType())
	b.emit(&Assign{Dst: &VarRef{Var: t}, Src: v})
	return &VarRef{Var: t}
}

func (b *builder) ptrAddE(p, off Expr) Expr { return b.ptrAdd(p, off) }

// repeat calls body with the byte offsets 0, size, ..., (count-1)*size:
// unrolled up to unrollLimit, else as a loop.
func (b *builder) repeat(count, size int64, body func(off Expr)) {
	ip := b.intptr()
	if count <= unrollLimit {
		for i := int64(0); i < count; i++ {
			body(&Const{Type: ip, Value: i * size})
		}
		return
	}
	i := b.temp(ip)
	b.emit(&Assign{Dst: &VarRef{Var: i}, Src: &Const{Type: ip}})
	head := b.join()
	t1, f1 := b.branch(&Binary{Op: Lt, X: &VarRef{Var: i}, Y: &Const{Type: ip, Value: count}, Type: Bool})
	b.cur = t1
	body(&Binary{Op: Mul, X: &VarRef{Var: i}, Y: &Const{Type: ip, Value: size}, Type: ip})
	b.emit(&Assign{Dst: &VarRef{Var: i}, Src: &Binary{Op: Add, X: &VarRef{Var: i}, Y: &Const{Type: ip, Value: 1}, Type: ip}})
	b.jumpTo(head)
	b.cur = f1
}
