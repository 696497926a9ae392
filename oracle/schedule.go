package oracle

import (
	"fmt"
	"strings"

	"chorus/cfg"
	"chorus/confirm"
	"chorus/domains"
	"chorus/explore"
)

// scheduleTo finds a shortest schedule reaching a state violation: it
// lowers v's program afresh, inserts before v's location a check of the
// violated constraint (of false, for a location claimed unreachable) and
// explores; the inserted check fails exactly in the violating states.
// The lowering is deterministic, so locations and variables are matched
// by ID. It returns nil when no schedule is found (budget, or main's
// entry, where nothing may precede InitGlobals).
func (c *Config) scheduleTo(v *Violation) []string {
	p, err := lower(fmt.Sprintf("oracle_%d.c", v.Seed), v.Source, SharesCalls(v.Seed))
	if err != nil || v.loc.ID >= len(p.Locs) {
		return nil
	}
	loc := p.Locs[v.loc.ID]
	if loc == p.Templates[0].Entry {
		return nil
	}
	var cond cfg.Expr = &cfg.Const{Type: cfg.Bool, Value: 0}
	if v.cons != nil {
		vars := make([]*cfg.Var, len(v.consVars))
		for i, x := range v.consVars {
			if x.ID >= len(p.Vars) || p.Vars[x.ID].Name != x.Name {
				return nil
			}
			vars[i] = p.Vars[x.ID]
		}
		cond = consExpr(p, *v.cons, vars)
		if cond == nil {
			return nil
		}
	}
	chk := insertCheck(p, loc, cond)
	lo, hi := v.prog.NondetRange()
	ex, err := confirm.Explore(p, explore.Options{MaxInstances: c.K, HavocMin: lo, HavocMax: hi,
		MaxStates: c.MaxStates, Timeout: c.ExploreTimeout, KeepDeadEnds: true})
	if err != nil {
		return nil
	}
	for _, f := range ex.Failures {
		if f.Event.Check == chk {
			return ScheduleStrings(p, f.Schedule, chk.Loc.ID)
		}
	}
	return nil
}

// insertCheck puts a new location checking cond right before loc: every
// edge into loc goes to it, and it continues to loc. A thread standing at
// it is in the state a thread standing at loc would be in.
func insertCheck(p *cfg.Program, loc *cfg.Loc, cond cfg.Expr) *cfg.Check {
	n := &cfg.Loc{ID: len(p.Locs), Template: loc.Template, Pos: loc.Pos, Atomic: loc.Atomic}
	chk := &cfg.Check{ID: len(p.Checks), Kind: cfg.AssertCheck, Pos: loc.Pos, Func: loc.Template.Name,
		Msg: "oracle: state outside the invariant", Loc: n}
	n.Act = &cfg.CheckAct{Check: chk, Cond: cond}
	p.Locs = append(p.Locs, n)
	p.Checks = append(p.Checks, chk)
	loc.Template.Locs = append(loc.Template.Locs, n)
	for _, pred := range loc.Preds {
		for i, s := range pred.Succs {
			if s == loc {
				pred.Succs[i] = n
			}
		}
	}
	n.Preds, loc.Preds = loc.Preds, []*cfg.Loc{n}
	n.Succs = []*cfg.Loc{loc}
	if loc.Template.Entry == loc {
		loc.Template.Entry = n
	}
	return chk
}

// consExpr is the constraint as a mathematical-integer condition, or nil
// when a variable cannot be read directly (a summary or heap cell).
func consExpr(p *cfg.Program, c domains.LinCons, vars []*cfg.Var) cfg.Expr {
	var sum cfg.Expr = &cfg.Const{Type: cfg.MathInt, Value: c.Expr.Const}
	for _, t := range c.Expr.Terms {
		v := vars[t.Var]
		var read cfg.Expr
		switch {
		case !v.Type.IsInt():
			return nil
		case v.Mem == nil:
			read = &cfg.VarRef{Var: v}
		case !v.Summary && (v.Mem.Kind == cfg.GlobalObject || v.Mem.Kind == cfg.LocalObject):
			pt := cfg.Type{Kind: cfg.PtrType, Bits: p.DataModel.PtrBits()}
			read = &cfg.Deref{Addr: &cfg.AddrOf{Object: v.Mem, Offset: v.Offset, Type: pt}, Type: v.Type, Cells: []*cfg.Var{v}}
		default:
			return nil
		}
		term := &cfg.Binary{Op: cfg.Mul, X: &cfg.Const{Type: cfg.MathInt, Value: t.Coef}, Y: &cfg.Cast{X: read, Type: cfg.MathInt}, Type: cfg.MathInt}
		sum = &cfg.Binary{Op: cfg.Add, X: sum, Y: term, Type: cfg.MathInt}
	}
	op := cfg.Le
	switch c.Op {
	case domains.EqZero:
		op = cfg.Eq
	case domains.NeZero:
		op = cfg.Ne
	}
	return &cfg.Binary{Op: op, X: sum, Y: &cfg.Const{Type: cfg.MathInt, Value: 0}, Type: cfg.Bool}
}

// consString renders c over vars ("2*x - y + 3 <= 0").
func consString(c domains.LinCons, vars []*cfg.Var) string {
	var b strings.Builder
	for i, t := range c.Expr.Terms {
		name := fmt.Sprintf("v%d", t.Var)
		if t.Var >= 0 && t.Var < len(vars) {
			name = vars[t.Var].Name
		}
		coef := t.Coef
		switch {
		case i == 0 && coef < 0:
			b.WriteString("-")
			coef = -coef
		case i > 0 && coef < 0:
			b.WriteString(" - ")
			coef = -coef
		case i > 0:
			b.WriteString(" + ")
		}
		if coef != 1 {
			fmt.Fprintf(&b, "%d*", coef)
		}
		b.WriteString(name)
	}
	if k := c.Expr.Const; k != 0 || len(c.Expr.Terms) == 0 {
		if len(c.Expr.Terms) == 0 {
			fmt.Fprintf(&b, "%d", k)
		} else if k < 0 {
			fmt.Fprintf(&b, " - %d", -k)
		} else {
			fmt.Fprintf(&b, " + %d", k)
		}
	}
	b.WriteString([...]string{" <= 0", " == 0", " != 0"}[min(int(c.Op), 2)])
	return b.String()
}
