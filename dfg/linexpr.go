package dfg

import (
	"math"
	"slices"

	"chorus/domains"
)

// Checked linear-expression arithmetic (overflowing coefficients make the
// caller fall back to intervals).

func linConst(c int64) domains.LinExpr { return domains.LinExpr{Const: c} }

func linVar(d int) domains.LinExpr {
	return domains.LinExpr{Terms: []domains.Term{{Var: d, Coef: 1}}}
}

func addOK(a, b int64) (int64, bool) {
	s := a + b
	if (s > a) != (b > 0) {
		return 0, false
	}
	return s, true
}

func mulOK(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	p := a * b
	if p/b != a || (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64) {
		return 0, false
	}
	return p, true
}

// linAddScaled returns a + k·b.
func linAddScaled(a domains.LinExpr, k int64, b domains.LinExpr) (domains.LinExpr, bool) {
	kc, ok := mulOK(k, b.Const)
	if !ok {
		return domains.LinExpr{}, false
	}
	c, ok := addOK(a.Const, kc)
	if !ok {
		return domains.LinExpr{}, false
	}
	terms := slices.Clone(a.Terms)
	for _, t := range b.Terms {
		kt, ok := mulOK(k, t.Coef)
		if !ok {
			return domains.LinExpr{}, false
		}
		i := slices.IndexFunc(terms, func(x domains.Term) bool { return x.Var == t.Var })
		if i < 0 {
			terms = append(terms, domains.Term{Var: t.Var, Coef: kt})
			continue
		}
		s, ok := addOK(terms[i].Coef, kt)
		if !ok {
			return domains.LinExpr{}, false
		}
		terms[i].Coef = s
	}
	terms = slices.DeleteFunc(terms, func(t domains.Term) bool { return t.Coef == 0 })
	slices.SortFunc(terms, func(x, y domains.Term) int { return x.Var - y.Var })
	return domains.LinExpr{Terms: terms, Const: c}, true
}

func linScale(a domains.LinExpr, k int64) (domains.LinExpr, bool) {
	return linAddScaled(domains.LinExpr{}, k, a)
}

// le returns the constraint a ≤ b, i.e. a - b ≤ 0.
func linLe(a, b domains.LinExpr) (domains.LinCons, bool) {
	d, ok := linAddScaled(a, -1, b)
	return domains.LinCons{Expr: d, Op: domains.LeZero}, ok
}
