package cfg

import (
	"errors"
	"fmt"
	"sort"
)

// Sanity checks the structural invariants of a lowered program (in the
// spirit of go/ssa's sanity.go) and returns all violations found (nil when
// the program is well formed):
//
//   - Vars, Objects, Locs, Checks, Templates have dense IDs;
//   - Succs and Preds mirror each other; every location belongs to its
//     template and is listed in it; Exit has no successors; main's entry is
//     the only InitGlobals;
//   - Local variables are used only in their template and listed in its
//     Locals; registers are accessed directly, cells only through Deref;
//   - every Deref has cells, all memory cells;
//   - at most one shared access (a Global register, or a Deref touching a
//     Global-scope cell) per location outside atomic sections;
//   - types agree (comparisons yield Bool, PtrAdd takes a pointer and an
//     integer, Assign source matches the destination type);
//   - each Check's Loc points back to a CheckAct of that check;
//   - Atomic flags agree with AtomicBegin/AtomicEnd nesting along edges;
//   - shared bodies (Body): dense IDs; call site k is RetSite := k with the
//     body's entry as only successor; return site k has the exit as only
//     predecessor, assumes RetSite == k and has one successor of its own,
//     the landing location, whose Return points back to call site k and
//     the body; only landing locations carry Return; Mod is sorted and
//     holds every variable (ModVars) written or constrained along the
//     body's walk and the Mod of every body called from it.
func Sanity(p *Program) error {
	s := &sanity{p: p}
	s.run()
	if len(s.errs) == 0 {
		return nil
	}
	if len(s.errs) > 20 {
		s.errs = append(s.errs[:20], fmt.Errorf("... and %d more", len(s.errs)-20))
	}
	return errors.Join(s.errs...)
}

type sanity struct {
	p    *Program
	errs []error
}

func (s *sanity) errorf(format string, args ...any) {
	s.errs = append(s.errs, fmt.Errorf(format, args...))
}

func (s *sanity) run() {
	p := s.p
	for i, v := range p.Vars {
		if v.ID != i {
			s.errorf("Vars[%d] has ID %d", i, v.ID)
		}
		if v.Scope == Local && v.Template == nil {
			s.errorf("local %s has no template", v.Name)
		}
		if v.Scope == Global && v.Template != nil {
			s.errorf("global %s has a template", v.Name)
		}
		if v.Mem != nil && v.Mem.ID < len(p.Objects) && p.Objects[v.Mem.ID] != v.Mem {
			s.errorf("cell %s: object not in Objects", v.Name)
		}
	}
	for i, o := range p.Objects {
		if o.ID != i {
			s.errorf("Objects[%d] has ID %d", i, o.ID)
		}
		for _, c := range o.Cells {
			if c.Mem != o {
				s.errorf("object %s lists cell %s of another object", o.Name, c.Name)
			}
		}
		if o.Kind == LocalObject && o.Template == nil {
			s.errorf("local object %s has no template", o.Name)
		}
	}
	for i, c := range p.Checks {
		if c.ID != i {
			s.errorf("Checks[%d] has ID %d", i, c.ID)
		}
		if c.Loc == nil {
			s.errorf("check %d has no location", i)
			continue
		}
		if ca, ok := c.Loc.Act.(*CheckAct); !ok || ca.Check != c {
			s.errorf("check %d: %v does not hold its CheckAct", i, c.Loc)
		}
	}
	if len(p.Templates) == 0 {
		s.errorf("no templates")
		return
	}
	if p.Templates[0].Unbounded {
		s.errorf("main is unbounded")
	}
	localsOf := map[*Var]*Template{}
	inTmpl := map[*Loc]*Template{}
	for i, t := range p.Templates {
		if t.ID != i {
			s.errorf("Templates[%d] has ID %d", i, t.ID)
		}
		if t.Entry == nil || t.Exit == nil {
			s.errorf("template %s lacks entry or exit", t.Name)
			continue
		}
		if t.Entry.Template != t || t.Exit.Template != t {
			s.errorf("template %s: entry/exit in another template", t.Name)
		}
		if len(t.Exit.Succs) != 0 {
			s.errorf("template %s: exit %v has successors", t.Name, t.Exit)
		}
		if len(t.Entry.Preds) != 0 {
			// Code put after the entry (thread-local initial values,
			// cfg/tls.go) runs once per thread only if no path returns to it.
			s.errorf("template %s: entry %v has predecessors", t.Name, t.Entry)
		}
		_, isInit := t.Entry.Act.(*InitGlobals)
		if (i == 0) != isInit {
			s.errorf("template %s: entry action %T", t.Name, t.Entry.Act)
		}
		if t.Param != nil && (t.Param.Template != t || t.Param.IsCell()) {
			s.errorf("template %s: param %s not a local register of it", t.Name, t.Param.Name)
		}
		for _, l := range t.Locs {
			if inTmpl[l] != nil {
				s.errorf("%v listed in two templates", l)
			}
			inTmpl[l] = t
		}
		for _, v := range t.Locals {
			if v.Template != t || v.Scope != Local {
				s.errorf("template %s lists %s which is not its local", t.Name, v.Name)
			}
			localsOf[v] = t
		}
	}
	for i, l := range p.Locs {
		if l.ID != i {
			s.errorf("Locs[%d] has ID %d", i, l.ID)
		}
		if inTmpl[l] != l.Template {
			s.errorf("%v: not listed in its template", l)
		}
		if l.Act == nil {
			s.errorf("%v: no action", l)
			continue
		}
		if _, ok := l.Act.(*InitGlobals); ok && l != p.Templates[0].Entry {
			s.errorf("%v: InitGlobals outside main's entry", l)
		}
		for _, n := range l.Succs {
			if n.Template != l.Template {
				s.errorf("%v -> %v crosses templates", l, n)
			}
			if !contains(n.Preds, l) {
				s.errorf("%v -> %v: missing pred", l, n)
			}
		}
		for _, n := range l.Preds {
			if !contains(n.Succs, l) {
				s.errorf("%v <- %v: missing succ", l, n)
			}
		}
		s.action(l, localsOf)
	}
	s.atomicNesting()
	s.bodies()
}

