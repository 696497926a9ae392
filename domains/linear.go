package domains

import (
	"math/big"
	"slices"
	"strconv"
	"strings"
)

// Linear expressions and constraints. Coefficient arithmetic is checked:
// every operation that could overflow int64 returns ok = false instead of
// a wrong expression; the client then falls back to interval arithmetic
// (AssignInterval) or drops the constraint, both sound.

// Var returns the expression 1·x_i.
func Var(i int) LinExpr { return LinExpr{Terms: []Term{{Var: i, Coef: 1}}} }

// Const returns the constant expression c.
func Const(c int64) LinExpr { return LinExpr{Const: c} }

// Normalize sorts the terms by variable, merges duplicates and drops zero
// coefficients. ok is false if merging overflows.
func (e LinExpr) Normalize() (LinExpr, bool) {
	ts := slices.Clone(e.Terms)
	slices.SortStableFunc(ts, func(a, b Term) int { return a.Var - b.Var })
	out := ts[:0]
	for _, t := range ts {
		if n := len(out); n > 0 && out[n-1].Var == t.Var {
			s, ok := add64(out[n-1].Coef, t.Coef)
			if !ok {
				return LinExpr{}, false
			}
			out[n-1].Coef = s
			continue
		}
		out = append(out, t)
	}
	res := out[:0]
	for _, t := range out {
		if t.Coef != 0 {
			res = append(res, t)
		}
	}
	if len(res) == 0 {
		res = nil
	}
	return LinExpr{Terms: res, Const: e.Const}, true
}

// isNormal reports whether e is already in Normalize's form.
func (e LinExpr) isNormal() bool {
	for i, t := range e.Terms {
		if t.Coef == 0 || (i > 0 && e.Terms[i-1].Var >= t.Var) {
			return false
		}
	}
	return true
}

// normal returns e normalized, avoiding a copy when it already is.
func (e LinExpr) normal() (LinExpr, bool) {
	if e.isNormal() {
		return e, true
	}
	return e.Normalize()
}

// Add returns e + o, normalized.
func (e LinExpr) Add(o LinExpr) (LinExpr, bool) {
	c, ok := add64(e.Const, o.Const)
	if !ok {
		return LinExpr{}, false
	}
	ts := make([]Term, 0, len(e.Terms)+len(o.Terms))
	ts = append(append(ts, e.Terms...), o.Terms...)
	return LinExpr{Terms: ts, Const: c}.Normalize()
}

// Scale returns k·e, normalized.
func (e LinExpr) Scale(k int64) (LinExpr, bool) {
	c, ok := mul64(e.Const, k)
	if !ok {
		return LinExpr{}, false
	}
	ts := make([]Term, len(e.Terms))
	for i, t := range e.Terms {
		if ts[i].Coef, ok = mul64(t.Coef, k); !ok {
			return LinExpr{}, false
		}
		ts[i].Var = t.Var
	}
	return LinExpr{Terms: ts, Const: c}.Normalize()
}

// Neg returns -e.
func (e LinExpr) Neg() (LinExpr, bool) { return e.Scale(-1) }

// Sub returns e - o.
func (e LinExpr) Sub(o LinExpr) (LinExpr, bool) {
	n, ok := o.Neg()
	if !ok {
		return LinExpr{}, false
	}
	return e.Add(n)
}

// AddConst returns e + c.
func (e LinExpr) AddConst(c int64) (LinExpr, bool) {
	s, ok := add64(e.Const, c)
	if !ok {
		return LinExpr{}, false
	}
	return LinExpr{Terms: slices.Clone(e.Terms), Const: s}, true
}

// IsConst reports whether e has no variable.
func (e LinExpr) IsConst() bool {
	for _, t := range e.Terms {
		if t.Coef != 0 {
			return false
		}
	}
	return true
}

// Coef returns the (summed) coefficient of variable v.
func (e LinExpr) Coef(v int) int64 {
	var s int64
	for _, t := range e.Terms {
		if t.Var == v {
			s += t.Coef
		}
	}
	return s
}

// MaxVar returns the largest variable index used, or -1.
func (e LinExpr) MaxVar() int {
	m := -1
	for _, t := range e.Terms {
		m = max(m, t.Var)
	}
	return m
}

