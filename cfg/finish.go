package cfg

import (
	"math/bits"
	"sort"
)

// finish runs the whole-program passes after lowering: points-to, cells of
// every memory access, the effects of unknown and summarized calls, spawn
// targets, template multiplicity, escape of locals, and atomic flags.
func (b *builder) finish() {
	if !b.noThreadLocals {
		b.localizeThreadLocals()
	}
	pruneConstBranches(b.prog, b.constBranches) // constbranch.go
	a := b.pointsToLiveFallbacks()              // pointsto.go
	if !b.finishCallbacks(a) {
		return // Build lowers again with more callback templates
	}
	b.fillCells(a)
	b.resolveSpawns(a)
	b.markUnbounded()
	b.expandUnknownCalls(a)
	b.expandSummaries()
	b.expandSetjmps() // libc.go
	b.escape(a)
	b.pointerBoundsChecks()
	b.atomicFlags()
	if !b.noAtomicLocks {
		b.atomicLocks()
	}
	b.bodyMods()
	b.sortAssumptions()
	b.cellInits() // initcells.go
}

// forDerefs calls fn for every Deref in the action of l.
func forDerefs(act Action, fn func(*Deref)) {
	var expr func(e Expr)
	expr = func(e Expr) {
		switch x := e.(type) {
		case *Deref:
			fn(x)
			expr(x.Addr)
		case *Unary:
			expr(x.X)
		case *Binary:
			expr(x.X)
			expr(x.Y)
		case *Cast:
			expr(x.X)
		}
	}
	switch x := act.(type) {
	case *Assign:
		expr(x.Dst)
		expr(x.Src)
	case *Assume:
		expr(x.Cond)
	case *Havoc:
		expr(x.Dst)
	case *CheckAct:
		expr(x.Cond)
	case *Acquire:
		expr(x.Lock)
	case *Release:
		expr(x.Lock)
	case *Spawn:
		expr(x.Fn)
		if x.Arg != nil {
			expr(x.Arg)
		}
		if x.Handle != nil {
			expr(x.Handle)
		}
	case *Join:
		expr(x.Handle)
	case *Alloc:
		expr(x.Dst)
		expr(x.Size)
	case *Output:
		for _, e := range x.Args {
			expr(e)
		}
	}
}

func (b *builder) fillCells(a *pta) {
	a.cur = -1
	for _, l := range b.prog.Locs {
		forDerefs(l.Act, func(d *Deref) {
			if d.Cells == nil {
				d.Cells = a.cellsOfSet(a.eval(d.Addr), &d.Type)
			}
		})
	}
}

// resolveSpawns narrows each spawn's targets with the points-to set of its
// function argument and marks spawned templates.
func (b *builder) resolveSpawns(a *pta) {
	a.cur = -1
	for _, s := range b.spawns {
		sp := s.loc.Act.(*Spawn)
		if _, ok := sp.Fn.(*AddrOf); ok {
			continue
		}
		fns := map[string]bool{}
		anyTarget := false
		for l := range a.all(a.eval(sp.Fn)) {
			o := b.prog.Objects[l.objID()]
			if o.Kind == FuncObject {
				fns[o.Func] = true
			} else {
				anyTarget = true
			}
		}
		if anyTarget || len(fns) == 0 {
			continue // unknown: keep every candidate
		}
		var ts []*Template
		for _, t := range sp.Targets {
			if fns[t.Name] {
				ts = append(ts, t)
			}
		}
		sp.Targets = ts
		s.candidates = ts
	}
}

// reachable returns the locations reachable from t's entry.
func reachable(t *Template) map[*Loc]bool {
	seen := map[*Loc]bool{t.Entry: true}
	stack := []*Loc{t.Entry}
	for len(stack) > 0 {
		l := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, s := range l.Succs {
			if !seen[s] {
				seen[s] = true
				stack = append(stack, s)
			}
		}
	}
	return seen
}

