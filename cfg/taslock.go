package cfg

// Test-and-set locks (the SV-COMP idiom of pthread-ext/05_tas):
//
//	void __VERIFIER_atomic_TAS(int *v, int *o) { *o = *v; *v = 1; }
//	acquire: TAS(&lock, &cond); while (cond == 1) TAS(&lock, &cond);
//	release: lock = 0;
//
// A section "atomic_begin; t := m; (copies of t into thread-local
// variables); m := 1; atomic_end" on a word m that only ever holds 0 or 1
// is rewritten as a choice of two arms:
//
//	t := 0; copies...; acquire(m)        (m was 0: the thread takes it)
//	assume(m == 1); t := 1; copies...    (m was 1: setting it again is no change)
//
// and, for such a word, each plain store "m := 0" outside atomic sections
// becomes Release(m) with Release.Custom set (the same effect: Release
// stores 0), so the must-lockset, protected cells and relays of package
// interference see the lock. As for the other custom locks
// (atomiclock.go), the interference package uses it only where the
// must-lockset shows every release made by the holder.
//
// Why the rewritten program over-approximates the original, for any
// number of threads. m holds 0 or 1 in every reachable state: its initial
// value is 0 or 1 and every write of it anywhere is the constant 0 or 1
// (a strong store, Acquire or Release), checked over the whole program
// (tasWords); a havoc, a weak store naming m among other cells, or any
// other value disqualifies m. Then an execution of the original section
// from a state with m = 0 is the first arm run without interruption (t
// and its copies are thread-local, nobody else sees them written just
// before; acquire then finds m = 0 and sets it to 1; a copy through a bad
// pointer fails before m is touched, as in the section), and one from
// m = 1 is the second arm (m stays 1, t = 1).
// Every execution of the original therefore maps to one of the rewritten
// program with the same states at the section's end; the rewritten one
// only has more interleavings (between the arm's steps), never fewer.
// t and its copies get constants on both arms, so the path-sensitive
// lockset (interference/lockset.go) can follow the loop test on them.

// tasWords returns the global lock words that hold 0 or 1 in every state:
// initial value 0 or 1 and every write a strong store of the constant 0
// or 1, an Acquire or a Release.
func (b *builder) tasWords() map[*Var]bool {
	ok := map[*Var]bool{}
	bad := map[*Var]bool{}
	written := func(lv LValue) []*Var {
		switch x := lv.(type) {
		case *VarRef:
			return []*Var{x.Var}
		case *Deref:
			return x.Cells
		}
		return nil
	}
	markBad := func(lv LValue) {
		for _, v := range written(lv) {
			bad[v] = true
		}
	}
	for _, l := range b.prog.Locs {
		switch a := l.Act.(type) {
		case *Assign:
			w := lockWordOf(a.Dst)
			c, isConst := a.Src.(*Const)
			if w != nil && isConst && (c.Value == 0 || c.Value == 1) {
				ok[w] = true
				continue
			}
			markBad(a.Dst)
		case *Havoc:
			markBad(a.Dst)
		case *Alloc:
			markBad(a.Dst)
			if a.Site != nil {
				for _, c := range a.Site.Cells {
					bad[c] = true
				}
			}
		case *Spawn:
			if a.Handle != nil {
				markBad(a.Handle)
			}
		case *Acquire:
			if w := lockWordOf(a.Lock); w != nil {
				ok[w] = true
			} else {
				markBad(a.Lock)
			}
		case *Release:
			if w := lockWordOf(a.Lock); w != nil {
				ok[w] = true
			} else {
				markBad(a.Lock)
			}
		}
	}
	out := map[*Var]bool{}
	for v := range ok {
		if bad[v] || v.ThreadLocal || !initZeroOrOne(v) {
			continue
		}
		out[v] = true
	}
	return out
}

// initZeroOrOne reports whether global v starts as 0 or 1.
func initZeroOrOne(v *Var) bool {
	if !v.IsCell() {
		if v.Init == nil {
			return true
		}
		c, ok := v.Init.(*Const)
		return ok && (c.Value == 0 || c.Value == 1)
	}
	o := v.Mem
	if o == nil || o.Kind != GlobalObject || o.ThreadLocal || v.Type.Bits == 0 {
		return false
	}
	size := int64(v.Type.Bits / 8)
	for _, iv := range o.Init {
		ivSize := int64(iv.Type.Bits / 8)
		if iv.Offset >= v.Offset+size || v.Offset >= iv.Offset+max(ivSize, 1) {
			continue // another scalar of the object
		}
		if iv.Offset != v.Offset || iv.Type != v.Type {
			return false // overlaps the word partly or with another type
		}
		c, ok := iv.Value.(*Const)
		if !ok || (c.Value != 0 && c.Value != 1) {
			return false
		}
	}
	return true
}

