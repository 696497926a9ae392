package interference

import (
	"sort"

	"chorus/cfg"
)

// Joins with thread handles.
//
// Spawn classes. A spawn site of main is tracked when main is a singleton
// (never spawned), the site has a single target T and stores the handle
// into a single non-summary cell h. Tracked sites with the same target
// and handle cell form a class when no site of the class reaches a site
// of the class (itself included) along main's control flow: then at most
// one of them runs, at most once, so the class has at most one instance
// in any execution (two sites on the arms of an if, one site outside
// loops). A template is joinable when all its spawn sites (anywhere in the
// program) lie in such classes; it may have several classes (one thread
// per handle: t1, t2 of the same function).
//
// Handles. The handle variables are the class handle cells and main's
// locals assigned from them (t := h); a handle variable written in any
// other way (by another template, through a pointer that may denote
// several cells, havoc, allocation) is dropped, and so are the classes
// whose cell it is. A forward may-analysis over main (union at merges)
// computes at each location of main:
//   - holds(v): the classes whose instance's id handle variable v may
//     hold (a tracked spawn of class k sets holds(h) = {k}; another spawn
//     into v, or an assignment from something else, sets {other});
//   - alive: the classes whose instance may be alive (spawned, and not
//     joined since): a spawn of class k adds k; a Join on a handle
//     variable with holds = {k} exactly removes k (pthread_join returns
//     only after that thread terminated).
// Joinable T is dead at a location of main when no class of T is alive
// there: every instance of T spawned before is joined (reusing a handle
// for another thread is fine: holds follows the last spawn into it). T
// is finished at b when it is dead at b and no spawn site of T is
// reachable from b (no instance can start after b).
//
// Rules, for a location b of main where T is dead:
//   - no interference edge from a write of T lands at b, except at the
//     join relays (the successors of a join that removes a class of T
//     from alive, where that class may be alive: a second join of a
//     joined thread needs none), which are identity definitions of the
//     cells T writes (dfg.Graph.Relay), passed on along main's control
//     flow up to a write of the cell or another join relay of it: T's
//     writes reach the rest of main as sequential data flow;
//   - no interference edge from a write of main at b lands in T when T is
//     finished at b: every instance of T has terminated before main
//     reaches b and none can start after it, so no thread of T runs
//     after main's write (testdata/check/join_after_write.c). A thread of
//     T started after the write starts from main's state
//     (join_after_respawn.c stays unproven); a write before the join keeps
//     its edge (join_after_early_write.c; the oracle catches
//     WithUnsoundJoinAfterAnywhere there). Only with WithJoinAfterRule:
//     it also proves Goblint's 58_33-phases-sound-tid-other.L16.c:16,
//     which the corpus MANIFEST labels `false` (from Goblint's
//     "UNKNOWN!", i.e. Goblint cannot prove it) although no execution
//     fails it: t_benign runs once and asserts right after its own write
//     under A; main writes g only after joining it; t_other is created
//     after the assertion. Off by default until that label is fixed
//     (the corpus is read-only here; no special case for it).
//
// Join-all loops (cfg/joinall.go). A spawn site S that a cfg.JoinAll
// records forms a class of its own, even though it may run many times:
// its instances are all started at S, the class is alive after S and
// ended at the JoinAll's Done location (the join relays start at Done's
// successors, as after a join). The frontend guarantees that at Done
// every thread started at S before has terminated (each was joined in the
// join loop), which is all the argument below uses of a join ending a
// class: the last writer's instance i of the class was spawned on main's
// path before a Done that ended the class, so i terminated, and W happened,
// before main left that Done. The mutation cfg.Options.UnsoundJoinAllBounds
// (join loops of other bounds count) is caught by the oracle on
// testdata/check/join_all_partial.c.
//
// Threads started after T finished. A template U is started after T
// when every spawn site of U is in main where T is finished, or in a
// template started after T (greatest fixpoint over the spawn sites). No
// interference edge from a write of T lands in U; instead the join relays
// of main continue through main's spawns into the templates started after
// some joinable template (dfg.RelaySpec: the walk enters spawned threads),
// up to a write of the cell. Sound for any number of threads and of U's
// instances: let u, a thread of U, read X at l, the last write being W by
// an instance of T. u descends, through spawns by threads started after
// T, from a spawn of main at s0 where T is finished, so W happened before
// main stood at s0, and by the first rule's argument the last join relay
// S of X on main's path to s0 holds X's value. Nothing wrote X after W: not
// main between S and s0, not the spawners before their spawns on the
// chain, not u before l. So S's walk passes s0, the chain's entries and
// spawns, and reaches l: S's edge covers the value. Relay edges only add
// values; the filter drops only edges whose value S's edge carries.
//
// Sound for any number of threads: every thread of T is the instance of
// one class, and each class has at most one. For the first rule, let the
// last write of X before main reads it at b be by T's instance i of class
// k, at W. i was spawned on main's path to b (T's sites are in main), so
// k entered alive there, and k is not alive at b: some join J after the
// spawn removes k, and at the first such J k is still alive, so J has a
// relay; J's handle held i's id (the last write of that handle was class
// k's one spawn), so W happened before J returned. Let S be the last join
// relay of X on the path (at or after J's successor): X has not changed
// since main stood at S, so S's own edges cover the value (S is exempt,
// and the game is complete for a reader at S), and S's relay reaches b
// (no write of X and no other relay of X in between on that path). If
// the last writer is another thread, its edges are not filtered; if it
// is main, the reaching definitions carry it. For the second rule: every
// instance of T was spawned before b and has terminated, so main's write
// at b happens after every action of T. The argument is about the last
// writer and about instances of one class, never about how many threads
// run. The flow-insensitive game (flat.go) does not filter: it keeps
// every edge, which is sound too.

