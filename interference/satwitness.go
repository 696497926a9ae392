package interference

import (
	"math/big"

	"chorus/cfg"
)

// witness looks for a model of the conjunction of lits as sat.go encodes
// it for Z3, by trying a few values per unknown: when it finds one the
// conjunction is satisfiable and Z3 need not be asked (nor its context
// made, 7 ms and 17 MB: on the DDVerify drivers every query Z3 got was a
// bit test like (x & 1) == 0, or a few of them on one variable, all
// satisfiable). It reports false when it finds none, and then Z3 decides.
//
// Why the answer is Z3's: the unknowns are exactly those of the encoding
// (each variable encInt names, each opaque subterm fresh stands for, keyed
// by its text as fresh keys it), each taking values in the range the
// encoding asserts for it (inRange of its type; opaque terms of other
// literals are fresh unknowns of their own with nonempty ranges, so they
// never make the conjunction unsatisfiable), and evalInt/evalBool compute
// what encInt/encBool assert, over the mathematical integers with the same
// wrapping (wrap: Euclidean mod, as Z3's mod for a positive modulus). So a
// witness found here is a model of what Z3 would be asked, and Z3 answers
// satisfiable (or gives up, which also counts as satisfiable). Were the
// evaluation wrong somewhere, a false witness could only answer
// satisfiable where Z3 says unsatisfiable: a larger compat, imprecise but
// sound. TestWitnessAgreesWithZ3 compares the two on random conditions.
func (s *satChecker) witness(lits []Literal) bool {
	w := &witnessSearch{atomOf: map[string]int{}}
	// The unknowns, and for each literal the last unknown it reads (the
	// search checks a literal as soon as all its unknowns have values).
	last := make([]int, len(lits))
	for i, l := range lits {
		last[i] = -1
		w.maxAtom = -1
		if !w.collect(s.conds[l.Cond].Expr) {
			return false
		}
		last[i] = w.maxAtom
	}
	// Candidate values: 0, ±1, each constant of the literals and its
	// neighbours, and each unknown's range ends; kept within its range.
	var consts []*big.Int
	for _, c := range []int64{0, 1, -1} {
		consts = append(consts, big.NewInt(c))
	}
	for _, k := range w.consts {
		consts = append(consts, k, new(big.Int).Add(k, big.NewInt(1)), new(big.Int).Sub(k, big.NewInt(1)), new(big.Int).Neg(k))
	}
	cands := make([][]*big.Int, len(w.atoms))
	for i, a := range w.atoms {
		lo, hi, bounded := typeRange(a.typ)
		vals := consts
		if bounded {
			vals = append(append([]*big.Int(nil), consts...), lo, hi)
		}
		seen := map[string]bool{}
		for _, v := range vals {
			if bounded && (v.Cmp(lo) < 0 || v.Cmp(hi) > 0) || seen[v.String()] {
				continue
			}
			seen[v.String()] = true
			cands[i] = append(cands[i], v)
		}
	}
	// Literals without unknowns are checked up front (depth -1).
	w.vals = make([]*big.Int, len(w.atoms))
	ok := func(depth int) bool {
		for i, l := range lits {
			if last[i] != depth {
				continue
			}
			if w.evalBool(s.conds[l.Cond].Expr) == l.Neg {
				return false
			}
		}
		return true
	}
	if !ok(-1) {
		return false
	}
	budget := witnessBudget
	var search func(depth int) bool
	search = func(depth int) bool {
		if depth == len(w.atoms) {
			return true
		}
		for _, v := range cands[depth] {
			if budget--; budget < 0 {
				return false
			}
			w.vals[depth] = v
			if ok(depth) && search(depth+1) {
				return true
			}
		}
		return false
	}
	return search(0)
}

// witnessBudget bounds the values witness tries in all (a failed search
// costs at most this many literal evaluations per value).
const witnessBudget = 2000

// witnessSearch holds the unknowns of a witness search and their values.
type witnessSearch struct {
	atoms   []witnessAtom
	atomOf  map[string]int // by key: varKey, freshKey
	maxAtom int            // the largest unknown of the literal collect walked
	consts  []*big.Int
	vals    []*big.Int // by unknown, during the search
}

// witnessAtom is an unknown of the encoding and the type whose range Z3
// constrains it to.
type witnessAtom struct{ typ cfg.Type }

func (w *witnessSearch) atom(key string, t cfg.Type) int {
	i, ok := w.atomOf[key]
	if !ok {
		i = len(w.atoms)
		w.atomOf[key] = i
		w.atoms = append(w.atoms, witnessAtom{typ: t})
	}
	w.maxAtom = max(w.maxAtom, i)
	return i
}

func varKey(v *cfg.Var) string { return "v:" + itoa(v.ID) }

// freshKey is the key of an opaque term (its text, as fresh keys it).
func freshKey(e cfg.Expr) string { return "o:" + exprString(e) }

func itoa(n int) string { return string(appendInt(nil, n)) }