// rewriteTAS matches a test-and-set section at begin (see the top of the
// file) on a word of words and rewrites it; it returns the word.
func (b *builder) rewriteTAS(begin *Loc, words map[*Var]bool) *Var {
	one := func(l *Loc) bool {
		return len(l.Preds) == 1 && len(l.Succs) == 1 && l.Template == begin.Template
	}
	read := begin.Succs[0]
	if !one(read) {
		return nil
	}
	ra, ok := read.Act.(*Assign)
	if !ok {
		return nil
	}
	tref, ok := ra.Dst.(*VarRef)
	if !ok || tref.Var.Scope != Local || tref.Var.IsCell() || tref.Var.Type.Kind != IntType {
		return nil
	}
	m := lockWordOf(ra.Src)
	if m == nil || !words[m] {
		return nil
	}
	var copies []*Loc
	l := read.Succs[0]
	for ; ; l = l.Succs[0] {
		if !one(l) || len(copies) > 4 {
			return nil
		}
		a, ok := l.Act.(*Assign)
		if !ok {
			return nil
		}
		if r, ok := a.Src.(*VarRef); ok && r.Var == tref.Var && threadLocalTarget(a.Dst) != nil && a.Dst.ExprType() == tref.Var.Type {
			copies = append(copies, l)
			continue
		}
		break
	}
	set := l
	sa := set.Act.(*Assign)
	if c, ok := sa.Src.(*Const); !ok || c.Value != 1 || lockWordOf(sa.Dst) != m {
		return nil
	}
	end := set.Succs[0]
	if _, ok := end.Act.(*AtomicEnd); !ok || len(end.Preds) != 1 {
		return nil
	}
	// Matched. Arm 1 (word free): t := 0; the copies; acquire(m) in
	// place of the set. Arm 2 (word held) reuses the read:
	// assume(m == 1); t := 1; its own copies of the copies.
	after := read.Succs[0] // the first copy, or the set
	read.Act = &Assume{Cond: &Binary{Op: Eq, X: ra.Src, Y: &Const{Value: 1, Type: ra.Src.ExprType()}, Type: Bool}}
	t1 := b.insertAfterLoc(read, &Assign{Dst: tref, Src: &Const{Value: 1, Type: tref.Var.Type}})
	unlink(t1, after)
	tail2 := t1
	for _, c := range copies {
		n := b.newLocAt(c, &Assign{Dst: c.Act.(*Assign).Dst, Src: c.Act.(*Assign).Src})
		link(tail2, n)
		tail2 = n
	}
	link(tail2, end)
	t0 := b.newLocAt(begin, &Assign{Dst: tref, Src: &Const{Value: 0, Type: tref.Var.Type}})
	link(begin, t0)
	link(t0, after)
	set.Act = &Acquire{Lock: sa.Dst}
	b.threadArm(tail2, 1, tref, copies, end)
	b.threadArm(set, 0, tref, copies, end)
	begin.Act = &Skip{}
	end.Act = &Skip{}
	return m
}

// threadLocalTarget returns the thread-local variable lv surely writes (a
// local register or one thread-local cell: StrongTarget), or nil.
func threadLocalTarget(lv Expr) *Var {
	if v := StrongTarget(lv); v != nil && v.Scope == Local {
		return v
	}
	return nil
}

// insertAfterLoc puts a new location with act between l and its one
// successor.
func (b *builder) insertAfterLoc(l *Loc, act Action) *Loc {
	s := l.Succs[0]
	n := b.newLocAt(l, act)
	n.Atomic = l.Atomic
	l.Succs = []*Loc{n}
	n.Preds = []*Loc{l}
	n.Succs = []*Loc{s}
	for i, p := range s.Preds {
		if p == l {
			s.Preds[i] = n
		}
	}
	return n
}