// WithUnsoundJoinAfterAnywhere is UNSOUND, for testing the oracle only:
// with WithJoinAfterRule, the join-after rule drops main's writes into a joinable template T
// wherever main writes, also where T may still be running.
func WithUnsoundJoinAfterAnywhere() Option {
	return func(e *Engine) { e.unsoundJoinAfterAnywhere = true }
}

// WithUnsoundJoinClasses is UNSOUND, for testing the oracle only: a
// spawn class may run more than once (a site in a loop), yet its join
// counts as waiting for every instance.
func WithUnsoundJoinClasses() Option { return func(e *Engine) { e.unsoundJoinClasses = true } }

// WithoutRelayIntoSpawned is UNSOUND, for testing the oracle only: the
// join relays stop at main's spawns, while the interference edges of a
// finished template into the threads started after it are still dropped.
func WithoutRelayIntoSpawned() Option { return func(e *Engine) { e.noRelayIntoSpawned = true } }

// joinClass is one spawn class: its template, handle cell and sites;
// or, for a join-all loop (handle nil), its one site and the locations
// after the join loop (done).
type joinClass struct {
	t      *cfg.Template
	handle *cfg.Var
	sites  []*cfg.Loc
	done   []*cfg.Loc
}

// computeJoins fills e.joinable, e.joinedAt (dead templates),
// e.finishedAt and the join relays.
func (e *Engine) computeJoins() {
	p := e.prog
	if len(p.Templates) < 2 || mainSpawned(p) {
		return
	}
	main := p.Templates[0]
	// Spawn sites per template; tracked sites grouped by (T, h).
	spawnSites := map[*cfg.Template][]*cfg.Loc{}
	type key struct {
		t *cfg.Template
		h *cfg.Var
	}
	groups := map[key]int{}
	var classes []*joinClass
	untracked := map[*cfg.Template]bool{}
	// Join-all loops (cfg/joinall.go): a class of its own per site.
	joinAll := map[*cfg.Loc]*joinClass{}
	for _, ja := range p.JoinAlls {
		if ja.Spawn == nil || ja.Done == nil || ja.Spawn.Template != main || ja.Done.Template != main {
			continue
		}
		if c := joinAll[ja.Spawn]; c != nil {
			c.done = append(c.done, ja.Done)
		} else {
			joinAll[ja.Spawn] = &joinClass{sites: []*cfg.Loc{ja.Spawn}, done: []*cfg.Loc{ja.Done}}
		}
	}
	for _, l := range p.Locs {
		s, ok := l.Act.(*cfg.Spawn)
		if !ok {
			continue
		}
		for _, t := range s.Targets {
			spawnSites[t] = append(spawnSites[t], l)
		}
		if c := joinAll[l]; c != nil && len(s.Targets) == 1 {
			c.t = s.Targets[0]
			classes = append(classes, c)
			continue
		}
		h := singleCell(s.Handle)
		if l.Template != main || len(s.Targets) != 1 || h == nil {
			for _, t := range s.Targets {
				untracked[t] = true
			}
			continue
		}
		k := key{s.Targets[0], h}
		i, ok := groups[k]
		if !ok {
			i = len(classes)
			groups[k] = i
			classes = append(classes, &joinClass{t: k.t, handle: h})
		}
		classes[i].sites = append(classes[i].sites, l)
	}
	// A class whose sites reach one another (or themselves) may run more
	// than once.
	for _, c := range classes {
		if c.t == main || c.t.Entry == nil || (c.done == nil && !e.unsoundJoinClasses && reachesAny(main, c.sites, c.sites)) {
			untracked[c.t] = true
		}
	}
	// Handle variables: class cells and main's locals copied from them.
	hidx := map[*cfg.Var]int{}
	var hvars []*cfg.Var
	addH := func(v *cfg.Var) {
		if _, ok := hidx[v]; !ok {
			hidx[v] = len(hvars)
			hvars = append(hvars, v)
		}
	}
	for _, c := range classes {
		if !untracked[c.t] && c.handle != nil {
			addH(c.handle)
		}
	}
	for changed := true; changed; {
		changed = false
		for _, l := range main.Locs {
			if a, ok := l.Act.(*cfg.Assign); ok {
				if d := singleCell(a.Dst); d != nil {
					if s := singleCellExpr(a.Src); s != nil {
						if _, ok := hidx[s]; ok {
							if _, ok := hidx[d]; !ok {
								addH(d)
								changed = true
							}
						}
					}
				}
			}
		}
	}
	// Writes the analysis does not model make a handle variable bad.
	bad := map[*cfg.Var]bool{}
	for _, l := range p.Locs {
		lv := writtenLValue(l.Act)
		modeled := false
		if l.Template == main {
			switch l.Act.(type) {
			case *cfg.Assign, *cfg.Spawn:
				modeled = singleCell(lv) != nil
			}
		}
		if !modeled {
			for _, w := range lvalueVars(lv) {
				bad[w] = true
			}
		}
		if a, ok := l.Act.(*cfg.Alloc); ok && a.Site != nil {
			for _, c := range a.Site.Cells {
				bad[c] = true
			}
		}
	}
	for _, c := range classes {
		if c.handle != nil && bad[c.handle] {
			untracked[c.t] = true
		}
	}
	// Joinable templates and their live classes.
	idx := map[*cfg.Template]int{}
	cidx := map[*joinClass]int{}
	var live []*joinClass
	for _, c := range classes {
		if untracked[c.t] {
			continue
		}
		if _, ok := idx[c.t]; !ok {
			idx[c.t] = len(e.joinable)
			e.joinable = append(e.joinable, c.t)
		}
		cidx[c] = len(live)
		live = append(live, c)
	}
	if len(live) == 0 {
		return
	}
	siteClass := map[*cfg.Loc]int{}
	doneClasses := map[*cfg.Loc][]int{} // join-all classes ended at a location
	for _, c := range live {
		for _, s := range c.sites {
			siteClass[s] = cidx[c]
		}
		for _, d := range c.done {
			doneClasses[d] = append(doneClasses[d], cidx[c])
		}
	}
	nc, nh := len(live), len(hvars)
	other := nc // the "other value" bit of holds
	// State: alive (nc bits) then holds per handle variable (nc+1 bits each).
	width := (nc + 63) / 64
	hw := (nc + 1 + 63) / 64
	newState := func() bitset { return make(bitset, width+nh*hw) }
	holdsOf := func(st bitset, v int) bitset { return st[width+v*hw : width+(v+1)*hw] }
	in := make([]bitset, len(p.Locs))
	init := newState()
	for v := range hvars {
		holdsOf(init, v).set(other)
	}
	transfer := func(l *cfg.Loc, st bitset) bitset {
		out := append(bitset(nil), st...)
		setHolds := func(v *cfg.Var, from bitset) {
			i, ok := hidx[v]
			if !ok || bad[v] {
				return
			}
			h := holdsOf(out, i)
			for j := range h {
				h[j] = 0
			}
			if from == nil {
				h.set(other)
				return
			}
			copy(h, from)
		}
		for _, k := range doneClasses[l] {
			out.clear(k) // past a join-all loop
		}
		switch a := l.Act.(type) {
		case *cfg.Spawn:
			if k, ok := siteClass[l]; ok {
				out.set(k)
				if live[k].handle != nil {
					one := make(bitset, hw)
					one.set(k)
					setHolds(live[k].handle, one)
				}
			} else if h := singleCell(a.Handle); h != nil {
				setHolds(h, nil)
			}
		case *cfg.Assign:
			if d := singleCell(a.Dst); d != nil {
				if s := singleCellExpr(a.Src); s != nil {
					if i, ok := hidx[s]; ok && !bad[s] {
						setHolds(d, holdsOf(st, i))
						break
					}
				}
				setHolds(d, nil)
			}
		case *cfg.Join:
			if k, ok := joinedClass(a, st, hidx, bad, holdsOf, nc); ok {
				out.clear(k)
			}
		}
		return out
	}
	in[main.Entry.ID] = init
	work := []*cfg.Loc{main.Entry}
	for len(work) > 0 {
		l := work[len(work)-1]
		work = work[:len(work)-1]
		out := transfer(l, in[l.ID])
		for _, s := range l.Succs {
			if s.Template != main {
				continue
			}
			if in[s.ID] == nil {
				in[s.ID] = append(bitset(nil), out...)
				work = append(work, s)
				continue
			}
			changed := false
			for i := range in[s.ID] {
				if v := in[s.ID][i] | out[i]; v != in[s.ID][i] {
					in[s.ID][i] = v
					changed = true
				}
			}
			if changed {
				work = append(work, s)
			}
		}
	}
	// Dead and finished templates per location of main.
	n := len(e.joinable)
	sitesOf := make([][]*cfg.Loc, n)
	for t, k := range idx {
		sitesOf[k] = spawnSites[t]
	}
	e.joinedAt = make([]bitset, len(p.Locs))
	e.finishedAt = make([]bitset, len(p.Locs))
	canSpawn := make([][]bool, n) // canSpawn[k][loc]: a site of T_k is reachable from loc
	for k := range sitesOf {
		canSpawn[k] = reachingTo(main, sitesOf[k], len(p.Locs))
	}
	for _, l := range main.Locs {
		st := in[l.ID]
		if st == nil {
			continue
		}
		dead := newBitset(n)
		for k := range e.joinable {
			dead.set(k)
		}
		for _, c := range live {
			if st.has(cidx[c]) {
				dead.clear(idx[c.t])
			}
		}
		e.joinedAt[l.ID] = dead
		fin := append(bitset(nil), dead...)
		for k := range e.joinable {
			if canSpawn[k][l.ID] {
				fin.clear(k)
			}
		}
		e.finishedAt[l.ID] = fin
	}
	// Templates started after T finished: every spawn site of U is in
	// main where T is finished, or in a template started after T finished
	// (greatest fixpoint).
	e.startedAfter = map[*cfg.Template]bitset{}
	for _, t := range p.Templates[1:] {
		if len(spawnSites[t]) > 0 {
			all := newBitset(n)
			for k := range e.joinable {
				all.set(k)
			}
			e.startedAfter[t] = all
		}
	}
	for changed := true; changed; {
		changed = false
		for _, t := range p.Templates[1:] {
			cur := e.startedAfter[t]
			if cur == nil {
				continue
			}
			for _, s := range spawnSites[t] {
				var from bitset
				if s.Template == main {
					from = e.finishedAt[s.ID]
				} else {
					from = e.startedAfter[s.Template]
				}
				for i := range cur {
					var f uint64
					if from != nil {
						f = from[i]
					}
					if v := cur[i] & f; v != cur[i] {
						cur[i] = v
						changed = true
					}
				}
			}
		}
	}
	e.startedAfterAny = map[*cfg.Template]bool{}
	for _, t := range p.Templates[1:] {
		if b := e.startedAfter[t]; b != nil {
			for _, w := range b {
				if w != 0 {
					e.startedAfterAny[t] = true
				}
			}
		}
	}
	// Join relays: the cells T writes, after each join that removes a
	// class of T that may be alive.
	writes := make([][]int, n)
	for _, l := range p.Locs {
		k, ok := idx[l.Template]
		if !ok {
			continue
		}
		switch l.Act.(type) {
		case *cfg.Assume, *cfg.CheckAct:
			continue
		}
		for _, x := range e.modCache[l.ID] {
			if e.cells.Global(x) {
				writes[k] = append(writes[k], x)
			}
		}
	}
	for k := range writes {
		sort.Ints(writes[k])
		writes[k] = compactInts(writes[k])
	}
	e.joinRelays = map[int]map[int]bool{}
	cont := func(l *cfg.Loc, x int) bool {
		if l.Template == main {
			return !e.joinRelays[l.ID][x]
		}
		return !e.noRelayIntoSpawned && e.startedAfterAny[l.Template]
	}
	for _, l := range main.Locs {
		if in[l.ID] == nil {
			continue
		}
		var ended []int // classes that may be alive here and end here
		if j, ok := l.Act.(*cfg.Join); ok {
			if c, ok := joinedClass(j, in[l.ID], hidx, bad, holdsOf, nc); ok && in[l.ID].has(c) {
				ended = append(ended, c)
			}
		}
		for _, c := range doneClasses[l] {
			if in[l.ID].has(c) {
				ended = append(ended, c)
			}
		}
		for _, c := range ended {
			cells := writes[idx[live[c].t]]
			if len(cells) == 0 {
				continue
			}
			for _, s := range l.Succs {
				if s.Template != main {
					continue
				}
				e.relayList = append(e.relayList, Relay{At: s, Cells: cells, Continue: cont})
				if e.joinRelays[s.ID] == nil {
					e.joinRelays[s.ID] = map[int]bool{}
				}
				for _, x := range cells {
					e.joinRelays[s.ID][x] = true
				}
			}
		}
	}
}

