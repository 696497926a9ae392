package interference

import (
	"math/big"
	"slices"
	"sort"
	"strconv"
	"strings"

	"chorus/cfg"
	"chorus/internal/z3"
)

// satChecker decides whether a conjunction of literals over the observable
// conditions is satisfiable. A literal and its negation clash without any
// solver; otherwise, when the literals say something (every one of them
// could be unsatisfiable on its own, e.g. x > INT_MAX, and several can
// interact through shared variables), Z3 decides over the exact
// machine-integer semantics of the conditions. Results are memoized by the
// sorted literal list. Z3 giving up (timeout, unknown, error) counts as
// satisfiable: compat may only be over-approximated.
//
// The Z3 context is created at the first query that needs it: creating
// one costs about 7 ms and 17 MB of fresh memory, more than the whole
// analysis of most small programs, which never ask Z3 anything.
type satChecker struct {
	conds     []*Condition
	useZ3     bool // false: clashes only (WithoutZ3, or closed)
	timeoutMS uint
	ctx       *z3.Context // nil until the first query (ensureZ3)
	solver    *z3.Solver
	vars      map[*cfg.Var]z3.Int
	opaque    map[string]z3.Int
	encoded   map[int]z3.Bool
	memo      map[string]bool
	// opaqueRanges holds the type-range constraints of opaque terms.
	opaqueRanges []z3.Bool

	// noBounds sends every query to Z3 (the tests compare decideBounds
	// with it).
	noBounds bool

	// Unavailable is why Z3 could not be used (libz3 missing or a context
	// that could not be made), nil while it can. Every query then counts
	// as satisfiable: sound, but compat loses what Z3 would have excluded,
	// so the user is told (Engine.Z3Unavailable).
	Unavailable error

	Queries int // queries decided (memo misses that were not clashes)
	Bounded int // of those, decided without Z3 (decideBounds or witness)
	// Witnessed: of Bounded, those witness found a model of.
	Witnessed int
	// noWitness sends the queries witness would decide to Z3 (the
	// tests compare the two).
	noWitness  bool
	Unknown    int   // queries Z3 could not decide (counted satisfiable)
	LastGiveUp error // why Z3 last could not decide (for the tests' logs)
}

func newSatChecker(conds []*Condition, timeoutMS uint) *satChecker {
	return &satChecker{
		conds:     conds,
		useZ3:     true,
		timeoutMS: timeoutMS,
		vars:      map[*cfg.Var]z3.Int{},
		opaque:    map[string]z3.Int{},
		encoded:   map[int]z3.Bool{},
		memo:      map[string]bool{},
	}
}

// newZ3Context makes the checker's Z3 context (a variable so that a test
// can give it a context in error, as a machine without libz3 does).
var newZ3Context = z3.NewContext

// ensureZ3 creates the Z3 context and solver on first use.
func (s *satChecker) ensureZ3() {
	if s.ctx != nil {
		return
	}
	c := z3.NewContextConfig()
	c.SetUint("timeout", s.timeoutMS)
	s.ctx = newZ3Context(c)
	s.solver = z3.NewSolver(s.ctx)
	if err := s.ctx.Err(); err != nil && s.Unavailable == nil {
		s.Unavailable = err
	}
}

func (s *satChecker) close() {
	s.useZ3 = false
	if s.ctx != nil {
		s.ctx.Close()
		s.ctx = nil
	}
}

// sat reports whether the conjunction of lits may be satisfiable.
func (s *satChecker) sat(lits []Literal) bool {
	if len(lits) == 0 {
		return true
	}
	lits = append([]Literal(nil), lits...)
	sort.Slice(lits, func(i, j int) bool {
		if lits[i].Cond != lits[j].Cond {
			return lits[i].Cond < lits[j].Cond
		}
		return !lits[i].Neg && lits[j].Neg
	})
	// The same literal twice (a signature's literal asked again with an
	// enabled class that holds it) is asked once: c ∧ c is c, and its
	// key is then that of c alone, memoized already more often than not.
	lits = slices.CompactFunc(lits, func(a, b Literal) bool { return a == b })
	var key strings.Builder
	for i, l := range lits {
		if i > 0 && lits[i-1].Cond == l.Cond && lits[i-1].Neg != l.Neg {
			return false // c ∧ ¬c
		}
		if l.Neg {
			key.WriteByte('!')
		}
		key.WriteString(strconv.Itoa(l.Cond))
		key.WriteByte(',')
	}
	k := key.String()
	if r, ok := s.memo[k]; ok {
		return r
	}
	r := true
	if !s.useZ3 {
		r = true // clashes only (WithoutZ3)
	} else if comps := s.split(lits); len(comps) > 1 {
		// Literals over disjoint variables are independent: the
		// conjunction is satisfiable iff every group is. Each group is
		// memoized on its own, so a position's Φ̂ is decided once and an
		// enabled class only together with the literals it shares
		// variables with. (Were two groups secretly dependent, this
		// could only answer satisfiable more often: sound.)
		for _, c := range comps {
			if !s.sat(c) {
				r = false
				break
			}
		}
	} else {
		r = s.ask(lits)
	}
	s.memo[k] = r
	return r
}