// CyclicComponents numbers the strongly connected components of t's
// location graph that contain a cycle (a self-loop counts); a location on
// no cycle is absent. Successors in other templates are not followed.
func CyclicComponents(t *Template) map[*Loc]int {
	index := map[*Loc]int{}
	low := map[*Loc]int{}
	onStack := map[*Loc]bool{}
	var stack []*Loc
	out := map[*Loc]int{}
	n, nc := 0, 0
	type frame struct {
		l *Loc
		i int
	}
	for _, root := range t.Locs {
		if _, ok := index[root]; ok {
			continue
		}
		work := []frame{{root, 0}}
		index[root], low[root] = n, n
		n++
		stack = append(stack, root)
		onStack[root] = true
		for len(work) > 0 {
			f := &work[len(work)-1]
			if f.i < len(f.l.Succs) {
				s := f.l.Succs[f.i]
				f.i++
				if s.Template != t {
					continue
				}
				if _, ok := index[s]; !ok {
					index[s], low[s] = n, n
					n++
					stack = append(stack, s)
					onStack[s] = true
					work = append(work, frame{s, 0})
				} else if onStack[s] && index[s] < low[f.l] {
					low[f.l] = index[s]
				}
				continue
			}
			l := f.l
			work = work[:len(work)-1]
			if len(work) > 0 && low[l] < low[work[len(work)-1].l] {
				low[work[len(work)-1].l] = low[l]
			}
			if low[l] != index[l] {
				continue
			}
			var members []*Loc
			for {
				x := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[x] = false
				members = append(members, x)
				if x == l {
					break
				}
			}
			cyclic := len(members) > 1
			for _, s := range l.Succs {
				cyclic = cyclic || s == l
			}
			if cyclic {
				for _, x := range members {
					out[x] = nc
				}
				nc++
			}
		}
	}
	return out
}

// markUnbounded decides which templates are spawned and which may have
// unboundedly many instances. A template is bounded (one instance) only
// when exactly one reachable spawn site can create it, that site is in
// main, and it is on no CFG cycle of main (inlining makes every call of a
// function containing the site a separate site, so "called once" is
// implied). Everything else is Unbounded: sound, if coarse.
func (b *builder) markUnbounded() {
	// Spawned templates, transitively from main.
	reach := map[*Template]map[*Loc]bool{}
	active := map[*Template]bool{b.prog.Templates[0]: true}
	for changed := true; changed; {
		changed = false
		for _, s := range b.spawns {
			t := s.loc.Template
			if !active[t] {
				continue
			}
			if reach[t] == nil {
				reach[t] = reachable(t)
			}
			if !reach[t][s.loc] {
				continue
			}
			for _, c := range s.loc.Act.(*Spawn).Targets {
				if !active[c] {
					active[c] = true
					changed = true
				}
			}
		}
	}
	sites := map[*Template][]*spawnSite{}
	for _, s := range b.spawns {
		t := s.loc.Template
		if !active[t] || !reach[t][s.loc] {
			continue
		}
		for _, c := range s.loc.Act.(*Spawn).Targets {
			sites[c] = append(sites[c], s)
		}
	}
	mainCycles := CyclicComponents(b.prog.Templates[0])
	// Unbounded spawners make their children unbounded: iterate.
	for _, t := range b.prog.Templates[1:] {
		t.Spawned = active[t]
		ss := sites[t]
		t.Unbounded = !(len(ss) == 1 && ss[0].loc.Template.ID == 0 && !onMainCycle(mainCycles, ss[0].loc) && !ss[0].callback)
	}
	for changed := true; changed; {
		changed = false
		for _, t := range b.prog.Templates[1:] {
			if t.Unbounded {
				continue
			}
			for _, s := range sites[t] {
				if s.loc.Template.Unbounded {
					t.Unbounded = true
					changed = true
				}
			}
		}
	}
}