// bodies checks the shared-body invariants (see Sanity).
func (s *sanity) bodies() {
	p := s.p
	isRet := map[*Loc]bool{}
	for i, bd := range p.Bodies {
		if bd.ID != i {
			s.errorf("Bodies[%d] has ID %d", i, bd.ID)
		}
		if bd.Entry == nil || bd.Exit == nil || bd.RetSite == nil {
			s.errorf("body %d (%s) lacks entry, exit or return register", i, bd.Func)
			continue
		}
		if bd.Entry.Template != bd.Template || bd.Exit.Template != bd.Template || bd.RetSite.Template != bd.Template || bd.RetSite.IsCell() {
			s.errorf("body %s: entry, exit or return register outside template %s", bd.Func, tmplName(bd.Template))
		}
		if len(bd.Calls) != len(bd.Returns) {
			s.errorf("body %s: %d calls, %d returns", bd.Func, len(bd.Calls), len(bd.Returns))
			continue
		}
		if len(bd.Exit.Succs) != len(bd.Returns) {
			s.errorf("body %s: exit has %d successors for %d returns", bd.Func, len(bd.Exit.Succs), len(bd.Returns))
		}
		for k, c := range bd.Calls {
			r := bd.Returns[k]
			want := int64(k + 1)
			if a, ok := c.Act.(*Assign); !ok || !isVarRef(a.Dst, bd.RetSite) || !isConst(a.Src, want) {
				s.errorf("body %s: call site %v is not %s := %d", bd.Func, c, bd.RetSite.Name, want)
			}
			if len(c.Succs) != 1 || c.Succs[0] != bd.Entry {
				s.errorf("body %s: call site %v does not go only to the entry", bd.Func, c)
			}
			if len(r.Preds) != 1 || r.Preds[0] != bd.Exit {
				s.errorf("body %s: return site %v is not entered only from the exit", bd.Func, r)
			}
			if len(r.Succs) != 1 || len(r.Succs[0].Preds) != 1 {
				s.errorf("body %s: return site %v has no landing location of its own", bd.Func, r)
			} else if land := r.Succs[0]; land.Return == nil || land.Return.Body != bd || land.Return.Call != c {
				s.errorf("body %s: landing %v of return site %v does not point back to call %v", bd.Func, land, r, c)
			} else {
				isRet[land] = true
			}
			a, ok := r.Act.(*Assume)
			var bin *Binary
			if ok {
				bin, ok = a.Cond.(*Binary)
			}
			if !ok || bin.Op != Eq || !isVarRef(bin.X, bd.RetSite) || !isConst(bin.Y, want) {
				s.errorf("body %s: return site %v is not assume(%s == %d)", bd.Func, r, bd.RetSite.Name, want)
			}
		}
		for j := 1; j < len(bd.Mod); j++ {
			if bd.Mod[j-1].ID >= bd.Mod[j].ID {
				s.errorf("body %s: Mod not sorted", bd.Func)
				break
			}
		}
	}
	for _, l := range p.Locs {
		if l.Return != nil && !isRet[l] {
			s.errorf("%v: Return set on a location that is not the landing of a listed return site", l)
		}
	}
	calls := callReturns(p)
	for _, bd := range p.Bodies {
		if bd.Entry == nil || bd.Exit == nil {
			continue
		}
		in := func(v *Var) bool {
			i := sort.Search(len(bd.Mod), func(i int) bool { return bd.Mod[i].ID >= v.ID })
			return i < len(bd.Mod) && bd.Mod[i] == v
		}
		for _, l := range bodyWalk(bd, calls) {
			for _, v := range ModVars(l.Act) {
				if !in(v) {
					s.errorf("body %s: %v writes or constrains %s, missing from Mod", bd.Func, l, v.Name)
				}
			}
			if c, ok := calls[l]; ok && c.body != bd {
				for _, v := range c.body.Mod {
					if !in(v) {
						s.errorf("body %s: callee %s's Mod has %s, missing from Mod", bd.Func, c.body.Func, v.Name)
					}
				}
			}
		}
	}
}

