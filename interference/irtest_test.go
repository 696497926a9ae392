package interference

import (
	"context"
	"sort"
	"testing"

	"chorus/cfg"
)

// A tiny IR builder for hand-made programs.

type progBuilder struct {
	p *cfg.Program
}

func newProg() *progBuilder { return &progBuilder{p: &cfg.Program{File: "test.c"}} }

func (b *progBuilder) global(name string) *cfg.Var {
	v := &cfg.Var{ID: len(b.p.Vars), Name: name, Scope: cfg.Global, Type: cfg.Int32}
	b.p.Vars = append(b.p.Vars, v)
	return v
}

func (b *progBuilder) local(t *cfg.Template, name string) *cfg.Var {
	v := &cfg.Var{ID: len(b.p.Vars), Name: name, Scope: cfg.Local, Type: cfg.Int32, Template: t}
	b.p.Vars = append(b.p.Vars, v)
	t.Locals = append(t.Locals, v)
	return v
}

func (b *progBuilder) template(name string) *cfg.Template {
	t := &cfg.Template{ID: len(b.p.Templates), Name: name}
	b.p.Templates = append(b.p.Templates, t)
	return t
}

func (b *progBuilder) loc(t *cfg.Template, a cfg.Action) *cfg.Loc {
	l := &cfg.Loc{ID: len(b.p.Locs), Template: t, Act: a}
	l.Pos.Line = l.ID + 1
	b.p.Locs = append(b.p.Locs, l)
	t.Locs = append(t.Locs, l)
	if t.Entry == nil {
		t.Entry = l
	}
	return l
}

// seq builds a straight line of actions in t and returns the locations.
func (b *progBuilder) seq(t *cfg.Template, acts ...cfg.Action) []*cfg.Loc {
	var out []*cfg.Loc
	for _, a := range acts {
		l := b.loc(t, a)
		if n := len(out); n > 0 {
			link(out[n-1], l)
		}
		out = append(out, l)
	}
	return out
}

func link(a, c *cfg.Loc) {
	a.Succs = append(a.Succs, c)
	c.Preds = append(c.Preds, a)
}

func ref(v *cfg.Var) *cfg.VarRef { return &cfg.VarRef{Var: v} }
func num(n int64) *cfg.Const     { return &cfg.Const{Type: cfg.Int32, Value: n} }
func bin(op cfg.BinOp, x, y cfg.Expr) *cfg.Binary {
	return &cfg.Binary{Op: op, X: x, Y: y, Type: cfg.Int32}
}
func assign(v *cfg.Var, e cfg.Expr) *cfg.Assign { return &cfg.Assign{Dst: ref(v), Src: e} }
func assume(e cfg.Expr) *cfg.Assume             { return &cfg.Assume{Cond: e} }

// spawnLoop makes main: init; loop { spawn T... } exit, with each target
// spawned inside an unbounded loop.
func (b *progBuilder) spawnLoop(main *cfg.Template, targets ...*cfg.Template) {
	ls := b.seq(main, &cfg.InitGlobals{}, &cfg.Skip{})
	head := ls[1]
	for _, t := range targets {
		s := b.loc(main, &cfg.Spawn{Targets: []*cfg.Template{t}})
		link(head, s)
		link(s, head)
		t.Spawned, t.Unbounded = true, true
	}
	exit := b.loc(main, &cfg.Skip{})
	link(head, exit)
	main.Exit = exit
}

// fakeCells: every variable its own cell (cell = Var.ID).
type fakeCells struct{ p *cfg.Program }

func varsOf(e cfg.Expr, out map[int]bool) {
	switch e := e.(type) {
	case *cfg.VarRef:
		out[e.Var.ID] = true
	case *cfg.Deref:
		for _, c := range e.Cells {
			out[c.ID] = true
		}
		varsOf(e.Addr, out)
	case *cfg.Unary:
		varsOf(e.X, out)
	case *cfg.Binary:
		varsOf(e.X, out)
		varsOf(e.Y, out)
	case *cfg.Cast:
		varsOf(e.X, out)
	}
}

func keys(m map[int]bool) []int {
	var out []int
	for k := range m {
		out = append(out, k)
	}
	sort.Ints(out)
	return out
}

func (f fakeCells) Mod(l *cfg.Loc) []int {
	m := map[int]bool{}
	switch a := l.Act.(type) {
	case *cfg.Assign:
		if r, ok := a.Dst.(*cfg.VarRef); ok {
			m[r.Var.ID] = true
		}
	case *cfg.Havoc:
		if r, ok := a.Dst.(*cfg.VarRef); ok {
			m[r.Var.ID] = true
		}
	case *cfg.Assume:
		varsOf(a.Cond, m)
	case *cfg.Acquire:
		varsOf(a.Lock, m)
	case *cfg.Release:
		varsOf(a.Lock, m)
	case *cfg.InitGlobals:
		for _, v := range f.p.Vars {
			if v.Scope == cfg.Global {
				m[v.ID] = true
			}
		}
	}
	return keys(m)
}

func (f fakeCells) Uses(l *cfg.Loc) []int {
	m := map[int]bool{}
	switch a := l.Act.(type) {
	case *cfg.Assign:
		varsOf(a.Src, m)
	case *cfg.Assume:
		varsOf(a.Cond, m)
	case *cfg.CheckAct:
		varsOf(a.Cond, m)
	case *cfg.Acquire:
		varsOf(a.Lock, m)
	}
	return keys(m)
}

func (f fakeCells) CellOf(v *cfg.Var) int { return v.ID }
func (f fakeCells) Global(c int) bool     { return f.p.Vars[c].Scope == cfg.Global }

// allUnknown: every condition unknown at every location.
type allUnknown struct{}

func (allUnknown) Truth(*cfg.Loc, cfg.Expr) Truth { return Unknown }

// truthTable answers from a map keyed by location and condition text.
type truthTable map[[2]any]Truth

func (t truthTable) Truth(l *cfg.Loc, c cfg.Expr) Truth {
	return t[[2]any{l, exprString(c)}]
}

type edgeKey struct{ src, cell, dst int }

// runEngine runs rounds until no new edges (the invariants are fixed) and
// returns the edges found.
func runEngine(t *testing.T, p *cfg.Program, inv Invariants, opts ...Option) map[edgeKey]bool {
	t.Helper()
	return runEngineStats(t, p, inv, nil, opts...)
}

// runEngineStats is runEngine that also hands each round's stats to onRound
// (when not nil).
func runEngineStats(t *testing.T, p *cfg.Program, inv Invariants, onRound func(RoundStats), opts ...Option) map[edgeKey]bool {
	t.Helper()
	e, err := New(p, fakeCells{p}, opts...)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	got := map[edgeKey]bool{}
	for round := 0; round < 5; round++ {
		edges, blocks, st, err := e.Round(context.Background(), inv)
		if err != nil {
			t.Fatal(err)
		}
		if onRound != nil && round == 0 {
			onRound(st)
		}
		if round > 0 && len(edges)+len(blocks) > 0 {
			t.Fatalf("round %d found new edges with unchanged invariants", round)
		}
		for _, ed := range edges {
			got[edgeKey{ed.Src.ID, ed.Cell, ed.Dst.ID}] = true
		}
		for _, b := range blocks {
			for _, s := range b.Srcs {
				for _, d := range b.Dsts {
					got[edgeKey{s.ID, b.Cell, d.ID}] = true
				}
			}
		}
	}
	return got
}