// insertAfter replaces placeholder l's action with acts[0] and chains the
// other actions after it, before l's old successors.
func (b *builder) expandPlaceholder(l *Loc, acts []Action) {
	if len(acts) == 0 {
		return
	}
	succs := l.Succs
	l.Act = acts[0]
	last := l
	l.Succs = nil
	for _, act := range acts[1:] {
		n := &Loc{ID: len(b.prog.Locs), Template: l.Template, Act: act, Pos: l.Pos}
		b.prog.Locs = append(b.prog.Locs, n)
		l.Template.Locs = append(l.Template.Locs, n)
		last.Succs = []*Loc{n}
		n.Preds = []*Loc{last}
		last = n
	}
	last.Succs = succs
	for _, s := range succs {
		for i, p := range s.Preds {
			if p == l {
				s.Preds[i] = last
			}
		}
	}
}

// havocCells havocs a set of cells in one location: a Havoc through a
// Deref of the <unknown> object listing all of them (a weak update of
// each with an arbitrary value, i.e. each becomes unknown). See
// HavocsCells in ir.go.
func (b *builder) havocCells(cs []*Var) Action {
	if len(cs) == 1 {
		c := cs[0]
		return &Havoc{Dst: &Deref{Addr: &AddrOf{Object: c.Mem, Offset: c.Offset, Type: b.ptrType()}, Type: c.Type, Cells: cs}}
	}
	return &Havoc{Dst: &Deref{Addr: &AddrOf{Object: b.unknown(), Type: b.ptrType()}, Type: Type{Kind: IntType, Bits: 8}, Cells: cs}}
}

// expandUnknownCalls replaces each unknown call's placeholder by havocs of
// every cell reachable from its arguments.
func (b *builder) expandUnknownCalls(a *pta) {
	a.cur = -1
	base := a.reachRoots(b.externalRoots())
	for _, uc := range b.unknownCalls {
		if uc.dead || uc.kind == libcReadOnly {
			continue
		}
		rb := base
		if uc.kind == libcWrites || uc.kind == libcCalls {
			rb = nil // a C library function touches only what its arguments reach
		}
		uc.cells = a.reachCells(uc.args, rb)
		if len(uc.cells) > 0 {
			b.expandPlaceholder(uc.loc, []Action{b.havocCells(uc.cells)})
		}
	}
}

// expandSummaries replaces each summarized call's placeholder by havocs of
// the generic instance's mod set: every cell and Global register written
// in it, including by its own summarized calls, unknown calls and calls of
// shared bodies (whose own mod sets may include generic instances' in
// turn: one fixpoint over both kinds of region).
func (b *builder) expandSummaries() {
	if len(b.summaries) == 0 {
		return
	}
	type region struct {
		locs []*Loc
		m    map[*Var]bool
		gis  []*genericInstance
		bods []*Body
	}
	ofGI := map[*genericInstance]*region{}
	ofBody := map[*Body]*region{}
	scAt := map[*Loc]*summaryCall{}
	for _, sc := range b.summaries {
		scAt[sc.loc] = sc
	}
	calls := callReturns(b.prog)
	fill := func(r *region) {
		r.m = map[*Var]bool{}
		for _, l := range r.locs {
			for _, v := range writes(l.Act) {
				if v.Scope == Global || v.IsCell() {
					r.m[v] = true
				}
			}
			if sc := scAt[l]; sc != nil {
				r.gis = append(r.gis, sc.gi)
			}
			if c, ok := calls[l]; ok {
				r.bods = append(r.bods, c.body)
			}
		}
	}
	for _, gi := range b.generic {
		r := &region{locs: b.prog.Locs[gi.first:gi.last]}
		fill(r)
		ofGI[gi] = r
	}
	for _, bd := range b.prog.Bodies {
		r := &region{locs: bodyWalk(bd, calls)}
		fill(r)
		ofBody[bd] = r
	}
	all := make([]*region, 0, len(ofGI)+len(ofBody))
	for _, gi := range sortedGenerics(b.generic) {
		all = append(all, ofGI[gi])
	}
	for _, bd := range b.prog.Bodies {
		all = append(all, ofBody[bd])
	}
	for changed := true; changed; {
		changed = false
		for _, r := range all {
			merge := func(o *region) {
				for v := range o.m {
					if !r.m[v] {
						r.m[v] = true
						changed = true
					}
				}
			}
			for _, gi := range r.gis {
				merge(ofGI[gi])
			}
			for _, bd := range r.bods {
				merge(ofBody[bd])
			}
		}
	}
	mods := map[*genericInstance]map[*Var]bool{}
	for gi, r := range ofGI {
		mods[gi] = r.m
	}
	// Global registers in a mod set become memory cells, so that each
	// summary is one multi-cell havoc instead of one location per global.
	regs := map[*Var]bool{}
	for _, m := range mods {
		for v := range m {
			if !v.IsCell() {
				regs[v] = true
			}
		}
	}
	b.registersToCells(regs)
	for _, sc := range b.summaries {
		var cells []*Var
		for v := range mods[sc.gi] {
			cells = append(cells, v)
		}
		sortVars(cells)
		if len(cells) > 0 {
			b.expandPlaceholder(sc.loc, []Action{b.havocCells(cells)})
		}
	}
}

