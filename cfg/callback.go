package cfg

// Callbacks into unknown code.
//
// An external function without a body (not a modelled library function)
// may call any function pointer it receives or can reach, any number of
// times, in the calling thread or in threads it creates (a thread pool's
// submit, qsort's comparator, pthread_once's initializer, a signal
// handler). The model: at each unknown call site, every defined function
// whose address the external can reach - through the memory reachable
// from its arguments or from address-taken globals, per the points-to
// analysis - becomes an Unbounded thread template spawned at that site,
// with parameters that may hold any value the external can pass (any
// value; pointers: anything reachable from what any unknown call
// received, or unknown memory).
//
// Why a spawn also covers the synchronous calls: a callback called
// before the external returns runs between the call and the return; the
// spawned thread may run at exactly that point of the interleaving, so
// every write it can make to shared memory (Global registers and cells)
// is seen by the caller's code after the call through interference
// edges, as often as it may happen (the template is Unbounded). The only
// other state a synchronous callback could change is the caller's own
// memory reachable through pointers the external holds: that memory is
// reachable from an unknown call's arguments, so it is in the reach set
// the callback's parameters point to, which is the argument of the
// spawn; the escape analysis then makes those objects Global (Summary
// when the caller's template has many instances) and the callback's
// writes to them are interference too. Registers of the caller are not
// addressable and cannot change. The callback's return value goes to
// the external, whose result is any value anyway.
//
// Which functions can reach an external is only known after the
// points-to analysis, but templates are made while lowering: Build
// lowers the program, finds the functions that reach unknown calls,
// and lowers it again with those as callback templates, until the set
// is stable (each round only adds functions; it is bounded by the
// address-taken functions).
//
// Not modelled (documented in the package comment): an external calling
// back from a recursive function's summary continuation (the generic
// instance holds the spawn); an external acting on the program's locks.

import (
	"sort"
	"strings"
)

