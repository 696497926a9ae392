package oracle

import (
	"math/big"

	"chorus/cfg"
	"chorus/cfg/interp"
	"chorus/dfg"
	"chorus/domains"
)

// Point gives the concrete value of a variable in one thread state; ok is
// false when the variable has no single concrete integer value there
// (pointers, floats, summary cells, variables the state does not hold).
type Point func(v *cfg.Var) (val *big.Int, ok bool)

// Outside reports whether the concrete point lies outside the invariant
// st: it evaluates every constraint of st.Constraints() on the point and
// returns the first false one. A constraint mentioning a variable without
// a concrete value is skipped (the comparison then checks less, never
// more: it can miss a violation, never invent one). A bottom state
// contains no point: Outside returns true with its unsatisfiable
// constraint.
//
// The evaluation is independent of the domain's own operations (no
// Assume, no closure): it reads the constraints the domain exports and
// does exact arithmetic, so a domain bug in Assume cannot hide a
// violation here.
func Outside(st *dfg.State, pt Point) (bool, domains.LinCons) {
	cons, vars := st.Constraints()
	vals := make([]*big.Int, len(vars))
	known := make([]bool, len(vars))
	for i, v := range vars {
		vals[i], known[i] = pt(v)
	}
	var sum, term big.Int
next:
	for _, c := range cons {
		sum.SetInt64(c.Expr.Const)
		for _, t := range c.Expr.Terms {
			if t.Var < 0 || t.Var >= len(vars) || !known[t.Var] {
				continue next
			}
			term.SetInt64(t.Coef)
			term.Mul(&term, vals[t.Var])
			sum.Add(&sum, &term)
		}
		if !holds(sum.Sign(), c.Op) {
			return true, c
		}
	}
	return false, domains.LinCons{}
}

func holds(sign int, op domains.ConsOp) bool {
	switch op {
	case domains.LeZero:
		return sign <= 0
	case domains.EqZero:
		return sign == 0
	case domains.NeZero:
		return sign != 0
	}
	return true // an unknown operator constrains nothing we can evaluate
}

// IntValue converts an interpreter value of a variable of type t to an
// exact integer: unsigned 64-bit values keep their bits in N (N < 0 means
// N + 2^64), mathematical integers may be big. Pointers (a value with an
// object) and non-integer types have no integer value.
func IntValue(t cfg.Type, v interp.Value) (*big.Int, bool) {
	if !t.IsInt() || v.IsPointer() {
		return nil, false
	}
	if v.Big != nil {
		return new(big.Int).Set(v.Big), true
	}
	x := new(big.Int).SetInt64(v.N)
	if !t.Signed && t.Bits == 64 && v.N < 0 {
		x.Add(x, new(big.Int).Lsh(big.NewInt(1), 64))
	}
	return x, true
}