// EvalBig evaluates e exactly at a point (point[v] is x_v).
func (e LinExpr) EvalBig(point []int64) *big.Int {
	s := big.NewInt(e.Const)
	var p big.Int
	for _, t := range e.Terms {
		p.SetInt64(t.Coef)
		s.Add(s, p.Mul(&p, big.NewInt(point[t.Var])))
	}
	return s
}

// String prints e with the given variable names (nil: x0, x1, ...).
func (e LinExpr) String(names func(int) string) string {
	if names == nil {
		names = defaultName
	}
	var sb strings.Builder
	for _, t := range e.Terms {
		c := t.Coef
		switch {
		case c == 0:
			continue
		case sb.Len() == 0 && c == -1:
			sb.WriteString("-")
		case sb.Len() == 0 && c == 1:
		case sb.Len() == 0:
			sb.WriteString(strconv.FormatInt(c, 10) + "*")
		case c == 1:
			sb.WriteString(" + ")
		case c == -1:
			sb.WriteString(" - ")
		case c < 0 && c != -c:
			sb.WriteString(" - " + strconv.FormatInt(-c, 10) + "*")
		default:
			sb.WriteString(" + " + strconv.FormatInt(c, 10) + "*")
		}
		sb.WriteString(names(t.Var))
	}
	switch {
	case sb.Len() == 0:
		return strconv.FormatInt(e.Const, 10)
	case e.Const > 0:
		sb.WriteString(" + " + strconv.FormatInt(e.Const, 10))
	case e.Const < 0 && e.Const != -e.Const:
		sb.WriteString(" - " + strconv.FormatInt(-e.Const, 10))
	case e.Const < 0:
		sb.WriteString(" + " + strconv.FormatInt(e.Const, 10))
	}
	return sb.String()
}

func defaultName(i int) string { return "x" + strconv.Itoa(i) }

// Le returns the constraint a ≤ b.
func Le(a, b LinExpr) (LinCons, bool) {
	d, ok := a.Sub(b)
	return LinCons{Expr: d, Op: LeZero}, ok
}

// Lt returns a < b, i.e. a - b + 1 ≤ 0 (integers).
func Lt(a, b LinExpr) (LinCons, bool) {
	d, ok := a.Sub(b)
	if ok {
		d, ok = d.AddConst(1)
	}
	return LinCons{Expr: d, Op: LeZero}, ok
}

// Ge returns a ≥ b.
func Ge(a, b LinExpr) (LinCons, bool) { return Le(b, a) }

// Gt returns a > b.
func Gt(a, b LinExpr) (LinCons, bool) { return Lt(b, a) }

// Eq returns a = b.
func Eq(a, b LinExpr) (LinCons, bool) {
	d, ok := a.Sub(b)
	return LinCons{Expr: d, Op: EqZero}, ok
}

// Ne returns a ≠ b.
func Ne(a, b LinExpr) (LinCons, bool) {
	d, ok := a.Sub(b)
	return LinCons{Expr: d, Op: NeZero}, ok
}

// Negate returns the integer negation of c: ¬(e ≤ 0) is -e + 1 ≤ 0.
func (c LinCons) Negate() (LinCons, bool) {
	switch c.Op {
	case EqZero:
		return LinCons{Expr: c.Expr, Op: NeZero}, true
	case NeZero:
		return LinCons{Expr: c.Expr, Op: EqZero}, true
	}
	n, ok := c.Expr.Neg()
	if ok {
		n, ok = n.AddConst(1)
	}
	return LinCons{Expr: n, Op: LeZero}, ok
}

// Holds evaluates c exactly at a point.
func (c LinCons) Holds(point []int64) bool {
	s := c.Expr.EvalBig(point).Sign()
	switch c.Op {
	case LeZero:
		return s <= 0
	case EqZero:
		return s == 0
	}
	return s != 0
}

// String prints c as "e <= 0", "e = 0" or "e != 0", moving the constant
// to the right-hand side.
func (c LinCons) String(names func(int) string) string {
	op := map[ConsOp]string{LeZero: " <= ", EqZero: " = ", NeZero: " != "}[c.Op]
	if c.Expr.IsConst() || c.Expr.Const == -c.Expr.Const {
		return c.Expr.String(names) + op + "0"
	}
	lhs := LinExpr{Terms: c.Expr.Terms}
	return lhs.String(names) + op + strconv.FormatInt(-c.Expr.Const, 10)
}

// unsat is the constraint 1 ≤ 0 that Constraints returns for ⊥.
func unsat() LinCons { return LinCons{Expr: Const(1), Op: LeZero} }
