package interp

import (
	"go/token"

	"chorus/cfg"
)

// progBuilder builds small IR programs by hand for the tests (the C
// frontend is tested separately, against gcc, in diff_test.go).
type progBuilder struct {
	p    *cfg.Program
	line int
}

func newProg() *progBuilder {
	return &progBuilder{p: &cfg.Program{File: "hand.c", DataModel: cfg.LP64}}
}

func (b *progBuilder) pos() token.Position {
	b.line++
	return token.Position{Filename: "hand.c", Line: b.line, Column: 1}
}

// template adds a template whose Exit is created right away.
func (b *progBuilder) template(name string) *cfg.Template {
	t := &cfg.Template{ID: len(b.p.Templates), Name: name}
	b.p.Templates = append(b.p.Templates, t)
	t.Exit = b.loc(t, &cfg.Skip{})
	return t
}

func (b *progBuilder) loc(t *cfg.Template, act cfg.Action) *cfg.Loc {
	l := &cfg.Loc{ID: len(b.p.Locs), Template: t, Act: act, Pos: b.pos()}
	b.p.Locs = append(b.p.Locs, l)
	t.Locs = append(t.Locs, l)
	return l
}

func (b *progBuilder) global(name string, ty cfg.Type, init cfg.Expr) *cfg.Var {
	v := &cfg.Var{ID: len(b.p.Vars), Name: name, Scope: cfg.Global, Type: ty, Init: init}
	b.p.Vars = append(b.p.Vars, v)
	return v
}

func (b *progBuilder) local(t *cfg.Template, name string, ty cfg.Type) *cfg.Var {
	v := &cfg.Var{ID: len(b.p.Vars), Name: t.Name + "." + name, Scope: cfg.Local, Type: ty, Template: t}
	b.p.Vars = append(b.p.Vars, v)
	t.Locals = append(t.Locals, v)
	return v
}

func (b *progBuilder) object(name string, kind cfg.ObjectKind, size int64, t *cfg.Template) *cfg.Object {
	o := &cfg.Object{ID: len(b.p.Objects), Name: name, Kind: kind, Size: size, Template: t}
	if kind == cfg.FuncObject {
		o.Func = name
	}
	b.p.Objects = append(b.p.Objects, o)
	return o
}

func (b *progBuilder) check(kind cfg.CheckKind, msg string, cond cfg.Expr) *cfg.CheckAct {
	c := &cfg.Check{ID: len(b.p.Checks), Kind: kind, Msg: msg}
	b.p.Checks = append(b.p.Checks, c)
	return &cfg.CheckAct{Check: c, Cond: cond}
}

func link(from *cfg.Loc, to ...*cfg.Loc) {
	for _, t := range to {
		from.Succs = append(from.Succs, t)
		t.Preds = append(t.Preds, from)
	}
}

// seq appends a straight line of actions after from and returns the last
// location.
func (b *progBuilder) seq(t *cfg.Template, from *cfg.Loc, acts ...cfg.Action) *cfg.Loc {
	for _, a := range acts {
		l := b.loc(t, a)
		if from != nil {
			link(from, l)
		} else {
			t.Entry = l
		}
		from = l
	}
	return from
}

// finish links last to the exit, fills Loc.Atomic and Check.Loc.
func (b *progBuilder) finish() *cfg.Program {
	for _, t := range b.p.Templates {
		// Atomic depth by search from the entry.
		depth := map[*cfg.Loc]int{t.Entry: 0}
		work := []*cfg.Loc{t.Entry}
		for len(work) > 0 {
			l := work[len(work)-1]
			work = work[:len(work)-1]
			d := depth[l]
			l.Atomic = d > 0
			switch l.Act.(type) {
			case *cfg.AtomicBegin:
				d++
			case *cfg.AtomicEnd:
				d--
			}
			for _, s := range l.Succs {
				if _, ok := depth[s]; !ok {
					depth[s] = d
					work = append(work, s)
				}
			}
		}
	}
	for _, l := range b.p.Locs {
		if c, ok := l.Act.(*cfg.CheckAct); ok {
			c.Check.Loc = l
			c.Check.Pos = l.Pos
		}
	}
	return b.p
}

// Expression helpers.
func ref(v *cfg.Var) *cfg.VarRef         { return &cfg.VarRef{Var: v} }
func i32(n int64) *cfg.Const             { return &cfg.Const{Type: cfg.Int32, Value: n} }
func cst(t cfg.Type, n int64) *cfg.Const { return &cfg.Const{Type: t, Value: n} }
func bin(op cfg.BinOp, x, y cfg.Expr) *cfg.Binary {
	t := x.ExprType()
	if op >= cfg.Eq && op <= cfg.LOr {
		t = cfg.Bool
	}
	return &cfg.Binary{Op: op, X: x, Y: y, Type: t}
}
func assign(dst cfg.LValue, src cfg.Expr) *cfg.Assign { return &cfg.Assign{Dst: dst, Src: src} }
func assume(c cfg.Expr) *cfg.Assume                   { return &cfg.Assume{Cond: c} }

var ptr64 = cfg.Type{Kind: cfg.PtrType, Bits: 64}

func addr(o *cfg.Object, off int64) *cfg.AddrOf {
	return &cfg.AddrOf{Object: o, Offset: off, Type: ptr64}
}
func deref(p cfg.Expr, t cfg.Type) *cfg.Deref { return &cfg.Deref{Addr: p, Type: t} }
