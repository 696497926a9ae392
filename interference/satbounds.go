package interference

import (
	"math/big"

	"chorus/cfg"
)

// decideBounds decides, without Z3, a conjunction whose literals each
// compare one integer variable with a constant (x < 3, m == 1, !(c == 0),
// a variable as a truth value, a widening cast of a variable): the most
// common queries by far (lock words, flags, counters). It is exact for
// that fragment under the same encoding Z3 gets (sat.go: each variable
// within its type's range, constants wrapped to their type, a cast that
// only widens is the identity): per variable the literals bound an
// interval and exclude points, and the conjunction is satisfiable iff
// every variable keeps a value. ok is false when some literal is outside
// the fragment; then Z3 decides. (The type-range constraints of opaque
// terms Z3 also gets constrain fresh variables of their own: they cannot
// change the answer.)
func (s *satChecker) decideBounds(lits []Literal) (sat, ok bool) {
	type bounds struct {
		lo, hi   *big.Int
		excluded map[string]*big.Int
	}
	vars := map[*cfg.Var]*bounds{}
	for _, l := range lits {
		v, op, c, ok := boundLiteral(s.conds[l.Cond].Expr, l.Neg)
		if !ok {
			return false, false
		}
		b := vars[v]
		if b == nil {
			lo, hi, _ := typeRange(v.Type)
			b = &bounds{lo: lo, hi: hi}
			vars[v] = b
		}
		switch op {
		case cfg.Lt: // v < c: v <= c-1
			c = new(big.Int).Sub(c, big.NewInt(1))
			fallthrough
		case cfg.Le:
			if c.Cmp(b.hi) < 0 {
				b.hi = c
			}
		case cfg.Gt: // v > c: v >= c+1
			c = new(big.Int).Add(c, big.NewInt(1))
			fallthrough
		case cfg.Ge:
			if c.Cmp(b.lo) > 0 {
				b.lo = c
			}
		case cfg.Eq:
			if c.Cmp(b.lo) > 0 {
				b.lo = c
			}
			if c.Cmp(b.hi) < 0 {
				b.hi = c
			}
		case cfg.Ne:
			if b.excluded == nil {
				b.excluded = map[string]*big.Int{}
			}
			b.excluded[c.String()] = c
		}
	}
	for _, b := range vars {
		if b.lo.Cmp(b.hi) > 0 {
			return false, true
		}
		size := new(big.Int).Sub(b.hi, b.lo)
		size.Add(size, big.NewInt(1))
		inside := int64(0)
		for _, c := range b.excluded {
			if c.Cmp(b.lo) >= 0 && c.Cmp(b.hi) <= 0 {
				inside++
			}
		}
		if size.Cmp(big.NewInt(inside)) <= 0 {
			return false, true // every value in range excluded
		}
	}
	return true, true
}

// boundLiteral reads e (negated when neg) as "v op c" with v a bounded
// integer variable as sat.go encodes it and c an integer constant
// (wrapped to its type); ok is false otherwise.
func boundLiteral(e cfg.Expr, neg bool) (v *cfg.Var, op cfg.BinOp, c *big.Int, ok bool) {
	for {
		u, isNot := e.(*cfg.Unary)
		if !isNot || u.Op != cfg.Not {
			break
		}
		e, neg = u.X, !neg
	}
	if v := boundVar(e); v != nil { // v as a truth value: v != 0
		op = cfg.Ne
		if neg {
			op = cfg.Eq
		}
		return v, op, new(big.Int), true
	}
	b, isBin := e.(*cfg.Binary)
	if !isBin {
		return nil, 0, nil, false
	}
	op = b.Op
	switch op {
	case cfg.Eq, cfg.Ne, cfg.Lt, cfg.Le, cfg.Gt, cfg.Ge:
	default:
		return nil, 0, nil, false
	}
	x, y := b.X, b.Y
	if _, constLeft := x.(*cfg.Const); constLeft {
		x, y = y, x
		op = op.Swapped()
	}
	v = boundVar(x)
	k, isConst := y.(*cfg.Const)
	if v == nil || !isConst || k.Type.Kind != cfg.IntType {
		return nil, 0, nil, false
	}
	c = wrapConst(k)
	if neg {
		op = op.Negated()
	}
	return v, op, c, true
}

// boundVar is the variable sat.go encodes e as (a register or an exactly
// addressed cell, under casts that only widen), when it has a bounded
// integer type; nil otherwise.
func boundVar(e cfg.Expr) *cfg.Var {
	var v *cfg.Var
	switch e := e.(type) {
	case *cfg.VarRef:
		v = e.Var
	case *cfg.Deref:
		v = exactCell(e)
	case *cfg.Cast:
		inner := boundVar(e.X)
		if inner == nil || e.Type.Kind != cfg.IntType || !widens(e.X.ExprType(), e.Type) || !widens(inner.Type, e.X.ExprType()) {
			return nil
		}
		return inner
	}
	if v == nil {
		return nil
	}
	if _, _, bounded := typeRange(v.Type); !bounded {
		return nil
	}
	return v
}

// widens reports whether every value of from is a value of to (so that
// wrapping to "to" leaves it unchanged).
func widens(from, to cfg.Type) bool {
	flo, fhi, ok1 := typeRange(from)
	tlo, thi, ok2 := typeRange(to)
	return ok1 && ok2 && flo.Cmp(tlo) >= 0 && fhi.Cmp(thi) <= 0
}

// wrapConst is the value sat.go's encInt gives an integer constant.
func wrapConst(k *cfg.Const) *big.Int {
	v := big.NewInt(k.Value)
	if !k.Type.Signed && k.Type.Bits == 64 && k.Value < 0 {
		v = new(big.Int).SetUint64(uint64(k.Value))
	}
	lo, hi, ok := typeRange(k.Type)
	if !ok {
		return v
	}
	m := new(big.Int).Sub(hi, lo)
	m.Add(m, big.NewInt(1))
	v.Sub(v, lo)
	v.Mod(v, m) // Euclidean: in [0, m)
	return v.Add(v, lo)
}
