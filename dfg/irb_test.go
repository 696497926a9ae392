package dfg

import (
	"context"
	"testing"

	"chorus/cfg"
	"chorus/domains"
)

// A tiny hand-built-IR builder for tests (cfg.Build is another package's).

type irb struct {
	p   *cfg.Program
	cur *cfg.Template
}

func newIRB() *irb {
	b := &irb{p: &cfg.Program{File: "test.c"}}
	b.template("main")
	b.cur.Entry = b.loc(&cfg.InitGlobals{})
	return b
}

func (b *irb) template(name string) *cfg.Template {
	t := &cfg.Template{ID: len(b.p.Templates), Name: name}
	b.p.Templates = append(b.p.Templates, t)
	b.cur = t
	return t
}

func (b *irb) global(name string, t cfg.Type, init cfg.Expr) *cfg.Var {
	v := &cfg.Var{ID: len(b.p.Vars), Name: name, Scope: cfg.Global, Type: t, Init: init}
	b.p.Vars = append(b.p.Vars, v)
	return v
}

func (b *irb) local(name string, t cfg.Type) *cfg.Var {
	v := &cfg.Var{ID: len(b.p.Vars), Name: name, Scope: cfg.Local, Type: t, Template: b.cur}
	b.p.Vars = append(b.p.Vars, v)
	b.cur.Locals = append(b.cur.Locals, v)
	return v
}

// array makes a global object of n elements of t with one summary cell.
func (b *irb) array(name string, t cfg.Type, n int64, init []cfg.InitValue) (*cfg.Object, *cfg.Var) {
	o := &cfg.Object{ID: len(b.p.Objects), Name: name, Kind: cfg.GlobalObject, Size: n * t.Size(), Init: init}
	b.p.Objects = append(b.p.Objects, o)
	c := &cfg.Var{ID: len(b.p.Vars), Name: name + "[*]", Scope: cfg.Global, Type: t, Mem: o, Summary: true}
	b.p.Vars = append(b.p.Vars, c)
	o.Cells = []*cfg.Var{c}
	return o, c
}

// scalarObj makes a global object holding one non-summary cell.
func (b *irb) scalarObj(name string, t cfg.Type, init []cfg.InitValue) (*cfg.Object, *cfg.Var) {
	o := &cfg.Object{ID: len(b.p.Objects), Name: name, Kind: cfg.GlobalObject, Size: t.Size(), Init: init}
	b.p.Objects = append(b.p.Objects, o)
	c := &cfg.Var{ID: len(b.p.Vars), Name: name, Scope: cfg.Global, Type: t, Mem: o}
	b.p.Vars = append(b.p.Vars, c)
	o.Cells = []*cfg.Var{c}
	return o, c
}

func (b *irb) loc(a cfg.Action) *cfg.Loc {
	l := &cfg.Loc{ID: len(b.p.Locs), Template: b.cur, Act: a}
	b.p.Locs = append(b.p.Locs, l)
	b.cur.Locs = append(b.cur.Locs, l)
	return l
}

// seq creates locations for acts and chains them after prev (nil: none);
// it returns the first and last.
func (b *irb) seq(prev *cfg.Loc, acts ...cfg.Action) (first, last *cfg.Loc) {
	for _, a := range acts {
		l := b.loc(a)
		if first == nil {
			first = l
		}
		if prev != nil {
			link(prev, l)
		}
		prev = l
	}
	return first, prev
}

func link(a, c *cfg.Loc) {
	a.Succs = append(a.Succs, c)
	c.Preds = append(c.Preds, a)
}

func (b *irb) exit(prev *cfg.Loc) *cfg.Loc {
	l := b.loc(&cfg.Skip{})
	if prev != nil {
		link(prev, l)
	}
	b.cur.Exit = l
	return l
}

func (b *irb) check(kind cfg.CheckKind, cond cfg.Expr) *cfg.CheckAct {
	c := &cfg.Check{ID: len(b.p.Checks), Kind: kind, Msg: ExprString(cond)}
	b.p.Checks = append(b.p.Checks, c)
	return &cfg.CheckAct{Check: c, Cond: cond}
}

// fix sets Check.Loc from the locations (call after building).
func (b *irb) fix() *cfg.Program {
	for _, l := range b.p.Locs {
		if ca, ok := l.Act.(*cfg.CheckAct); ok {
			ca.Check.Loc = l
		}
	}
	return b.p
}

// Expression helpers.
func k32(v int64) *cfg.Const            { return &cfg.Const{Type: cfg.Int32, Value: v} }
func kt(t cfg.Type, v int64) *cfg.Const { return &cfg.Const{Type: t, Value: v} }
func kM(v int64) *cfg.Const             { return &cfg.Const{Type: cfg.MathInt, Value: v} }
func ref(v *cfg.Var) *cfg.VarRef        { return &cfg.VarRef{Var: v} }
func bin(op cfg.BinOp, x, y cfg.Expr) *cfg.Binary {
	t := x.ExprType()
	if isComparison(op) || op == cfg.LAnd || op == cfg.LOr {
		t = cfg.Bool
	}
	return &cfg.Binary{Op: op, X: x, Y: y, Type: t}
}
func binT(op cfg.BinOp, t cfg.Type, x, y cfg.Expr) *cfg.Binary {
	return &cfg.Binary{Op: op, X: x, Y: y, Type: t}
}
func mi(e cfg.Expr) cfg.Expr                       { return &cfg.Cast{X: e, Type: cfg.MathInt} }
func asg(dst cfg.LValue, src cfg.Expr) *cfg.Assign { return &cfg.Assign{Dst: dst, Src: src} }
func assume(c cfg.Expr) *cfg.Assume                { return &cfg.Assume{Cond: c} }
func havoc(dst cfg.LValue) *cfg.Havoc              { return &cfg.Havoc{Dst: dst} }

// solve builds and solves p.
func solve(t *testing.T, p *cfg.Program, relational bool, dom domains.Domain, opts ...Option) *Solver {
	t.Helper()
	g := New(p, NewPartition(p, relational))
	s := NewSolver(g, dom, opts...)
	if err := s.Solve(context.Background()); err != nil {
		t.Fatal(err)
	}
	return s
}

func wantStatus(t *testing.T, s *Solver, c *cfg.Check, want Status) {
	t.Helper()
	got, msg := s.CheckStatus(c)
	if got != want {
		t.Errorf("check %d (%s): got %v (%s), want %v", c.ID, c.Msg, got, msg, want)
	}
}
