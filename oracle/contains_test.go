package oracle

import (
	"context"
	"math/big"
	"testing"

	"chorus/analysis"
	"chorus/cfg"
	"chorus/cfg/interp"
)

// Outside evaluates the invariant's constraints exactly on a point: the
// value the program computes (7) is inside, its neighbours are outside, and
// a variable without a value is not constrained.
func TestOutside(t *testing.T) {
	src := `
extern void __VERIFIER_assert(int);
int g = 5;
int main(void) {
  g = 7;
  __VERIFIER_assert(g == 7);
  return 0;
}
`
	p, err := lower("t.c", src, false)
	if err != nil {
		t.Fatal(err)
	}
	var chk *cfg.Check
	for _, c := range p.Checks {
		if c.Kind == cfg.AssertCheck {
			chk = c
		}
	}
	if chk == nil {
		t.Fatal("check not found")
	}
	for _, dom := range []string{"interval", "octagon"} {
		res, err := analysis.Analyze(context.Background(), p, analysis.WithDomain(dom))
		if err != nil {
			t.Fatal(err)
		}
		st := res.Solver.At(chk.Loc)
		// The check reads the value of g loaded into a temporary, equal
		// to 7 (octagon's mixed cells relate it with g too).
		_, vars := st.Constraints()
		var g *cfg.Var
		for _, v := range vars {
			if v.Scope == cfg.Local {
				g = v
			}
		}
		if g == nil || len(vars) > 2 {
			t.Fatalf("%s: invariant %s over %v, want the temporary (and g)", dom, st, vars)
		}
		at := func(x int64) Point {
			return func(v *cfg.Var) (*big.Int, bool) {
				if v == g {
					return big.NewInt(x), true
				}
				return nil, false
			}
		}
		if bad, c := Outside(st, at(7)); bad {
			t.Errorf("%s: g = 7 reported outside %s (%v)", dom, st, c)
		}
		for _, x := range []int64{6, 8, -7} {
			if bad, _ := Outside(st, at(x)); !bad {
				t.Errorf("%s: g = %d reported inside %s", dom, x, st)
			}
		}
		none := func(*cfg.Var) (*big.Int, bool) { return nil, false }
		if bad, _ := Outside(st, none); bad {
			t.Errorf("%s: a point without values violated %s", dom, st)
		}
	}
}

func TestIntValue(t *testing.T) {
	u64 := cfg.Type{Kind: cfg.IntType, Bits: 64}
	x, ok := IntValue(u64, interp.IntValue(-1))
	if want, _ := new(big.Int).SetString("18446744073709551615", 10); !ok || x.Cmp(want) != 0 {
		t.Errorf("u64 -1 bits = %v, want 2^64-1", x)
	}
	if x, ok := IntValue(cfg.Int32, interp.IntValue(-5)); !ok || x.Int64() != -5 {
		t.Errorf("i32 -5 = %v", x)
	}
	if _, ok := IntValue(cfg.Int32, interp.Value{Obj: 3, N: 4}); ok {
		t.Error("a pointer value has an integer value")
	}
	if _, ok := IntValue(cfg.Type{Kind: cfg.PtrType, Bits: 64}, interp.IntValue(0)); ok {
		t.Error("a pointer type has an integer value")
	}
}
