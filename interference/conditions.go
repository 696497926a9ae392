package interference

import (
	"fmt"
	"sort"
	"strings"

	"chorus/cfg"
)

// Condition is an observable condition: a predicate over global variables
// only (DESIGN.md §4). Expr is its canonical positive form; literals say
// whether it holds (Neg false) or not (Neg true).
type Condition struct {
	ID   int
	Expr cfg.Expr
	// Vars are the global variables (registers or non-summary memory
	// cells) Expr reads.
	Vars []*cfg.Var
	// Lock is set for the lock condition m == 0 of a lock cell.
	Lock bool
	key  string
}

func (c *Condition) String() string { return exprString(c.Expr) }

// Literal is a condition or its negation.
type Literal struct {
	Cond int
	Neg  bool
}

// conditionSet collects observable conditions, deduplicated by their
// canonical form.
type conditionSet struct {
	prog  *cfg.Program
	conds []*Condition
	byKey map[string]*Condition
}

func newConditionSet(p *cfg.Program) *conditionSet {
	return &conditionSet{prog: p, byKey: map[string]*Condition{}}
}

// intern returns the condition of canonical positive expression e.
func (s *conditionSet) intern(e cfg.Expr, vars []*cfg.Var, lock bool) *Condition {
	k := exprString(e)
	if c, ok := s.byKey[k]; ok {
		c.Lock = c.Lock || lock
		return c
	}
	c := &Condition{ID: len(s.conds), Expr: e, Vars: vars, Lock: lock, key: k}
	s.conds = append(s.conds, c)
	s.byKey[k] = c
	return c
}

// literalsOfAssume returns the literals implied by assume(e) executing: e
// is split at top-level && (each conjunct holds), and each conjunct over
// globals only becomes a literal of its canonical condition. Conjuncts that
// read locals or memory we cannot name exactly are dropped, which only
// weakens enabled(v) (sound: enabled(v) must be implied by "act(v) can
// execute", and a subset of the implied literals still is).
func (s *conditionSet) literalsOfAssume(e cfg.Expr) []Literal {
	var lits []Literal
	for _, conj := range conjuncts(e) {
		vars, ok := globalReads(conj)
		if !ok || len(vars) == 0 {
			continue
		}
		pos, neg := canonical(conj)
		c := s.intern(pos, vars, false)
		lits = append(lits, Literal{Cond: c.ID, Neg: neg})
	}
	return lits
}

func conjuncts(e cfg.Expr) []cfg.Expr {
	if b, ok := e.(*cfg.Binary); ok && b.Op == cfg.LAnd {
		return append(conjuncts(b.X), conjuncts(b.Y)...)
	}
	return []cfg.Expr{e}
}

// globalReads returns the variables e reads when every read is of a global
// register or of a global non-summary memory cell through a Deref whose
// address is the cell's own address with the cell's own type (the only
// access that carries the cell's value, see cfg.Deref). ok is false when e
// reads anything else (locals, summaries, pointers we cannot resolve to one
// cell): such an expression is not an observable condition. Summary cells
// are excluded because a literal over one would mix "every element" (the
// invariant) with "some element" (an enabling condition).
func globalReads(e cfg.Expr) (vars []*cfg.Var, ok bool) {
	seen := map[*cfg.Var]bool{}
	ok = true
	var walk func(e cfg.Expr)
	walk = func(e cfg.Expr) {
		if !ok {
			return
		}
		switch e := e.(type) {
		case *cfg.Const:
			if e.Type.Kind == cfg.FloatType {
				ok = false
			}
		case *cfg.VarRef:
			if e.Var.Scope != cfg.Global || e.Var.IsCell() || e.Var.Type.Kind != cfg.IntType {
				ok = false
				return
			}
			if !seen[e.Var] {
				seen[e.Var] = true
				vars = append(vars, e.Var)
			}
		case *cfg.Deref:
			v := exactCell(e)
			if v == nil || v.Scope != cfg.Global || v.Type.Kind != cfg.IntType {
				ok = false
				return
			}
			if !seen[v] {
				seen[v] = true
				vars = append(vars, v)
			}
		case *cfg.Unary:
			walk(e.X)
		case *cfg.Binary:
			if e.Op == cfg.PtrAdd || e.Op == cfg.PtrSub {
				ok = false
				return
			}
			walk(e.X)
			walk(e.Y)
		case *cfg.Cast:
			if e.Type.Kind != cfg.IntType || e.X.ExprType().Kind != cfg.IntType {
				ok = false
				return
			}
			walk(e.X)
		default:
			ok = false
		}
	}
	walk(e)
	sort.Slice(vars, func(i, j int) bool { return vars[i].ID < vars[j].ID })
	return vars, ok
}

// exactCell returns the one non-summary cell a Deref denotes when the
// points-to analysis resolves it to that cell alone and the access has the
// cell's type (with a constant address: the cell's own address); nil
// otherwise. Like dfg's strong updates, this relies on the points-to
// analysis: every dereference that does not fault reads that cell. The
// address must not read global state (it is re-evaluated when a fused
// condition is).
func exactCell(d *cfg.Deref) *cfg.Var {
	if len(d.Cells) != 1 {
		return nil
	}
	v := d.Cells[0]
	if v.Summary || v.Mem == nil || v.Type != d.Type {
		return nil
	}
	switch a := d.Addr.(type) {
	case *cfg.AddrOf:
		if a.Object != v.Mem || a.Offset != v.Offset {
			return nil
		}
	case *cfg.VarRef:
		if a.Var.Scope != cfg.Local || a.Var.IsCell() {
			return nil
		}
	default:
		return nil
	}
	return v
}