func isVarRef(e Expr, v *Var) bool {
	r, ok := e.(*VarRef)
	return ok && r.Var == v
}

func isConst(e Expr, k int64) bool {
	c, ok := e.(*Const)
	return ok && c.Value == k
}

func contains(ls []*Loc, l *Loc) bool {
	for _, x := range ls {
		if x == l {
			return true
		}
	}
	return false
}

// action checks one location's action.
func (s *sanity) action(l *Loc, localsOf map[*Var]*Template) {
	shared := 0
	var expr func(e Expr, asLValue bool)
	useVar := func(v *Var) {
		if v.Scope == Local {
			if v.Template != l.Template {
				s.errorf("%v: local %s of template %v used in %s", l, v.Name, tmplName(v.Template), l.Template.Name)
			}
		} else {
			shared++
		}
	}
	expr = func(e Expr, asLValue bool) {
		switch x := e.(type) {
		case nil:
			s.errorf("%v: nil expression", l)
		case *Const:
		case *VarRef:
			if x.Var.IsCell() {
				s.errorf("%v: cell %s accessed directly", l, x.Var.Name)
			}
			useVar(x.Var)
		case *Deref:
			if len(x.Cells) == 0 {
				s.errorf("%v: Deref without cells", l)
			}
			g := false
			for _, c := range x.Cells {
				if !c.IsCell() {
					s.errorf("%v: Deref cell %s is a register", l, c.Name)
				}
				if c.Scope == Local && c.Template != l.Template {
					s.errorf("%v: local cell %s of another template", l, c.Name)
				}
				if c.Scope == Global {
					g = true
				}
			}
			if g {
				shared++
			}
			if x.Addr.ExprType().Kind != PtrType {
				s.errorf("%v: Deref address of type %v", l, x.Addr.ExprType())
			}
			expr(x.Addr, false)
		case *AddrOf:
			if x.Type.Kind != PtrType {
				s.errorf("%v: AddrOf of type %v", l, x.Type)
			}
		case *Unary:
			expr(x.X, false)
			if x.Op == Not && x.Type != Bool {
				s.errorf("%v: ! of type %v", l, x.Type)
			}
		case *Binary:
			expr(x.X, false)
			expr(x.Y, false)
			switch {
			case isCmp(x.Op):
				if x.Type != Bool {
					s.errorf("%v: comparison of type %v", l, x.Type)
				}
			case x.Op == PtrAdd:
				if x.X.ExprType().Kind != PtrType || !x.Y.ExprType().IsInt() || x.Type.Kind != PtrType {
					s.errorf("%v: PtrAdd(%v, %v) %v", l, x.X.ExprType(), x.Y.ExprType(), x.Type)
				}
			case x.Op == PtrSub:
				if x.X.ExprType().Kind != PtrType || x.Y.ExprType().Kind != PtrType || !x.Type.IsInt() {
					s.errorf("%v: PtrSub of %v, %v", l, x.X.ExprType(), x.Y.ExprType())
				}
			case x.Op == Shl || x.Op == Shr:
				if x.X.ExprType() != x.Type {
					s.errorf("%v: shift of %v in %v", l, x.X.ExprType(), x.Type)
				}
			default:
				if x.X.ExprType() != x.Type || x.Y.ExprType() != x.Type {
					s.errorf("%v: %v operands %v, %v in %v", l, x.Op, x.X.ExprType(), x.Y.ExprType(), x.Type)
				}
			}
		case *Cast:
			expr(x.X, false)
		default:
			s.errorf("%v: unknown expression %T", l, e)
		}
	}
	lvalue := func(d LValue) {
		if d == nil {
			s.errorf("%v: nil lvalue", l)
			return
		}
		expr(d, true)
	}
	switch x := l.Act.(type) {
	case *Assign:
		lvalue(x.Dst)
		expr(x.Src, false)
		if x.Dst != nil && x.Src != nil && x.Dst.ExprType() != x.Src.ExprType() {
			s.errorf("%v: assign %v := %v", l, x.Dst.ExprType(), x.Src.ExprType())
		}
	case *Assume:
		expr(x.Cond, false)
	case *Havoc:
		lvalue(x.Dst)
	case *CheckAct:
		expr(x.Cond, false)
		if x.Check == nil || x.Check.Loc != l {
			s.errorf("%v: CheckAct whose check does not point back", l)
		}
	case *Acquire:
		lvalue(x.Lock)
	case *Release:
		lvalue(x.Lock)
	case *Spawn:
		expr(x.Fn, false)
		if x.Arg != nil {
			expr(x.Arg, false)
		}
		if x.Handle != nil {
			lvalue(x.Handle)
		}
		if len(x.Targets) == 0 {
			s.errorf("%v: spawn without targets", l)
		}
		for _, t := range x.Targets {
			if t.ID == 0 {
				s.errorf("%v: spawns main", l)
			}
		}
	case *Join:
		expr(x.Handle, false)
	case *Alloc:
		lvalue(x.Dst)
		if x.Site == nil || x.Site.Kind != HeapObject {
			s.errorf("%v: alloc without a heap site", l)
		}
		if x.Size != nil {
			expr(x.Size, false)
		}
	case *Output:
		for _, e := range x.Args {
			expr(e, false)
		}
	case *AtomicBegin, *AtomicEnd, *Skip, *InitGlobals:
	default:
		s.errorf("%v: unknown action %T", l, l.Act)
	}
	if shared > 1 && !l.Atomic {
		s.errorf("%v: %d shared accesses outside an atomic section", l, shared)
	}
}

func tmplName(t *Template) string {
	if t == nil {
		return "<none>"
	}
	return t.Name
}

// atomicNesting recomputes the atomic nesting depth along the edges from
// each template's entry (minimum over paths, as the builder defines it)
// and checks the Atomic flags against it; unreachable locations must not
// be atomic.
func (s *sanity) atomicNesting() {
	for _, t := range s.p.Templates {
		if t.Entry == nil {
			continue
		}
		depth := map[*Loc]int{t.Entry: 0}
		stack := []*Loc{t.Entry}
		for len(stack) > 0 {
			l := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			d := depth[l]
			switch l.Act.(type) {
			case *AtomicBegin:
				d++
				if d > 64 {
					d = 64
				}
			case *AtomicEnd:
				if d > 0 {
					d--
				}
			}
			for _, n := range l.Succs {
				if od, ok := depth[n]; !ok || d < od {
					depth[n] = d
					stack = append(stack, n)
				}
			}
		}
		for _, l := range t.Locs {
			if want := depth[l] > 0; l.Atomic != want {
				s.errorf("%v: Atomic=%v but nesting depth is %d", l, l.Atomic, depth[l])
			}
		}
	}
}
