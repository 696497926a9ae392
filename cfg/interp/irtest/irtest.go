// Package irtest builds small cfg IR programs by hand, for tests of the
// interpreter and the explorer that must not depend on the C frontend.
// It owns nothing else and is only imported by tests.
package irtest

import (
	"go/token"

	"chorus/cfg"
)

// Builder builds a program; every location gets its own line in file
// "hand.c" so schedules and failures can name it.
type Builder struct {
	p    *cfg.Program
	line int
}

func NewBuilder() *Builder {
	return &Builder{p: &cfg.Program{File: "hand.c", DataModel: cfg.LP64}}
}

func (b *Builder) pos() token.Position {
	b.line++
	return token.Position{Filename: "hand.c", Line: b.line, Column: 1}
}

// Template adds a template whose Exit is created right away.
func (b *Builder) Template(name string) *cfg.Template {
	t := &cfg.Template{ID: len(b.p.Templates), Name: name}
	b.p.Templates = append(b.p.Templates, t)
	t.Exit = b.Loc(t, &cfg.Skip{})
	return t
}

func (b *Builder) Loc(t *cfg.Template, act cfg.Action) *cfg.Loc {
	l := &cfg.Loc{ID: len(b.p.Locs), Template: t, Act: act, Pos: b.pos()}
	b.p.Locs = append(b.p.Locs, l)
	t.Locs = append(t.Locs, l)
	return l
}

func (b *Builder) Global(name string, ty cfg.Type, init cfg.Expr) *cfg.Var {
	v := &cfg.Var{ID: len(b.p.Vars), Name: name, Scope: cfg.Global, Type: ty, Init: init}
	b.p.Vars = append(b.p.Vars, v)
	return v
}

func (b *Builder) Local(t *cfg.Template, name string, ty cfg.Type) *cfg.Var {
	v := &cfg.Var{ID: len(b.p.Vars), Name: t.Name + "." + name, Scope: cfg.Local, Type: ty, Template: t}
	b.p.Vars = append(b.p.Vars, v)
	t.Locals = append(t.Locals, v)
	return v
}

func (b *Builder) Object(name string, kind cfg.ObjectKind, size int64, t *cfg.Template) *cfg.Object {
	o := &cfg.Object{ID: len(b.p.Objects), Name: name, Kind: kind, Size: size, Template: t}
	if kind == cfg.FuncObject {
		o.Func = name
	}
	b.p.Objects = append(b.p.Objects, o)
	return o
}

func (b *Builder) Check(kind cfg.CheckKind, msg string, cond cfg.Expr) *cfg.CheckAct {
	c := &cfg.Check{ID: len(b.p.Checks), Kind: kind, Msg: msg}
	b.p.Checks = append(b.p.Checks, c)
	return &cfg.CheckAct{Check: c, Cond: cond}
}

func Link(from *cfg.Loc, to ...*cfg.Loc) {
	for _, t := range to {
		from.Succs = append(from.Succs, t)
		t.Preds = append(t.Preds, from)
	}
}

// Seq appends a straight line of actions after from and returns the last
// location.
func (b *Builder) Seq(t *cfg.Template, from *cfg.Loc, acts ...cfg.Action) *cfg.Loc {
	for _, a := range acts {
		l := b.Loc(t, a)
		if from != nil {
			Link(from, l)
		} else {
			t.Entry = l
		}
		from = l
	}
	return from
}

// Finish fills Loc.Atomic (atomic depth by a search from each entry) and
// Check.Loc and Check.Pos, and returns the program.
func (b *Builder) Finish() *cfg.Program {
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

// Ref, I32, Cst, Bin, Assign, Assume, Addr and Deref build expressions
// and actions; Bin gives comparisons the type cfg.Bool and other
// operators the type of X.
func Ref(v *cfg.Var) *cfg.VarRef         { return &cfg.VarRef{Var: v} }
func I32(n int64) *cfg.Const             { return &cfg.Const{Type: cfg.Int32, Value: n} }
func Cst(t cfg.Type, n int64) *cfg.Const { return &cfg.Const{Type: t, Value: n} }
func Bin(op cfg.BinOp, x, y cfg.Expr) *cfg.Binary {
	t := x.ExprType()
	if op >= cfg.Eq && op <= cfg.LOr {
		t = cfg.Bool
	}
	return &cfg.Binary{Op: op, X: x, Y: y, Type: t}
}
func Assign(dst cfg.LValue, src cfg.Expr) *cfg.Assign { return &cfg.Assign{Dst: dst, Src: src} }
func Assume(c cfg.Expr) *cfg.Assume                   { return &cfg.Assume{Cond: c} }

// Ptr64 is the LP64 pointer type.
var Ptr64 = cfg.Type{Kind: cfg.PtrType, Bits: 64}

func Addr(o *cfg.Object, off int64) *cfg.AddrOf {
	return &cfg.AddrOf{Object: o, Offset: off, Type: Ptr64}
}
func Deref(p cfg.Expr, t cfg.Type) *cfg.Deref { return &cfg.Deref{Addr: p, Type: t} }

// P is the program being built (to add Vars or Objects by hand).
func (b *Builder) P() *cfg.Program { return b.p }