// tasLocks rewrites the test-and-set sections and then the plain releases
// of their words (see the top of the file).
func (b *builder) tasLocks() bool {
	var words map[*Var]bool
	done := map[*Var]bool{}
	for _, l := range b.prog.Locs {
		if _, ok := l.Act.(*AtomicBegin); !ok || l.Atomic || len(l.Succs) != 1 {
			continue
		}
		if words == nil {
			words = b.tasWords()
			if len(words) == 0 {
				return false
			}
		}
		if m := b.rewriteTAS(l, words); m != nil {
			done[m] = true
		}
	}
	if len(done) == 0 {
		return false
	}
	for _, l := range b.prog.Locs {
		a, ok := l.Act.(*Assign)
		if !ok || l.Atomic {
			continue
		}
		if c, ok := a.Src.(*Const); ok && c.Value == 0 && done[lockWordOf(a.Dst)] {
			l.Act = &Release{Lock: a.Dst, Custom: true}
		}
	}
	return true
}

// threadArm gives an arm of the rewritten section (last: its final
// location, after t := k and its copies) its own copy of the test that
// follows when the code after the section tests a copy of t at once
// (skips in between):
//
//	TAS(&lock, &cond); ...; r := cond; assume(r == 1) -> retry | assume(r != 1) -> exit
//
// The load is duplicated after last, followed by the test's assumes that
// hold for r = k (the others are left out), each
// leading to the original successors. This is exact: t, its copies and r
// are thread-local, no other thread writes them, and the duplicated
// actions are the original ones, so the arm reaches the original
// successors with the same states; a left-out assume would block on
// every execution through it. Without it, the spin loop's exit and its
// retry path merge with both arms, and neither the must-lockset nor
// reaching definitions (not path-sensitive) know that only the arm that
// took the lock leaves the loop. The original copies and test may be
// left without predecessors (dead code).
func (b *builder) threadArm(last *Loc, k int64, tref *VarRef, copies []*Loc, end *Loc) {
	val := map[*Var]int64{tref.Var: k}
	for _, c := range copies {
		val[threadLocalTarget(c.Act.(*Assign).Dst)] = k
	}
	// Follow skips to the test's load.
	l := end
	for steps := 0; ; steps++ {
		if steps > 8 || len(l.Succs) != 1 {
			return
		}
		l = l.Succs[0]
		if _, ok := l.Act.(*Skip); !ok {
			break
		}
	}
	load, ok := l.Act.(*Assign)
	if !ok || l.Template != last.Template || len(l.Succs) < 2 {
		return
	}
	r, ok := load.Dst.(*VarRef)
	src := threadLocalTarget(load.Src)
	if !ok || r.Var.Scope != Local || r.Var.IsCell() || src == nil || r.Var.Type != src.Type {
		return
	}
	rv, known := val[src]
	if !known {
		return
	}
	var keep []*Loc
	for _, s := range l.Succs {
		a, ok := s.Act.(*Assume)
		if !ok {
			return
		}
		v, ok := evalConst(a.Cond, r.Var, rv)
		if !ok {
			return
		}
		if v != 0 {
			keep = append(keep, s)
		}
	}
	// Duplicate: last -> load' -> kept assumes' -> original successors.
	for _, orig := range append([]*Loc(nil), last.Succs...) {
		unlink(last, orig)
	}
	prev := last
	n := b.newLocAt(l, &Assign{Dst: load.Dst, Src: load.Src})
	link(prev, n)
	for _, s := range keep {
		a := b.newLocAt(s, &Assume{Cond: s.Act.(*Assume).Cond})
		link(n, a)
		for _, x := range s.Succs {
			link(a, x)
		}
	}
}

// evalConst evaluates a comparison of r with a constant for r = k.
func evalConst(e Expr, r *Var, k int64) (int64, bool) {
	bin, ok := e.(*Binary)
	if !ok {
		return 0, false
	}
	x, ok1 := bin.X.(*VarRef)
	c, ok2 := bin.Y.(*Const)
	if !ok1 || !ok2 || x.Var != r {
		return 0, false
	}
	b := func(v bool) (int64, bool) {
		if v {
			return 1, true
		}
		return 0, true
	}
	switch bin.Op {
	case Eq:
		return b(k == c.Value)
	case Ne:
		return b(k != c.Value)
	}
	return 0, false
}