func sortedGenerics(m map[genericKey]*genericInstance) []*genericInstance {
	var out []*genericInstance
	for _, gi := range m {
		out = append(out, gi)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].entry.ID < out[j].entry.ID })
	return out
}

// bodyCall is a call of a shared body: the body and the call's return
// site.
type bodyCall struct {
	body *Body
	ret  *Loc
}

// callReturns maps the call site of every shared body call to the body
// and its return site.
func callReturns(p *Program) map[*Loc]bodyCall {
	m := map[*Loc]bodyCall{}
	for _, bd := range p.Bodies {
		for i, c := range bd.Calls {
			if i < len(bd.Returns) {
				m[c] = bodyCall{bd, bd.Returns[i]}
			}
		}
	}
	return m
}

// bodyWalk lists the locations of a shared body: those reachable from its
// entry without passing its exit, where a call of another body continues
// at that call's own return site (the callee's effects are the callee's
// Mod). Dead-end generic instances entered from the body are included.
func bodyWalk(bd *Body, calls map[*Loc]bodyCall) []*Loc {
	seen := map[*Loc]bool{bd.Entry: true}
	out := []*Loc{bd.Entry}
	for i := 0; i < len(out); i++ {
		l := out[i]
		if l == bd.Exit {
			continue
		}
		next := l.Succs
		if c, ok := calls[l]; ok && c.body != bd {
			next = []*Loc{c.ret}
		}
		for _, s := range next {
			if !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
	}
	return out
}

// bodyMods computes Body.Mod on the final IR: a least fixpoint over the
// bodies of the variables their walks write or constrain (ModVars), with
// the Mod of every body they call.
func (b *builder) bodyMods() {
	p := b.prog
	if len(p.Bodies) == 0 {
		return
	}
	calls := callReturns(p)
	// Mod sets as bitsets over Var.ID, closed over the calls between
	// bodies by a worklist along the reverse calls: a body is joined again
	// only when a body it calls grew. (A round-robin over maps took half a
	// minute of floppy's lowering.)
	words := (len(p.Vars) + 63) / 64
	mods := make([][]uint64, len(p.Bodies))
	callers := make([][]int32, len(p.Bodies)) // by callee Body.ID
	for i, bd := range p.Bodies {
		m := make([]uint64, words)
		seen := map[*Body]bool{}
		for _, l := range bodyWalk(bd, calls) {
			for _, v := range ModVars(l.Act) {
				m[v.ID/64] |= 1 << (v.ID % 64)
			}
			if c, ok := calls[l]; ok && c.body != bd && !seen[c.body] {
				seen[c.body] = true
				callers[c.body.ID] = append(callers[c.body.ID], int32(i))
			}
		}
		mods[i] = m
	}
	work := make([]int32, len(p.Bodies))
	queued := make([]bool, len(p.Bodies))
	for i := range work {
		work[i] = int32(i)
		queued[i] = true
	}
	for len(work) > 0 {
		d := work[len(work)-1]
		work = work[:len(work)-1]
		queued[d] = false
		src := mods[d]
		for _, i := range callers[d] {
			dst := mods[i]
			grew := false
			for w, x := range src {
				if x&^dst[w] != 0 {
					dst[w] |= x
					grew = true
				}
			}
			if grew && !queued[i] {
				queued[i] = true
				work = append(work, i)
			}
		}
	}
	for i, bd := range p.Bodies {
		bd.Mod = bd.Mod[:0]
		for w, x := range mods[i] {
			for x != 0 {
				k := bits.TrailingZeros64(x)
				x &^= 1 << k
				bd.Mod = append(bd.Mod, p.Vars[w*64+k])
			}
		}
	}
}

// ModVars lists the variables an action may write or constrain: its
// writes (writes below) and the variables read by the condition of an
// Assume or CheckAct (the analysis counts those as modified, DESIGN.md
// §3). A Spawn's writes of the child's parameter are not included (they
// belong to the child's template).
func ModVars(act Action) []*Var {
	out := writes(act)
	var cond Expr
	switch x := act.(type) {
	case *Assume:
		cond = x.Cond
	case *CheckAct:
		cond = x.Cond
	default:
		return out
	}
	var expr func(e Expr)
	expr = func(e Expr) {
		switch x := e.(type) {
		case *VarRef:
			out = append(out, x.Var)
		case *Deref:
			out = append(out, x.Cells...)
			expr(x.Addr)
		case *Unary:
			expr(x.X)
		case *Binary:
			expr(x.X)
			expr(x.Y)
		case *Cast:
			expr(x.X)
		}
	}
	expr(cond)
	return out
}

// registersToCells turns Global registers into the single cell of a new
// GlobalObject each (the Var itself becomes the cell, keeping its ID and
// name), rewriting every access to a Deref of the object. Initial values
// move to Object.Init.
func (b *builder) registersToCells(regs map[*Var]bool) {
	if len(regs) == 0 {
		return
	}
	var vs []*Var
	for v := range regs {
		vs = append(vs, v)
	}
	sortVars(vs)
	for _, v := range vs {
		o := &Object{ID: len(b.prog.Objects), Name: v.Name, Kind: GlobalObject, Size: v.Type.Size(), Pos: v.Pos}
		b.prog.Objects = append(b.prog.Objects, o)
		b.objInfo[o] = &objInfo{sizes: []int64{v.Type.Size()}}
		if v.Init != nil {
			o.Init = []InitValue{{Offset: 0, Type: v.Type, Value: v.Init}}
			v.Init = nil
		}
		v.Mem, v.Offset, v.Summary = o, 0, false
		o.Cells = []*Var{v}
	}
	for _, l := range b.prog.Locs {
		mapActionExprs(l.Act, func(e Expr) Expr {
			if x := e.(*VarRef); regs[x.Var] {
				return &Deref{Addr: &AddrOf{Object: x.Var.Mem, Type: b.ptrType()}, Type: x.Var.Type, Cells: []*Var{x.Var}}
			}
			return e
		})
	}
}

// writes lists the variables an action may write.
func writes(act Action) []*Var {
	lv := func(d LValue) []*Var {
		switch x := d.(type) {
		case *VarRef:
			return []*Var{x.Var}
		case *Deref:
			return x.Cells
		}
		return nil
	}
	switch x := act.(type) {
	case *Assign:
		return lv(x.Dst)
	case *Havoc:
		return lv(x.Dst)
	case *Alloc:
		return lv(x.Dst)
	case *Acquire:
		return lv(x.Lock)
	case *Release:
		return lv(x.Lock)
	case *Spawn:
		if x.Handle != nil {
			return lv(x.Handle)
		}
	}
	return nil
}

// escape makes the cells of LocalObjects whose address can reach another
// thread Global: reachable through the points-to graph from Global
// registers, global, heap and string objects, or spawn arguments. Such a
// cell is also Summary when its template may have several instances or
// it belongs to a generic (recursive) instance. Cells of locals that do
// not escape stay Local (each thread instance has its own copy).
func (b *builder) escape(a *pta) {
	a.cur = -1
	escaped := map[int32]bool{}
	var queue []int32
	visit := func(s ptset) {
		for l := range a.all(s) {
			if !escaped[l.objID()] {
				escaped[l.objID()] = true
				queue = append(queue, l.objID())
			}
		}
	}
	for _, v := range b.prog.Vars {
		if v.Scope == Global && !v.IsCell() {
			visit(a.pts[v.ID])
		}
	}
	for _, o := range b.prog.Objects {
		if o.Kind != LocalObject {
			for _, c := range o.Cells {
				visit(a.pts[c.ID])
			}
		}
	}
	for _, s := range b.spawns {
		if arg := s.loc.Act.(*Spawn).Arg; arg != nil {
			visit(a.eval(arg))
		}
	}
	for len(queue) > 0 {
		o := b.prog.Objects[queue[0]]
		queue = queue[1:]
		for _, c := range o.Cells {
			visit(a.pts[c.ID])
		}
	}
	removed := map[*Var]bool{}
	for _, o := range b.prog.Objects {
		info := b.objInfo[o]
		if o.Kind != LocalObject {
			continue
		}
		if !escaped[int32(o.ID)] {
			if info != nil && info.recur {
				for _, c := range o.Cells {
					c.Summary = true
				}
			}
			continue
		}
		for _, c := range o.Cells {
			c.Scope = Global
			c.Template = nil
			removed[c] = true
			if o.Template.Unbounded || (info != nil && info.recur) {
				c.Summary = true
			}
		}
	}
	if len(removed) > 0 {
		for _, t := range b.prog.Templates {
			ls := t.Locals[:0]
			for _, v := range t.Locals {
				if !removed[v] {
					ls = append(ls, v)
				}
			}
			t.Locals = ls
		}
	}
}

// atomicFlags computes Loc.Atomic by propagating the atomic nesting depth
// from each template's entry. A location reachable at different depths
// gets the smallest (Atomic = false when any path reaches it outside a
// section: more interleavings, sound). Unreachable locations are not
// atomic.
func (b *builder) atomicFlags() {
	for _, t := range b.prog.Templates {
		depth := map[*Loc]int{t.Entry: 0}
		stack := []*Loc{t.Entry}
		for len(stack) > 0 {
			l := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			d := depth[l]
			nd := d
			switch l.Act.(type) {
			case *AtomicBegin:
				nd = d + 1
				if nd > 64 {
					nd = 64
				}
			case *AtomicEnd:
				if d > 0 {
					nd = d - 1
				}
			}
			for _, s := range l.Succs {
				if od, ok := depth[s]; !ok || nd < od {
					depth[s] = nd
					stack = append(stack, s)
				}
			}
		}
		for _, l := range t.Locs {
			l.Atomic = depth[l] > 0
		}
	}
}

func (b *builder) sortAssumptions() {
	sort.SliceStable(b.prog.Assumptions, func(i, j int) bool {
		x, y := b.prog.Assumptions[i].Pos, b.prog.Assumptions[j].Pos
		if x.Filename != y.Filename {
			return x.Filename < y.Filename
		}
		return x.Line < y.Line
	})
}

func onMainCycle(comp map[*Loc]int, l *Loc) bool {
	_, ok := comp[l]
	return ok
}