// split groups sorted literals into classes connected by shared
// variables (each class stays sorted).
func (s *satChecker) split(lits []Literal) [][]Literal {
	parent := make([]int, len(lits))
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	owner := map[*cfg.Var]int{}
	for i, l := range lits {
		// The variables the Z3 encoding constrains (Condition.Vars may
		// be incomplete for hand-made conditions).
		for _, v := range exprIntVars(s.conds[l.Cond].Expr) {
			if j, ok := owner[v]; ok {
				parent[find(i)] = find(j)
			} else {
				owner[v] = i
			}
		}
	}
	groups := map[int]int{}
	var out [][]Literal
	for i, l := range lits {
		r := find(i)
		g, ok := groups[r]
		if !ok {
			g = len(out)
			groups[r] = g
			out = append(out, nil)
		}
		out[g] = append(out[g], l)
	}
	return out
}

func (s *satChecker) ask(lits []Literal) bool {
	if !s.useZ3 {
		return true
	}
	s.Queries++
	if !s.noBounds {
		if sat, ok := s.decideBounds(lits); ok {
			s.Bounded++
			return sat
		}
	}
	if !s.noWitness && s.witness(lits) {
		s.Bounded++
		s.Witnessed++
		return true // a model of the encoding (satwitness.go)
	}
	s.ensureZ3()
	s.solver.Push()
	defer s.solver.Pop()
	for _, l := range lits {
		b := s.condition(l.Cond)
		if l.Neg {
			b = b.Not()
		}
		s.solver.Assert(b)
	}
	// Type ranges of the variables these literals mention.
	ranged := map[*cfg.Var]bool{}
	for _, l := range lits {
		for _, v := range exprIntVars(s.conds[l.Cond].Expr) {
			if x, ok := s.vars[v]; ok && !ranged[v] {
				ranged[v] = true
				s.solver.Assert(s.inRange(x, v.Type))
			}
		}
	}
	for _, x := range s.opaqueRanges {
		s.solver.Assert(x)
	}
	sat, err := s.solver.Check()
	if err != nil {
		// Unknown or a binding error: never conclude unsat from it.
		s.Unknown++
		s.LastGiveUp = err
		return true
	}
	return sat
}

func (s *satChecker) condition(id int) z3.Bool {
	if b, ok := s.encoded[id]; ok {
		return b
	}
	b := s.encBool(s.conds[id].Expr)
	s.encoded[id] = b
	return b
}

func (s *satChecker) lit(v int64) z3.Int { return s.ctx.FromInt(v, s.ctx.IntSort()).(z3.Int) }

func (s *satChecker) big(v *big.Int) z3.Int { return s.ctx.FromBigInt(v, s.ctx.IntSort()).(z3.Int) }

func typeRange(t cfg.Type) (lo, hi *big.Int, bounded bool) {
	if t.Kind != cfg.IntType || t.Bits == 0 {
		return nil, nil, false
	}
	one := big.NewInt(1)
	if t.Signed {
		hi = new(big.Int).Lsh(one, uint(t.Bits-1))
		lo = new(big.Int).Neg(hi)
		hi.Sub(hi, one)
		return lo, hi, true
	}
	hi = new(big.Int).Lsh(one, uint(t.Bits))
	hi.Sub(hi, one)
	return big.NewInt(0), hi, true
}

func (s *satChecker) inRange(x z3.Int, t cfg.Type) z3.Bool {
	lo, hi, ok := typeRange(t)
	if !ok {
		return s.ctx.True()
	}
	return x.GE(s.big(lo)).And(x.LE(s.big(hi)))
}

// wrap reduces x to the range of t (two's complement), exactly as the IR's
// Binary, Unary and Cast results are wrapped.
func (s *satChecker) wrap(x z3.Int, t cfg.Type) z3.Int {
	lo, hi, ok := typeRange(t)
	if !ok {
		return x
	}
	modulus := new(big.Int).Sub(hi, lo)
	modulus.Add(modulus, big.NewInt(1))
	m := s.big(modulus)
	if t.Signed {
		// ((x - lo) mod 2^n) + lo
		return x.Sub(s.big(lo)).Mod(m).Add(s.big(lo))
	}
	return x.Mod(m)
}