// collect registers the unknowns and constants of e as encInt/encBool
// would encode it (the same cases); false when e is too big to try.
func (w *witnessSearch) collect(e cfg.Expr) bool {
	if len(w.atoms) > 8 {
		return false
	}
	switch e := e.(type) {
	case *cfg.Const:
		if e.Type.Kind != cfg.IntType {
			w.atom(freshKey(e), e.ExprType())
			return true
		}
		w.consts = append(w.consts, constValue(e))
		return true
	case *cfg.VarRef:
		w.atom(varKey(e.Var), e.Var.Type)
		return true
	case *cfg.Deref:
		if v := exactCell(e); v != nil {
			w.atom(varKey(v), v.Type)
		} else {
			w.atom(freshKey(e), e.ExprType())
		}
		return true
	case *cfg.Unary:
		switch e.Op {
		case cfg.Neg, cfg.Not, cfg.BitNot:
			return w.collect(e.X)
		}
	case *cfg.Binary:
		switch e.Op {
		case cfg.Add, cfg.Sub, cfg.Mul, cfg.Eq, cfg.Ne, cfg.Lt, cfg.Le, cfg.Gt, cfg.Ge, cfg.LAnd, cfg.LOr:
			return w.collect(e.X) && w.collect(e.Y)
		}
	case *cfg.Cast:
		if e.Type.Kind == cfg.IntType && e.X.ExprType().Kind == cfg.IntType {
			return w.collect(e.X)
		}
	}
	w.atom(freshKey(e), e.ExprType()) // fresh
	return true
}

// constValue is the integer encInt gives an integer constant.
func constValue(e *cfg.Const) *big.Int {
	v := big.NewInt(e.Value)
	if !e.Type.Signed && e.Type.Bits == 64 && e.Value < 0 {
		v = new(big.Int).SetUint64(uint64(e.Value))
	}
	return wrapBig(v, e.Type)
}

// wrapBig is sat.go's wrap on a value.
func wrapBig(x *big.Int, t cfg.Type) *big.Int {
	lo, hi, ok := typeRange(t)
	if !ok {
		return x
	}
	m := new(big.Int).Sub(hi, lo)
	m.Add(m, big.NewInt(1))
	if t.Signed {
		r := new(big.Int).Sub(x, lo)
		r.Mod(r, m)
		return r.Add(r, lo)
	}
	return new(big.Int).Mod(x, m)
}

// evalInt is the value encInt's term takes under the unknowns' values
// (every unknown of e has one: collect walked e).
func (w *witnessSearch) evalInt(e cfg.Expr) *big.Int {
	switch e := e.(type) {
	case *cfg.Const:
		if e.Type.Kind != cfg.IntType {
			return w.vals[w.atomOf[freshKey(e)]]
		}
		return constValue(e)
	case *cfg.VarRef:
		return w.vals[w.atomOf[varKey(e.Var)]]
	case *cfg.Deref:
		if v := exactCell(e); v != nil {
			return w.vals[w.atomOf[varKey(v)]]
		}
		return w.vals[w.atomOf[freshKey(e)]]
	case *cfg.Unary:
		switch e.Op {
		case cfg.Neg:
			return wrapBig(new(big.Int).Neg(w.evalInt(e.X)), e.Type)
		case cfg.Not:
			return boolInt(!w.evalBool(e.X))
		case cfg.BitNot:
			r := new(big.Int).Neg(w.evalInt(e.X))
			return wrapBig(r.Sub(r, big.NewInt(1)), e.Type)
		}
	case *cfg.Binary:
		switch e.Op {
		case cfg.Add:
			return wrapBig(new(big.Int).Add(w.evalInt(e.X), w.evalInt(e.Y)), e.Type)
		case cfg.Sub:
			return wrapBig(new(big.Int).Sub(w.evalInt(e.X), w.evalInt(e.Y)), e.Type)
		case cfg.Mul:
			return wrapBig(new(big.Int).Mul(w.evalInt(e.X), w.evalInt(e.Y)), e.Type)
		case cfg.Eq, cfg.Ne, cfg.Lt, cfg.Le, cfg.Gt, cfg.Ge, cfg.LAnd, cfg.LOr:
			return boolInt(w.evalBool(e))
		}
	case *cfg.Cast:
		if e.Type.Kind == cfg.IntType && e.X.ExprType().Kind == cfg.IntType {
			return wrapBig(w.evalInt(e.X), e.Type)
		}
	}
	return w.vals[w.atomOf[freshKey(e)]] // fresh
}

func boolInt(b bool) *big.Int {
	if b {
		return big.NewInt(1)
	}
	return big.NewInt(0)
}

// evalBool is the truth encBool's formula takes under the unknowns' values.
func (w *witnessSearch) evalBool(e cfg.Expr) bool {
	switch e := e.(type) {
	case *cfg.Unary:
		if e.Op == cfg.Not {
			return !w.evalBool(e.X)
		}
	case *cfg.Binary:
		switch e.Op {
		case cfg.Eq:
			return w.evalInt(e.X).Cmp(w.evalInt(e.Y)) == 0
		case cfg.Ne:
			return w.evalInt(e.X).Cmp(w.evalInt(e.Y)) != 0
		case cfg.Lt:
			return w.evalInt(e.X).Cmp(w.evalInt(e.Y)) < 0
		case cfg.Le:
			return w.evalInt(e.X).Cmp(w.evalInt(e.Y)) <= 0
		case cfg.Gt:
			return w.evalInt(e.X).Cmp(w.evalInt(e.Y)) > 0
		case cfg.Ge:
			return w.evalInt(e.X).Cmp(w.evalInt(e.Y)) >= 0
		case cfg.LAnd:
			return w.evalBool(e.X) && w.evalBool(e.Y)
		case cfg.LOr:
			return w.evalBool(e.X) || w.evalBool(e.Y)
		}
	}
	return w.evalInt(e).Sign() != 0
}
