package oracle

import "chorus/cfg"

// MakeRMWAtomic is a deliberate breakage for the oracle's mutation test:
// it wraps every read-modify-write of a global,
//
//	L1: t := g;  (checks and local assignments) ...;  Ln: g := f(t, locals)
//
// (a straight chain: each location the only successor of the previous and
// the only predecessor of the next), into AtomicBegin ... AtomicEnd, as if
// x++ on a global were atomic. It is unsound on purpose (another thread
// may write g between the read and the write) and is applied to the IR
// before analysis only, never before exploration. New locations get the
// next free IDs, so the IDs of existing locations, which the explorer's
// views are indexed by, do not change. It returns the number of wrapped
// read-modify-writes.
func MakeRMWAtomic(p *cfg.Program) int {
	n := 0
	for _, l1 := range append([]*cfg.Loc(nil), p.Locs...) {
		a, ok := l1.Act.(*cfg.Assign)
		if !ok || l1.Atomic || len(l1.Succs) != 1 {
			continue
		}
		t, ok := a.Dst.(*cfg.VarRef)
		if !ok || t.Var.Scope != cfg.Local || t.Var.IsCell() {
			continue
		}
		g := sharedTarget(a.Src)
		if g == nil || len(globalsRead(a.Src)) != 1 {
			continue
		}
		chain := []*cfg.Loc{l1}
		cur := l1
		var last *cfg.Loc
		for len(cur.Succs) == 1 {
			s := cur.Succs[0]
			if len(s.Preds) != 1 || s.Atomic || s == l1 {
				break
			}
			chain = append(chain, s)
			if w, ok := s.Act.(*cfg.Assign); ok && sharedTarget(w.Dst) == g && readsOnlyLocals(w.Src) {
				last = s
				break
			}
			local := false
			switch act := s.Act.(type) {
			case *cfg.CheckAct:
				local = readsOnlyLocals(act.Cond)
			case *cfg.Assign:
				d, ok := act.Dst.(*cfg.VarRef)
				local = ok && d.Var.Scope == cfg.Local && !d.Var.IsCell() && readsOnlyLocals(act.Src)
			case *cfg.Skip:
				local = true
			}
			if !local {
				break
			}
			cur = s
		}
		if last == nil {
			continue
		}
		wrapAtomic(p, chain)
		n++
	}
	return n
}

// sharedTarget is the global register or the single non-summary global
// cell e names directly, else nil.
func sharedTarget(e cfg.Expr) *cfg.Var {
	switch e := e.(type) {
	case *cfg.VarRef:
		if e.Var.Scope == cfg.Global && !e.Var.IsCell() {
			return e.Var
		}
	case *cfg.Deref:
		if len(e.Cells) == 1 && !e.Cells[0].Summary && e.Cells[0].Scope == cfg.Global {
			return e.Cells[0]
		}
	}
	return nil
}

// globalsRead lists the shared things e reads: global registers, and
// every memory access (a Deref may reach shared memory).
func globalsRead(e cfg.Expr) []cfg.Expr {
	var out []cfg.Expr
	var walk func(e cfg.Expr)
	walk = func(e cfg.Expr) {
		switch e := e.(type) {
		case *cfg.VarRef:
			if e.Var.Scope == cfg.Global {
				out = append(out, e)
			}
		case *cfg.Deref:
			out = append(out, e)
			walk(e.Addr)
		case *cfg.Unary:
			walk(e.X)
		case *cfg.Binary:
			walk(e.X)
			walk(e.Y)
		case *cfg.Cast:
			walk(e.X)
		}
	}
	walk(e)
	return out
}

func readsOnlyLocals(e cfg.Expr) bool { return len(globalsRead(e)) == 0 }

// wrapAtomic puts AtomicBegin before chain[0] and AtomicEnd after the
// last location of chain, and marks the chain atomic.
func wrapAtomic(p *cfg.Program, chain []*cfg.Loc) {
	first, last := chain[0], chain[len(chain)-1]
	tmpl := first.Template
	begin := &cfg.Loc{ID: len(p.Locs), Template: tmpl, Act: &cfg.AtomicBegin{}, Pos: first.Pos}
	p.Locs = append(p.Locs, begin)
	end := &cfg.Loc{ID: len(p.Locs), Template: tmpl, Act: &cfg.AtomicEnd{}, Pos: last.Pos, Atomic: true}
	p.Locs = append(p.Locs, end)
	tmpl.Locs = append(tmpl.Locs, begin, end)

	for _, pred := range first.Preds {
		for i, s := range pred.Succs {
			if s == first {
				pred.Succs[i] = begin
			}
		}
	}
	begin.Preds, first.Preds = first.Preds, []*cfg.Loc{begin}
	begin.Succs = []*cfg.Loc{first}
	if tmpl.Entry == first {
		tmpl.Entry = begin
	}

	for _, succ := range last.Succs {
		for i, s := range succ.Preds {
			if s == last {
				succ.Preds[i] = end
			}
		}
	}
	end.Succs, last.Succs = last.Succs, []*cfg.Loc{end}
	end.Preds = []*cfg.Loc{last}
	for _, l := range chain {
		l.Atomic = true
	}
}