// joinedClass returns the class a Join surely waits for: its handle is a
// handle variable that holds exactly one class's instance.
func joinedClass(j *cfg.Join, st bitset, hidx map[*cfg.Var]int, bad map[*cfg.Var]bool, holdsOf func(bitset, int) bitset, nc int) (int, bool) {
	v := singleCellExpr(j.Handle)
	if v == nil || bad[v] {
		return 0, false
	}
	i, ok := hidx[v]
	if !ok {
		return 0, false
	}
	h := holdsOf(st, i)
	found := -1
	for k := 0; k <= nc; k++ {
		if h.has(k) {
			if found >= 0 || k == nc {
				return 0, false
			}
			found = k
		}
	}
	return found, found >= 0
}

// reachesAny reports whether some location of to is reachable from a
// successor of some location of from along t's control flow.
func reachesAny(t *cfg.Template, from, to []*cfg.Loc) bool {
	target := map[*cfg.Loc]bool{}
	for _, l := range to {
		target[l] = true
	}
	seen := map[*cfg.Loc]bool{}
	var work []*cfg.Loc
	for _, l := range from {
		work = append(work, l.Succs...)
	}
	for len(work) > 0 {
		l := work[len(work)-1]
		work = work[:len(work)-1]
		if l.Template != t || seen[l] {
			continue
		}
		seen[l] = true
		if target[l] {
			return true
		}
		work = append(work, l.Succs...)
	}
	return false
}

