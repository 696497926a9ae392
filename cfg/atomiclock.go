package cfg

// Locks built from atomic sections (the SV-COMP idiom):
//
//	void __VERIFIER_atomic_acquire() { assume(m == 0); m = 1; }   // or if (!(m==0)) abort();
//	void __VERIFIER_atomic_release() { assume(m == 1); m = 0; }
//
// An atomic section whose only live effect is "m is 0, set it to 1" is
// lowered as Acquire(m), and one whose only live effect is "m is 1, set
// it to 0" as assume(m == 1); Release(m) with Release.Custom set, so the
// must-lockset, lock-protected cells and relays (package interference)
// apply to them as to pthread mutexes.
//
// Why the rewritten program over-approximates the original. The section
// reads m (into temporaries), branches on the value, and either sets m or
// stops the thread (abort, a failed assume: a dead end). After the
// rewrite the read is an ordinary read, the stopping arm stays as it is,
// and the write becomes Acquire (wait until m == 0, then set 1 in one
// step) or assume(m == 1); Release. Every execution of the original maps
// to one of the rewritten program: the atomic read-test-write happens as
// a read immediately followed by the Acquire (m still 0) or by the assume
// and the Release (m still 1), with no other thread moving in between; a
// thread stopping in the section stops on the same arm. The rewritten
// program has more executions (others may move between the read and the
// write; a thread may wait at Acquire), never fewer.
//
// What the rewrite does not give: pthread's rule that only the holder
// unlocks a mutex. A custom release may release another thread's lock,
// so the interference package uses a custom lock only when the
// must-lockset shows every Release.Custom of it made by a thread that
// holds it (interference/lockset.go).

// atomicLocks rewrites the atomic-section locks of every template. It
// runs after atomicFlags (it needs to know which sections are not nested
// in another one) and recomputes them.
func (b *builder) atomicLocks() {
	changed := false
	for _, l := range b.prog.Locs {
		if _, ok := l.Act.(*AtomicBegin); !ok || l.Atomic || len(l.Succs) != 1 {
			continue
		}
		if b.rewriteAtomicLock(l) {
			changed = true
		}
	}
	if b.tasLocks() { // taslock.go
		changed = true
	}
	if changed {
		b.atomicFlags()
	}
}

// deadEnd reports whether a thread at l can only stop: l and everything
// after it are assumes or skips (no effect) ending without successors.
func deadEnd(l *Loc, depth int) bool {
	if depth > 8 {
		return false
	}
	switch l.Act.(type) {
	case *Assume, *Skip:
	default:
		return false
	}
	for _, s := range l.Succs {
		if !deadEnd(s, depth+1) {
			return false
		}
	}
	return true
}

// lockWordOf returns the global word e denotes when it is exactly one
// non-summary global register or a faithful single-cell access of one.
func lockWordOf(e Expr) *Var {
	if v := StrongTarget(e); v != nil && v.Scope == Global && v.Type.Kind == IntType {
		return v
	}
	return nil
}

// rewriteAtomicLock matches the section starting at begin:
//
//	atomic_begin; { t := m | skip }*; assume(t == k) (other arm a dead end); { skip }*;
//	m := 1-k; atomic_end
//
// with k = 0 (acquire) or k = 1 (release), where the assume may also
// test m itself, and rewrites it in place.
func (b *builder) rewriteAtomicLock(begin *Loc) bool {
	var word *Var
	var wordLV LValue
	copies := map[*Var]bool{} // local registers holding m's value read in the section
	isWord := func(e Expr) bool {
		e = stripWidening(e)
		if v, ok := e.(*VarRef); ok && copies[v.Var] {
			return true
		}
		return word != nil && lockWordOf(e) == word
	}
	var test *Loc
	k := int64(-1)
	var chain []*Loc
	l := begin.Succs[0]
	for steps := 0; steps < 16; steps++ {
		if len(l.Preds) != 1 || l.Template != begin.Template {
			return false
		}
		chain = append(chain, l)
		next := l.Succs
		switch a := l.Act.(type) {
		case *Skip:
		case *Assign:
			dst, ok := a.Dst.(*VarRef)
			w := lockWordOf(a.Src)
			switch {
			case ok && dst.Var.Scope == Local && !dst.Var.IsCell() && w != nil && (word == nil || w == word) && test == nil:
				word = w
				copies[dst.Var] = true
			case lockWordOf(a.Dst) != nil && lockWordOf(a.Dst) == word && test != nil:
				c, ok := a.Src.(*Const)
				if !ok || c.Value != 1-k {
					return false
				}
				wordLV = a.Dst.(LValue)
				if len(l.Succs) != 1 {
					return false
				}
				end := l.Succs[0]
				if _, ok := end.Act.(*AtomicEnd); !ok || len(end.Preds) != 1 {
					return false
				}
				// Matched: rewrite.
				for _, x := range chain[:len(chain)-1] {
					if x == test && k == 1 {
						continue // keep assume(m == 1) before the release
					}
					if _, ok := x.Act.(*Assume); ok {
						x.Act = &Skip{}
					}
				}
				if k == 0 {
					l.Act = &Acquire{Lock: wordLV}
				} else {
					l.Act = &Release{Lock: wordLV, Custom: true}
				}
				begin.Act = &Skip{}
				end.Act = &Skip{}
				return true
			default:
				return false
			}
		case *Assume:
			if test != nil {
				return false
			}
			bin, ok := a.Cond.(*Binary)
			if !ok || bin.Op != Eq {
				return false
			}
			var c *Const
			switch {
			case isWord(bin.X):
				c, _ = bin.Y.(*Const)
			case isWord(bin.Y):
				c, _ = bin.X.(*Const)
			}
			if c == nil || (c.Value != 0 && c.Value != 1) {
				return false
			}
			if word == nil {
				word = lockWordOf(stripWidening(bin.X))
				if word == nil {
					word = lockWordOf(stripWidening(bin.Y))
				}
			}
			test, k = l, c.Value
		default:
			return false
		}
		// Follow the one live successor; the others must be dead ends.
		var live *Loc
		for _, s := range next {
			if deadEnd(s, 0) {
				continue
			}
			if live != nil {
				return false
			}
			live = s
		}
		if live == nil {
			return false
		}
		l = live
	}
	return false
}

// stripWidening removes integer casts to a type at least as wide as the
// operand's (a _Bool or char lock word compared as int: (i32)t == 1).
// Such a cast is injective and maps 0 and 1 to themselves, so
// (T)x == k holds exactly when x == k for k in {0, 1}: the test reads the
// same as on the word itself.
func stripWidening(e Expr) Expr {
	for {
		c, ok := e.(*Cast)
		if !ok || c.Type.Kind != IntType {
			return e
		}
		in := c.X.ExprType()
		if in.Kind != IntType || (c.Type.Bits != 0 && (in.Bits == 0 || in.Bits > c.Type.Bits)) {
			return e
		}
		e = c.X
	}
}
