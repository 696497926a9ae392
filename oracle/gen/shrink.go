package gen

import "slices"

// Shrink returns a smallest program it can find for which failing still
// holds, starting from p (which is not modified). If failing(p) is false,
// p is returned.
//
// Greedy delta debugging, one edit at a time, deterministic: edits are
// tried in a fixed order — drop a thread template (with its spawns and
// joins), drop half or a quarter of a block, drop a statement, replace a compound statement by a part of it,
// lower a loop bound or spawn count to 1, inline an atomic function, make
// an unsigned char an int, drop an unused thread argument, simplify an expression to one of
// its leaves or a side of && / ||, a constant to 0, narrow a nondet range,
// drop an unused global, local or mutex — and an edit is kept when the
// result is strictly smaller (Size) and still failing. Passes repeat until
// one keeps nothing. Every edit keeps the program well formed: joins whose
// spawn is gone are dropped, and no edit creates a wider arithmetic form,
// so the no-overflow bound (MaxMagnitude) still holds.
func Shrink(p *Prog, failing func(*Prog) bool) *Prog {
	if !failing(p) {
		return p
	}
	for {
		progress := false
		for i := 0; ; i++ {
			cands := candidates(p)
			if i >= len(cands) {
				break
			}
			q := cands[i]()
			if q == nil || q.Size() >= p.Size() || !failing(q) {
				continue
			}
			p = q
			progress = true
			i-- // the list changed; the same index now names the next edit
		}
		if !progress {
			return p
		}
	}
}

// Size measures a program for shrinking: nodes plus the magnitude of
// constants, bounds and ranges, so every simplification lowers it.
func (p *Prog) Size() int {
	n := len(p.Mutexes) + len(p.Threads)
	for _, t := range p.Threads {
		if t.ArgPtr {
			n++
		}
	}
	if p.InitMutexes {
		n++
	}
	vars := func(vs []*Var) {
		for _, v := range vs {
			n += 1 + int(abs(v.Init))
			if v.Byte {
				n++
			}
		}
	}
	vars(p.Globals)
	var expr func(e Expr)
	expr = func(e Expr) {
		n++
		switch e := e.(type) {
		case *Const:
			n += int(abs(e.V))
		case *Bin:
			expr(e.L)
			expr(e.R)
		case *Not:
			expr(e.X)
		}
	}
	for _, fn := range p.Funcs() {
		vars(fn.Locals)
		walkStmts(fn.Body, func(s Stmt) {
			n++
			switch s := s.(type) {
			case *Assign:
				expr(s.RHS)
			case *Havoc:
				n += int(s.Hi-s.Lo) + int(abs(s.Lo)+abs(s.Hi))
			case *Assume:
				expr(s.Cond)
			case *Assert:
				expr(s.Cond)
				n += int(s.Form)
			case *If:
				expr(s.Cond)
			case *Loop:
				n += s.Bound - 1
			case *Lock:
				if s.ViaPtr {
					n++
				}
			case *Atomic:
				if s.AsFunc {
					n++
				}
			case *Spawn:
				n += s.Count - 1
				if s.Arg != "" {
					n++
				}
			case *Call:
				for _, a := range s.Args {
					expr(a)
				}
				if s.LHS != "" {
					n++
				}
			}
		})
	}
	return n
}