// reachingTo marks (by location ID) the locations of t from which a
// location of to is reachable along t's control flow (to included).
func reachingTo(t *cfg.Template, to []*cfg.Loc, n int) []bool {
	out := make([]bool, n)
	var work []*cfg.Loc
	for _, l := range to {
		if l.Template == t && !out[l.ID] {
			out[l.ID] = true
			work = append(work, l)
		}
	}
	for len(work) > 0 {
		l := work[len(work)-1]
		work = work[:len(work)-1]
		for _, p := range l.Preds {
			if p.Template == t && !out[p.ID] {
				out[p.ID] = true
				work = append(work, p)
			}
		}
	}
	return out
}

// joinFiltered reports whether the interference edge w —x→ l cannot carry
// a value by the join rules above. joinMayFilter (below) and
// joinFreeWriter (targets.go) tell where it is false whatever the writer
// or the reader: a new rule must keep them in step.
func (e *Engine) joinFiltered(w, l *cfg.Loc, x int) bool {
	if e.joinedAt == nil {
		return false
	}
	for k, t := range e.joinable {
		if w.Template == t && e.joinedAt[l.ID] != nil && e.joinedAt[l.ID].has(k) && !e.joinRelays[l.ID][x] {
			return true
		}
		if l.Template != e.prog.Templates[0] && e.startedAfter != nil && e.startedAfter[l.Template] != nil && e.startedAfter[l.Template].has(k) && w.Template == t {
			return true
		}
		if e.joinAfterRule && l.Template == t && (e.unsoundJoinAfterAnywhere && w.Template == e.prog.Templates[0] || e.finishedAt[w.ID] != nil && e.finishedAt[w.ID].has(k)) {
			return true
		}
	}
	return false
}