func (s *satChecker) variable(v *cfg.Var) z3.Int {
	if x, ok := s.vars[v]; ok {
		return x
	}
	x := s.ctx.IntConst("v" + strconv.Itoa(v.ID) + "_" + v.Name)
	s.vars[v] = x
	return x
}

// fresh stands for a subterm we do not encode exactly (division, bit
// operations): an unconstrained value of its type, the same one for equal
// subterms (they denote the same value in the one global state both
// literals describe).
func (s *satChecker) fresh(e cfg.Expr) z3.Int {
	k := exprString(e)
	if x, ok := s.opaque[k]; ok {
		return x
	}
	x := s.ctx.IntConst("o" + strconv.Itoa(len(s.opaque)))
	s.opaque[k] = x
	s.opaqueRanges = append(s.opaqueRanges, s.inRange(x, e.ExprType()))
	return x
}

func (s *satChecker) encInt(e cfg.Expr) z3.Int {
	switch e := e.(type) {
	case *cfg.Const:
		if e.Type.Kind != cfg.IntType {
			return s.fresh(e)
		}
		v := big.NewInt(e.Value)
		if !e.Type.Signed && e.Type.Bits == 64 && e.Value < 0 {
			v = new(big.Int).SetUint64(uint64(e.Value))
		}
		return s.wrap(s.big(v), e.Type)
	case *cfg.VarRef:
		return s.variable(e.Var)
	case *cfg.Deref:
		if v := exactCell(e); v != nil {
			return s.variable(v)
		}
		return s.fresh(e)
	case *cfg.Unary:
		switch e.Op {
		case cfg.Neg:
			return s.wrap(s.encInt(e.X).Neg(), e.Type)
		case cfg.Not:
			return s.boolToInt(s.encBool(e.X).Not())
		case cfg.BitNot:
			return s.wrap(s.encInt(e.X).Neg().Sub(s.lit(1)), e.Type)
		}
	case *cfg.Binary:
		switch e.Op {
		case cfg.Add:
			return s.wrap(s.encInt(e.X).Add(s.encInt(e.Y)), e.Type)
		case cfg.Sub:
			return s.wrap(s.encInt(e.X).Sub(s.encInt(e.Y)), e.Type)
		case cfg.Mul:
			return s.wrap(s.encInt(e.X).Mul(s.encInt(e.Y)), e.Type)
		case cfg.Eq, cfg.Ne, cfg.Lt, cfg.Le, cfg.Gt, cfg.Ge, cfg.LAnd, cfg.LOr:
			return s.boolToInt(s.encBool(e))
		}
	case *cfg.Cast:
		if e.Type.Kind == cfg.IntType && e.X.ExprType().Kind == cfg.IntType {
			return s.wrap(s.encInt(e.X), e.Type)
		}
	}
	return s.fresh(e)
}

func (s *satChecker) boolToInt(b z3.Bool) z3.Int {
	return b.IfThenElse(s.lit(1), s.lit(0)).(z3.Int)
}

func (s *satChecker) encBool(e cfg.Expr) z3.Bool {
	switch e := e.(type) {
	case *cfg.Unary:
		if e.Op == cfg.Not {
			return s.encBool(e.X).Not()
		}
	case *cfg.Binary:
		switch e.Op {
		case cfg.Eq:
			return s.encInt(e.X).Eq(s.encInt(e.Y))
		case cfg.Ne:
			return s.encInt(e.X).NE(s.encInt(e.Y))
		case cfg.Lt:
			return s.encInt(e.X).LT(s.encInt(e.Y))
		case cfg.Le:
			return s.encInt(e.X).LE(s.encInt(e.Y))
		case cfg.Gt:
			return s.encInt(e.X).GT(s.encInt(e.Y))
		case cfg.Ge:
			return s.encInt(e.X).GE(s.encInt(e.Y))
		case cfg.LAnd:
			return s.encBool(e.X).And(s.encBool(e.Y))
		case cfg.LOr:
			return s.encBool(e.X).Or(s.encBool(e.Y))
		}
	}
	return s.encInt(e).NE(s.lit(0))
}

// exprIntVars lists the variables encoded by variable(): registers and
// exactly-addressed cells.
func exprIntVars(e cfg.Expr) []*cfg.Var {
	var out []*cfg.Var
	var walk func(e cfg.Expr)
	walk = func(e cfg.Expr) {
		switch e := e.(type) {
		case *cfg.VarRef:
			out = append(out, e.Var)
		case *cfg.Deref:
			if v := exactCell(e); v != nil {
				out = append(out, v)
			}
		case *cfg.Unary:
			walk(e.X)
		case *cfg.Binary:
			walk(e.X)
			walk(e.Y)
		case *cfg.Cast:
			walk(e.X)
		}
	}
	walk(e)
	return out
}