// MakeCriticalSectionsAtomic is a deliberate breakage for the oracle's
// mutation test: it turns every critical section (from an acquire to the
// releases of the same lock) into an atomic section, as if holding a lock
// stopped every other thread rather than only those wanting the lock.
// Applied before analysis only. New locations get the next free IDs. It
// returns the number of critical sections wrapped; a section whose
// release cannot be matched (different lock expressions, a path leaving
// the template) is left alone.
func MakeCriticalSectionsAtomic(p *cfg.Program) int {
	n := 0
	for _, a := range append([]*cfg.Loc(nil), p.Locs...) {
		acq, ok := a.Act.(*cfg.Acquire)
		if !ok || a.Atomic || len(a.Succs) != 1 {
			continue
		}
		key := lockKey(acq.Lock)
		// The region: locations reachable from a's successor without
		// executing a release of the same lock.
		region := map[*cfg.Loc]bool{}
		var releases []*cfg.Loc
		work := []*cfg.Loc{a.Succs[0]}
		bad := false
		for len(work) > 0 && !bad {
			l := work[len(work)-1]
			work = work[:len(work)-1]
			if region[l] {
				continue
			}
			if rel, ok := l.Act.(*cfg.Release); ok && lockKey(rel.Lock) == key {
				if !containsLoc(releases, l) {
					releases = append(releases, l)
				}
				continue
			}
			if l == a || l.Atomic {
				bad = true // a loop back to the acquire, or an atomic section inside
				break
			}
			region[l] = true
			work = append(work, l.Succs...)
		}
		if bad || len(releases) == 0 {
			continue
		}
		tmpl := a.Template
		first := a.Succs[0]
		begin := &cfg.Loc{ID: len(p.Locs), Template: tmpl, Act: &cfg.AtomicBegin{}, Pos: first.Pos}
		p.Locs = append(p.Locs, begin)
		tmpl.Locs = append(tmpl.Locs, begin)
		a.Succs[0] = begin
		begin.Preds = []*cfg.Loc{a}
		begin.Succs = []*cfg.Loc{first}
		for i, pr := range first.Preds {
			if pr == a {
				first.Preds[i] = begin
			}
		}
		for _, r := range releases {
			end := &cfg.Loc{ID: len(p.Locs), Template: tmpl, Act: &cfg.AtomicEnd{}, Pos: r.Pos, Atomic: true}
			p.Locs = append(p.Locs, end)
			tmpl.Locs = append(tmpl.Locs, end)
			var outside []*cfg.Loc
			for _, pr := range r.Preds {
				if region[pr] || pr == begin {
					for i, s := range pr.Succs {
						if s == r {
							pr.Succs[i] = end
						}
					}
					end.Preds = append(end.Preds, pr)
				} else {
					outside = append(outside, pr)
				}
			}
			r.Preds = append(outside, end)
			end.Succs = []*cfg.Loc{r}
		}
		for l := range region {
			l.Atomic = true
		}
		n++
	}
	return n
}

// lockKey identifies a lock word by the cells its lvalue may denote.
func lockKey(lv cfg.LValue) string {
	switch lv := lv.(type) {
	case *cfg.VarRef:
		return lv.Var.Name
	case *cfg.Deref:
		s := ""
		for _, c := range lv.Cells {
			s += c.Name + ","
		}
		return s
	}
	return ""
}

func containsLoc(ls []*cfg.Loc, l *cfg.Loc) bool {
	for _, x := range ls {
		if x == l {
			return true
		}
	}
	return false
}

// DropReturnEdges is a deliberate breakage for the oracle's mutation test:
// it removes the edges from every shared body's exit to its return sites
// (cfg.Body), as if calls of shared bodies never returned; the code after
// such a call becomes unreachable for the analysis while the explorer runs
// it. The IR no longer passes cfg.Sanity; it is applied before analysis
// only.
func DropReturnEdges(p *cfg.Program) int {
	n := 0
	for _, bd := range p.Bodies {
		for _, r := range bd.Returns {
			for i, s := range bd.Exit.Succs {
				if s == r {
					bd.Exit.Succs = append(bd.Exit.Succs[:i:i], bd.Exit.Succs[i+1:]...)
					n++
					break
				}
			}
			for i, q := range r.Preds {
				if q == bd.Exit {
					r.Preds = append(r.Preds[:i:i], r.Preds[i+1:]...)
					break
				}
			}
		}
	}
	return n
}
