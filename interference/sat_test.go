package interference

import (
	"testing"

	"chorus/cfg"
)

func TestCanonical(t *testing.T) {
	b := newProg()
	x := b.global("x")
	cases := []struct {
		e    cfg.Expr
		want string
		neg  bool
	}{
		{bin(cfg.Gt, ref(x), num(0)), "(x <= 0)", true},
		{bin(cfg.Le, ref(x), num(0)), "(x <= 0)", false},
		{&cfg.Unary{Op: cfg.Not, X: bin(cfg.Le, ref(x), num(0)), Type: cfg.Int32}, "(x <= 0)", true},
		{bin(cfg.Eq, bin(cfg.Ge, ref(x), num(2)), num(0)), "(x < 2)", false},
		{bin(cfg.Ne, ref(x), num(3)), "(x == 3)", true},
		{ref(x), "(x == 0)", true},
	}
	for _, c := range cases {
		p, n := canonical(c.e)
		if exprString(p) != c.want || n != c.neg {
			t.Errorf("canonical(%s) = %s, %v; want %s, %v", exprString(c.e), exprString(p), n, c.want, c.neg)
		}
	}
}

func TestSatChecker(t *testing.T) {
	b := newProg()
	x := b.global("x")
	small := &cfg.Var{ID: len(b.p.Vars), Name: "c", Scope: cfg.Global, Type: cfg.Type{Kind: cfg.IntType, Bits: 8, Signed: true}}
	b.p.Vars = append(b.p.Vars, small)
	u := &cfg.Var{ID: len(b.p.Vars), Name: "u", Scope: cfg.Global, Type: cfg.Uint32}
	b.p.Vars = append(b.p.Vars, u)
	i8 := small.Type
	conds := []*Condition{
		{ID: 0, Expr: bin(cfg.Lt, ref(x), num(3))},
		{ID: 1, Expr: bin(cfg.Le, ref(x), num(5))},
		// (c + 1 < c) over int8: true only when c + 1 wraps (c == 127)
		{ID: 2, Expr: &cfg.Binary{Op: cfg.Lt, X: &cfg.Binary{Op: cfg.Add, X: ref(small), Y: &cfg.Const{Type: i8, Value: 1}, Type: i8}, Y: ref(small), Type: cfg.Int32}},
		{ID: 3, Expr: &cfg.Binary{Op: cfg.Lt, X: ref(u), Y: &cfg.Const{Type: cfg.Uint32, Value: 0}, Type: cfg.Int32}},
		{ID: 4, Expr: &cfg.Binary{Op: cfg.Lt, X: ref(small), Y: &cfg.Const{Type: i8, Value: 127}, Type: cfg.Int32}},
	}
	s := newSatChecker(conds, 1000)
	defer s.close()
	check := func(want bool, lits ...Literal) {
		t.Helper()
		if got := s.sat(lits); got != want {
			t.Errorf("sat(%v) = %v, want %v", lits, got, want)
		}
	}
	check(true)
	check(false, Literal{0, false}, Literal{0, true})  // clash
	check(true, Literal{0, false}, Literal{1, false})  // x < 3 ∧ x <= 5
	check(false, Literal{0, false}, Literal{1, true})  // x < 3 ∧ x > 5
	check(true, Literal{2, false})                     // wraps at 127
	check(false, Literal{2, false}, Literal{4, false}) // ... but not below 127
	check(false, Literal{3, false})                    // unsigned < 0
	check(true, Literal{3, true})
	if s.Queries == 0 {
		t.Errorf("no Z3 queries asked")
	}
	// Independent groups (x; c; u) are decided apart and memoized apart:
	// an unsatisfiable group makes the conjunction unsatisfiable, and a
	// known group costs no new query.
	check(false, Literal{0, false}, Literal{1, true}, Literal{3, true}) // x < 3 ∧ x > 5 ∧ u >= 0
	q := s.Queries
	check(true, Literal{0, false}, Literal{1, false}, Literal{3, true}, Literal{4, false})
	check(false, Literal{2, false}, Literal{3, true}, Literal{4, false})
	if s.Queries != q+1 { // only {c < 127} is new
		t.Errorf("%d queries for groups already decided, want 1", s.Queries-q)
	}
}