// lockCell returns the lock word a lock operation names when it is one
// global register or one non-summary global cell (strongly updatable: it
// stands for one concrete mutex); nil otherwise.
func lockCell(lv cfg.LValue) *cfg.Var {
	switch lv := lv.(type) {
	case *cfg.VarRef:
		if lv.Var.Scope == cfg.Global && !lv.Var.Summary {
			return lv.Var
		}
	case *cfg.Deref:
		if len(lv.Cells) == 1 && !lv.Cells[0].Summary && lv.Cells[0].Scope == cfg.Global {
			return lv.Cells[0]
		}
	}
	return nil
}

// canonical returns the positive form of condition e and whether e is its
// negation. Comparisons are normalized to <, <=, == (their negations >=, >,
// != flip the polarity), ! flips the polarity, and a non-comparison e (read
// as e != 0) becomes the negation of e == 0. So assume(c) and assume(!c)
// on the two branches of an if share one condition.
func canonical(e cfg.Expr) (cfg.Expr, bool) {
	switch x := e.(type) {
	case *cfg.Unary:
		if x.Op == cfg.Not {
			p, n := canonical(x.X)
			return p, !n
		}
	case *cfg.Binary:
		switch x.Op {
		case cfg.Lt, cfg.Le, cfg.Eq:
			if x.Op == cfg.Eq && isBoolValued(x.X) && isZero(x.Y) {
				p, n := canonical(x.X)
				return p, !n
			}
			return x, false
		case cfg.Ge:
			return &cfg.Binary{Op: cfg.Lt, X: x.X, Y: x.Y, Type: x.Type}, true
		case cfg.Gt:
			return &cfg.Binary{Op: cfg.Le, X: x.X, Y: x.Y, Type: x.Type}, true
		case cfg.Ne:
			if isBoolValued(x.X) && isZero(x.Y) {
				return canonical(x.X)
			}
			return &cfg.Binary{Op: cfg.Eq, X: x.X, Y: x.Y, Type: x.Type}, true
		case cfg.LAnd, cfg.LOr:
			return x, false
		}
	case *cfg.Cast:
		// A cast of a 0/1 value to another integer type keeps its truth.
		if isBoolValued(x.X) && x.Type.Kind == cfg.IntType && (x.Type.Bits == 0 || x.Type.Bits > 1) {
			return canonical(x.X)
		}
	}
	t := e.ExprType()
	return &cfg.Binary{Op: cfg.Eq, X: e, Y: &cfg.Const{Type: t, Value: 0}, Type: cfg.Bool}, true
}

func isBoolValued(e cfg.Expr) bool {
	switch x := e.(type) {
	case *cfg.Unary:
		return x.Op == cfg.Not
	case *cfg.Binary:
		switch x.Op {
		case cfg.Eq, cfg.Ne, cfg.Lt, cfg.Le, cfg.Gt, cfg.Ge, cfg.LAnd, cfg.LOr:
			return true
		}
	}
	return false
}

func isZero(e cfg.Expr) bool {
	c, ok := e.(*cfg.Const)
	return ok && c.Value == 0 && c.Type.Kind == cfg.IntType
}

// exprString prints an expression unambiguously (used as a key).
func exprString(e cfg.Expr) string {
	var b strings.Builder
	writeExpr(&b, e)
	return b.String()
}

var binOpNames = map[cfg.BinOp]string{
	cfg.Add: "+", cfg.Sub: "-", cfg.Mul: "*", cfg.Div: "/", cfg.Rem: "%",
	cfg.Shl: "<<", cfg.Shr: ">>", cfg.And: "&", cfg.Or: "|", cfg.Xor: "^",
	cfg.Eq: "==", cfg.Ne: "!=", cfg.Lt: "<", cfg.Le: "<=", cfg.Gt: ">", cfg.Ge: ">=",
	cfg.LAnd: "&&", cfg.LOr: "||", cfg.PtrAdd: "+p", cfg.PtrSub: "-p",
}

func writeExpr(b *strings.Builder, e cfg.Expr) {
	switch e := e.(type) {
	case *cfg.Const:
		fmt.Fprintf(b, "%d", e.Value)
		if e.Type.Kind != cfg.IntType || e.Type.Bits != 32 || !e.Type.Signed {
			fmt.Fprintf(b, ":%s", e.Type)
		}
	case *cfg.VarRef:
		b.WriteString(e.Var.Name)
	case *cfg.Deref:
		if v := exactCell(e); v != nil {
			b.WriteString(v.Name)
			return
		}
		b.WriteString("*(")
		writeExpr(b, e.Addr)
		fmt.Fprintf(b, ":%s)", e.Type)
	case *cfg.AddrOf:
		fmt.Fprintf(b, "&%s+%d", e.Object.Name, e.Offset)
	case *cfg.Unary:
		b.WriteString([]string{"-", "!", "~"}[e.Op])
		b.WriteString("(")
		writeExpr(b, e.X)
		b.WriteString(")")
	case *cfg.Binary:
		b.WriteString("(")
		writeExpr(b, e.X)
		b.WriteString(" " + binOpNames[e.Op] + " ")
		writeExpr(b, e.Y)
		b.WriteString(")")
	case *cfg.Cast:
		fmt.Fprintf(b, "(%s)(", e.Type)
		writeExpr(b, e.X)
		b.WriteString(")")
	default:
		fmt.Fprintf(b, "?%T", e)
	}
}