func abs(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// candidates lists the edits of p in the order Shrink tries them; each
// returns a new program, or nil when it does not apply.
func candidates(p *Prog) []func() *Prog {
	var out []func() *Prog
	for _, t := range p.Threads {
		out = append(out, func() *Prog { return p.removeThread(t.Name) })
	}
	// Halves, then quarters, of every block of 4 or more statements: fewer
	// predicate calls when much of a block is irrelevant.
	for _, blk := range p.blocks() {
		for parts := 2; parts <= 4 && len(blk) >= 2*parts; parts *= 2 {
			for i := range parts {
				lo, hi := i*len(blk)/parts, (i+1)*len(blk)/parts
				out = append(out, func() *Prog { return p.deleteStmts(blk[lo:hi]) })
			}
		}
	}
	var stmts []Stmt
	p.Walk(func(_ *Func, s Stmt) { stmts = append(stmts, s) })
	for k := range stmts {
		out = append(out, func() *Prog { return p.rewrite(k, func(Stmt) []Stmt { return nil }) })
	}
	for k, s := range stmts {
		switch s.(type) {
		case *If:
			out = append(out,
				func() *Prog { return p.rewrite(k, func(s Stmt) []Stmt { return s.(*If).Then }) },
				func() *Prog { return p.rewrite(k, func(s Stmt) []Stmt { return s.(*If).Else }) },
				func() *Prog {
					return p.rewrite(k, func(s Stmt) []Stmt { s.(*If).Else = nil; return []Stmt{s} })
				})
		case *Loop, *Lock, *Atomic:
			out = append(out, func() *Prog { return p.rewrite(k, func(s Stmt) []Stmt { return children(s)[0] }) })
		}
	}
	for k, s := range stmts {
		edit := func(f func(Stmt)) {
			out = append(out, func() *Prog { return p.rewrite(k, func(s Stmt) []Stmt { f(s); return []Stmt{s} }) })
		}
		switch s := s.(type) {
		case *Loop:
			if s.Bound > 1 {
				edit(func(s Stmt) { s.(*Loop).Bound = 1 })
			}
		case *Spawn:
			if s.Count > 1 {
				edit(func(s Stmt) { s.(*Spawn).Count = 1 })
			}
		case *Lock:
			if s.ViaPtr {
				edit(func(s Stmt) { s.(*Lock).ViaPtr = false })
			}
		case *Atomic:
			if s.AsFunc {
				edit(func(s Stmt) { s.(*Atomic).AsFunc = false })
			}
		case *Assert:
			if s.Form != VerifierAssert {
				edit(func(s Stmt) { s.(*Assert).Form = VerifierAssert })
			}
		case *Havoc:
			if s.Lo != s.Hi {
				edit(func(s Stmt) { h := s.(*Havoc); h.Hi = h.Lo })
				edit(func(s Stmt) { h := s.(*Havoc); h.Lo = h.Hi })
			}
		}
		for i, e := range Exprs(s) {
			if _, isAssign := s.(*Assign); isAssign && i == 0 {
				continue // the left-hand side
			}
			if c, isCall := s.(*Call); isCall && i >= len(c.Args) {
				continue // the left-hand side
			}
			for j := range simpler(e) {
				edit(func(s Stmt) { setExprAt(s, i, simpler(exprAt(s, i))[j]) })
			}
		}
	}
	for i, v := range p.Globals {
		out = append(out, func() *Prog {
			if p.uses(v.Name) {
				return nil
			}
			q := p.Clone()
			q.Globals = slices.Delete(q.Globals, i, i+1)
			return q
		}, func() *Prog {
			q := p.Clone()
			q.Globals[i].Init = 0
			return q
		}, func() *Prog {
			q := p.Clone()
			q.Globals[i].Byte = false
			return q
		})
	}
	for fi, fn := range p.Funcs() {
		for i, v := range fn.Locals {
			out = append(out, func() *Prog {
				if p.uses(v.Name, fn) {
					return nil
				}
				q := p.Clone()
				f := q.Funcs()[fi]
				f.Locals = slices.Delete(f.Locals, i, i+1)
				return q
			}, func() *Prog {
				q := p.Clone()
				q.Funcs()[fi].Locals[i].Init = 0
				return q
			}, func() *Prog {
				q := p.Clone()
				q.Funcs()[fi].Locals[i].Byte = false
				return q
			})
		}
	}
	for ti, th := range p.Threads {
		out = append(out, func() *Prog {
			if !th.ArgPtr || p.uses(ArgDeref, th) {
				return nil
			}
			q := p.Clone()
			q.Threads[ti].ArgPtr = false
			for _, fn := range q.Funcs() {
				for _, s := range fn.Body {
					if sp, ok := s.(*Spawn); ok && sp.Thread == th.Name {
						sp.Arg = ""
					}
				}
			}
			return q
		})
	}
	for i, m := range p.Mutexes {
		out = append(out, func() *Prog {
			used := false
			p.Walk(func(_ *Func, s Stmt) {
				if l, ok := s.(*Lock); ok && l.Mutex == m {
					used = true
				}
			})
			if used {
				return nil
			}
			q := p.Clone()
			q.Mutexes = slices.Delete(q.Mutexes, i, i+1)
			return q
		})
	}
	out = append(out, func() *Prog {
		q := p.Clone()
		q.InitMutexes = false
		return q
	})
	return out
}

// uses reports whether a variable called name is read or written in the
// given functions (all when none are given).
func (p *Prog) uses(name string, fns ...*Func) bool {
	if len(fns) == 0 {
		fns = p.Funcs()
	}
	used := false
	for _, fn := range fns {
		walkStmts(fn.Body, func(s Stmt) {
			for _, e := range Exprs(s) {
				if slices.Contains(Refs(e), name) {
					used = true
				}
			}
		})
	}
	return used
}

// simpler lists the simplifications of e: a side of && / ||, the operand of
// !, any variable or constant leaf (a copy never widens arithmetic), and 0
// for a nonzero constant.
func simpler(e Expr) []Expr {
	var out []Expr
	switch e := e.(type) {
	case *Const:
		if e.V != 0 {
			out = append(out, &Const{0})
		}
		return out
	case *Ref:
		return nil
	case *Bin:
		if e.Op == "&&" || e.Op == "||" {
			out = append(out, e.L, e.R)
		}
	case *Not:
		out = append(out, e.X)
	}
	var leaves func(Expr)
	leaves = func(x Expr) {
		switch x := x.(type) {
		case *Const, *Ref:
			out = append(out, x)
		case *Bin:
			leaves(x.L)
			leaves(x.R)
		case *Not:
			leaves(x.X)
		}
	}
	leaves(e)
	return out
}

// exprAt returns the i-th of Exprs(s).
func exprAt(s Stmt, i int) Expr { return Exprs(s)[i] }

// setExpr replaces the editable expression of s (the right-hand side or
// the condition).
func setExpr(s Stmt, e Expr) {
	e = cloneExpr(e)
	switch s := s.(type) {
	case *Assign:
		s.RHS = e
	case *Assume:
		s.Cond = e
	case *Assert:
		s.Cond = e
	case *If:
		s.Cond = e
	}
}

// setExprAt replaces the i-th of Exprs(s): a call's argument, or else the
// editable expression (setExpr).
func setExprAt(s Stmt, i int, e Expr) {
	if c, ok := s.(*Call); ok {
		if i < len(c.Args) {
			c.Args[i] = cloneExpr(e)
		}
		return
	}
	setExpr(s, e)
}

// rewrite returns a copy of p whose k-th statement (pre-order, as Walk) is
// replaced by f of its copy, with dangling joins removed.
func (p *Prog) rewrite(k int, f func(Stmt) []Stmt) *Prog {
	q := p.Clone()
	i := 0
	var rec func(b []Stmt) []Stmt
	rec = func(b []Stmt) []Stmt {
		var out []Stmt
		for _, s := range b {
			if i > k {
				out = append(out, s)
				continue
			}
			if i == k {
				i++
				out = append(out, f(s)...)
				continue
			}
			i++
			switch s := s.(type) {
			case *If:
				s.Then, s.Else = rec(s.Then), rec(s.Else)
			case *Loop:
				s.Body = rec(s.Body)
			case *Lock:
				s.Body = rec(s.Body)
			case *Atomic:
				s.Body = rec(s.Body)
			}
			out = append(out, s)
		}
		return out
	}
	for _, fn := range q.Funcs() {
		fn.Body = rec(fn.Body)
	}
	if i <= k {
		return nil
	}
	q.dropDanglingJoins()
	return q
}

// blocks returns, for every statement list of p (function bodies and
// nested blocks, in pre-order), the pre-order indices of its statements.
func (p *Prog) blocks() [][]int {
	var out [][]int
	i := 0
	var rec func(b []Stmt)
	rec = func(b []Stmt) {
		idx := make([]int, 0, len(b))
		for _, s := range b {
			idx = append(idx, i)
			i++
			for _, c := range children(s) {
				rec(c)
			}
		}
		out = append(out, idx)
	}
	for _, fn := range p.Funcs() {
		rec(fn.Body)
	}
	return out
}

// deleteStmts returns a copy of p without the statements of the given
// pre-order indices (and what they contain), with dangling joins removed.
func (p *Prog) deleteStmts(indices []int) *Prog {
	del := map[int]bool{}
	for _, k := range indices {
		del[k] = true
	}
	q := p.Clone()
	i := 0
	var rec func(b []Stmt) []Stmt
	rec = func(b []Stmt) []Stmt {
		var out []Stmt
		for _, s := range b {
			k := i
			i++
			// Count the nested statements even when s goes, so later
			// indices stay the pre-order indices of p.
			switch s := s.(type) {
			case *If:
				s.Then, s.Else = rec(s.Then), rec(s.Else)
			case *Loop:
				s.Body = rec(s.Body)
			case *Lock:
				s.Body = rec(s.Body)
			case *Atomic:
				s.Body = rec(s.Body)
			}
			if !del[k] {
				out = append(out, s)
			}
		}
		return out
	}
	for _, fn := range q.Funcs() {
		fn.Body = rec(fn.Body)
	}
	q.dropDanglingJoins()
	return q
}

// removeThread returns a copy of p without the template and its spawns.
func (p *Prog) removeThread(name string) *Prog {
	q := p.Clone()
	q.Threads = slices.DeleteFunc(q.Threads, func(f *Func) bool { return f.Name == name })
	for _, fn := range q.Funcs() { // spawns are only at the top level
		fn.Body = slices.DeleteFunc(fn.Body, func(s Stmt) bool {
			sp, ok := s.(*Spawn)
			return ok && sp.Thread == name
		})
	}
	q.dropDanglingJoins()
	return q
}

// dropDanglingJoins removes joins not preceded by their spawn at the top
// level of the same function (joining a thread never created would block
// forever).
func (p *Prog) dropDanglingJoins() {
	for _, fn := range p.Funcs() {
		spawned := map[string]bool{}
		fn.Body = slices.DeleteFunc(fn.Body, func(s Stmt) bool {
			switch s := s.(type) {
			case *Spawn:
				spawned[s.Handle] = true
			case *Join:
				return !spawned[s.Handle]
			}
			return false
		})
	}
}