// joinMayFilter reports whether joinFiltered(w, l, x) may hold for some
// writer w: each of its three rules with the conditions on w dropped
// (false means no edge w —x→ l is ever filtered, whatever w is). Kept
// next to joinFiltered: every rule there must have its weakening here.
func (e *Engine) joinMayFilter(l *cfg.Loc, x int) bool {
	if e.joinedAt == nil {
		return false
	}
	for k, t := range e.joinable {
		if e.joinedAt[l.ID] != nil && e.joinedAt[l.ID].has(k) && !e.joinRelays[l.ID][x] {
			return true
		}
		if l.Template != e.prog.Templates[0] && e.startedAfter != nil && e.startedAfter[l.Template] != nil && e.startedAfter[l.Template].has(k) {
			return true
		}
		if e.joinAfterRule && l.Template == t {
			return true
		}
	}
	return false
}

func compactInts(xs []int) []int {
	out := xs[:0]
	for i, x := range xs {
		if i == 0 || xs[i-1] != x {
			out = append(out, x)
		}
	}
	return out
}

// singleCell returns the one non-summary variable lv denotes, or nil.
func singleCell(lv cfg.LValue) *cfg.Var {
	switch lv := lv.(type) {
	case *cfg.VarRef:
		return lv.Var
	case *cfg.Deref:
		if len(lv.Cells) == 1 && !lv.Cells[0].Summary {
			return lv.Cells[0]
		}
	}
	return nil
}

// singleCellExpr is singleCell for an expression read (casts allowed).
func singleCellExpr(e cfg.Expr) *cfg.Var {
	switch e := e.(type) {
	case *cfg.VarRef:
		return e.Var
	case *cfg.Deref:
		return singleCell(e)
	case *cfg.Cast:
		return singleCellExpr(e.X)
	}
	return nil
}

// writtenLValue returns the lvalue act writes through, if any.
func writtenLValue(a cfg.Action) cfg.LValue {
	switch a := a.(type) {
	case *cfg.Assign:
		return a.Dst
	case *cfg.Havoc:
		return a.Dst
	case *cfg.Alloc:
		return a.Dst
	case *cfg.Spawn:
		return a.Handle
	}
	return nil
}

// lvalueVars lists the variables lv may write.
func lvalueVars(lv cfg.LValue) []*cfg.Var {
	switch lv := lv.(type) {
	case *cfg.VarRef:
		return []*cfg.Var{lv.Var}
	case *cfg.Deref:
		return lv.Cells
	}
	return nil
}