// callbackSpawns emits, at an unknown call, one spawn per function of
// b.callbacks (narrowed after the points-to analysis, finishCallbacks).
func (b *builder) callbackSpawns(uc *unknownCall) {
	if len(b.callbacks) == 0 {
		return
	}
	names := make([]string, 0, len(b.callbacks))
	for n := range b.callbacks {
		if n != "main" && b.funcs[n] != nil {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	if len(names) == 0 {
		return
	}
	// The argument of every callback: any value, for pointers anything
	// the unknown code may pass (pointsTo: cbParams).
	arg := b.temp(b.ptrType())
	b.emit(&Havoc{Dst: &VarRef{Var: arg}})
	b.cbParams = append(b.cbParams, arg)
	// One spawn location whose targets are every callback (narrowed per
	// site after the points-to analysis): which one it starts is chosen
	// by Fn, any function address the unknown code holds.
	fn := b.temp(b.ptrType())
	b.emit(&Havoc{Dst: &VarRef{Var: fn}})
	var ts []*Template
	for _, n := range names {
		ts = append(ts, b.templateFor(n))
	}
	l := b.emit(&Spawn{Fn: &VarRef{Var: fn}, Targets: ts, Arg: &VarRef{Var: arg}})
	uc.spawns = append(uc.spawns, l)
	b.spawns = append(b.spawns, &spawnSite{loc: l, candidates: ts, callback: true})
}

// externalRoots is the set of address-taken global objects: an unknown
// external function may have been handed their address before (or name
// them), so it may read and write everything reachable from them.
func (b *builder) externalRoots() []Expr {
	var names []string
	for n, s := range b.globals {
		if s.obj != nil && b.globalAddrTaken(n) {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	var out []Expr
	for _, n := range names {
		o := b.globals[n].obj
		if info := b.objInfo[o]; info != nil && isLockType(info.ctype) {
			// Unknown code is assumed not to act on the program's locks
			// (a lock handed over explicitly is reachable from the
			// arguments and havocked like any memory).
			continue
		}
		out = append(out, b.objAddr(o))
	}
	return out
}

// reachFuncs lists the defined functions whose address is reachable from
// the values of args through memory, or from base's roots.
func (a *pta) reachFuncs(args []Expr, base *reachFrom) []string {
	objs := a.reachObjs(args, base.mark)
	objs = append(objs, base.objs...)
	var out []string
	for _, o := range objs {
		if ob := a.b.prog.Objects[o]; ob.Kind == FuncObject && a.b.funcs[ob.Func] != nil && ob.Func != "main" {
			out = append(out, ob.Func)
		}
	}
	sort.Strings(out)
	return out
}

// finishCallbacks runs after the points-to analysis. It computes the
// functions each unknown call can reach; when some is not yet a callback
// template it sets b.rebuild (Build lowers again with them) and returns
// false. Otherwise it narrows each call's spawns to the functions it can
// reach (the others become Skip) and records one note per external.
func (b *builder) finishCallbacks(a *pta) bool {
	a.cur = -1
	b.cutFallbacks(a)
	base := a.reachRoots(b.externalRoots())
	type site struct {
		uc    *unknownCall
		funcs map[string]bool
	}
	var sites []site
	need := map[string]bool{}
	for _, uc := range b.unknownCalls {
		if uc.kind != unknownExternal && uc.kind != libcCalls {
			continue // a C library model: calls nothing
		}
		if uc.dead {
			sites = append(sites, site{uc, nil}) // its spawns become Skip
			continue
		}
		rb := base
		if uc.kind == libcCalls {
			// calls only what its arguments reach (libc.go)
			rb = &reachFrom{}
		}
		fs := map[string]bool{}
		for _, f := range a.reachFuncs(uc.args, rb) {
			fs[f] = true
			need[f] = true
		}
		sites = append(sites, site{uc, fs})
	}
	if uc := b.clientSite; uc != nil {
		// A library's client is unknown code holding everything unknown
		// code can reach: it may call any function pointer in there.
		fs := map[string]bool{}
		if a.reachVar != nil {
			for l := range a.all(a.read(a.reachVar)) {
				if o := b.prog.Objects[l.objID()]; o.Kind == FuncObject && b.funcs[o.Func] != nil && o.Func != "main" {
					fs[o.Func] = true
					need[o.Func] = true
				}
			}
		}
		for _, f := range a.reachFuncs(nil, base) {
			fs[f] = true
			need[f] = true
		}
		sites = append(sites, site{uc, fs})
	}
	b.needCallbacks = need
	for f := range need {
		if !b.callbacks[f] {
			b.rebuild = true
			return false
		}
	}
	calls := map[string]map[string]bool{} // external -> callbacks it may call
	first := map[string]*unknownCall{}
	var order []string
	dropped := map[*Loc]bool{}
	for _, s := range sites {
		if s.uc.dead {
			for _, l := range s.uc.spawns {
				l.Act = &Skip{}
				dropped[l] = true
			}
			continue
		}
		if first[s.uc.name] == nil {
			first[s.uc.name] = s.uc
			order = append(order, s.uc.name)
			calls[s.uc.name] = map[string]bool{}
		}
		for _, l := range s.uc.spawns {
			sp := l.Act.(*Spawn)
			var ts []*Template
			for _, t := range sp.Targets {
				if s.funcs[t.Name] {
					calls[s.uc.name][t.Name] = true
					ts = append(ts, t)
				}
			}
			sp.Targets = ts
			if len(ts) == 0 {
				l.Act = &Skip{}
				dropped[l] = true
			}
		}
	}
	b.dropDominatedCallbackSpawns(dropped)
	for _, s := range b.spawns {
		if sp, ok := s.loc.Act.(*Spawn); ok && s.callback && len(sp.Targets) == 0 {
			s.loc.Act = &Skip{}
			dropped[s.loc] = true
		}
	}
	if len(dropped) > 0 {
		kept := b.spawns[:0]
		for _, s := range b.spawns {
			if !dropped[s.loc] {
				kept = append(kept, s)
			}
		}
		b.spawns = kept
	}
	for _, name := range order {
		uc := first[name]
		var fs []string
		for f := range calls[name] {
			fs = append(fs, f)
		}
		sort.Strings(fs)
		if name == "<client>" {
			if len(fs) > 0 {
				b.note("client callbacks", uc.pos, "the library hands out pointers to %s: the client may call them from any number of threads", strings.Join(fs, ", "))
			}
			continue
		}
		if uc.kind == libcCalls {
			if len(fs) > 0 {
				b.note("external "+name, uc.pos, "%s: C library model: may call %s from any number of threads", name, strings.Join(fs, ", "))
			}
			continue
		}
		what := name + ": unknown external function: returns any value, may write what its arguments and address-taken globals reach"
		if name == "<asm>" { // asm.go
			what = "inline assembly with a \"memory\" clobber: may write what its inputs and the address-taken globals reach"
		}
		if len(fs) == 0 {
			b.note("external "+name, uc.pos, "%s", what)
			continue
		}
		b.note("external "+name, uc.pos, "%s, may call %s from any number of threads", what, strings.Join(fs, ", "))
	}
	return true
}

// cutFallbacks cuts the unknown-callee path of each indirect call whose
// pointer the points-to analysis shows to hold only its candidates (or
// nothing): calling anything else is undefined behaviour.
func (b *builder) cutFallbacks(a *pta) {
	for _, fb := range b.fallbacks {
		fb.uc.pending = false
		if !b.fallbackTaken(a, fb) {
			// Unlink the path (an assume(false) would leave the data
			// flow graph's edges around it: they bypass assumes).
			m := fb.marker
			for _, p := range m.Preds {
				succs := p.Succs[:0]
				for _, s := range p.Succs {
					if s != m {
						succs = append(succs, s)
					}
				}
				p.Succs = succs
			}
			m.Preds = nil
			fb.uc.dead = true
		}
	}
}

// fallbackTaken reports whether the pointer of an indirect call may hold
// a function other than its candidates: another function, or unknown
// code's (the <unknown> object). Then the unknown-callee path may be
// taken. A data object in the pointer's points-to set is no callee:
// calling a pointer to an object is undefined (C11 6.3.2.3 converts
// object pointers to function pointers nowhere, 6.5.2.2p1); such members
// come from cells the analysis merges (pigz: yarn's capsule is allocated
// through a void * allocator, a blob whose one cell holds both the probe
// and the file name string).
func (b *builder) fallbackTaken(a *pta, fb *indirectFallback) bool {
	known := map[string]bool{}
	for _, c := range fb.cands {
		known[c] = true
	}
	for l := range a.all(a.eval(fb.fp)) {
		o := b.prog.Objects[l.objID()]
		if o.Kind == FuncObject && !known[o.Func] || o == b.unknownObj {
			return true
		}
	}
	return false
}

// dropDominatedCallbackSpawns keeps, per template and callback, only the
// callback spawns that some path from the template's entry reaches
// without passing another spawn of the same callback; the others become
// Skip (added to dropped). This is sound: on every path to a dropped
// spawn, an Unbounded template of the same callback, with the same
// argument (anything unknown code can reach), was started before, and
// its threads may be anywhere in the callback while this thread runs any
// of its later code (interference carries this thread's later writes to
// them).
func (b *builder) dropDominatedCallbackSpawns(dropped map[*Loc]bool) {
	byTarget := map[*Template]map[*Template][]*Loc{} // owner -> target -> sites
	for _, s := range b.spawns {
		if !s.callback || s.entry || dropped[s.loc] {
			continue
		}
		sp, ok := s.loc.Act.(*Spawn)
		if !ok {
			continue
		}
		owner := s.loc.Template
		if byTarget[owner] == nil {
			byTarget[owner] = map[*Template][]*Loc{}
		}
		for _, t := range sp.Targets {
			byTarget[owner][t] = append(byTarget[owner][t], s.loc)
		}
	}
	for owner, targets := range byTarget {
		for target, sites := range targets {
			if len(sites) < 2 {
				continue
			}
			site := map[*Loc]bool{}
			for _, l := range sites {
				site[l] = true
			}
			first := map[*Loc]bool{}
			seen := map[*Loc]bool{owner.Entry: true}
			stack := []*Loc{owner.Entry}
			for len(stack) > 0 {
				l := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if site[l] {
					first[l] = true
					continue
				}
				for _, n := range l.Succs {
					if !seen[n] {
						seen[n] = true
						stack = append(stack, n)
					}
				}
			}
			for _, l := range sites {
				if first[l] {
					continue
				}
				sp := l.Act.(*Spawn)
				ts := sp.Targets[:0]
				for _, t := range sp.Targets {
					if t != target {
						ts = append(ts, t)
					}
				}
				sp.Targets = ts
			}
		}
	}
}
