package dfg

import (
	"testing"

	"chorus/cfg"
	"chorus/domains"
)

// A weak store through a pointer that may denote a, b or c (boxes:
// weakWriteBox) stores a value computed before the store, into one of
// them: each keeps its old value or takes the new one, and no cell sees
// another's update. *p := *q + 1 with q → {a}, a = 0, b = -5, c = 7 gives
// a ∈ [0,1], b ∈ [-5,1], c ∈ [1,7]. A box that let b see a's update
// (a = [0,1] before b's store) would give b ∈ [-5,2]; one that dropped
// the old values would give b = 1.
func TestWeakStoreThroughSeveralCells(t *testing.T) {
	b := newIRB()
	pt := cfg.Type{Kind: cfg.PtrType, Bits: 64}
	_, a := b.scalarObj("a", cfg.Int32, []cfg.InitValue{{Offset: 0, Type: cfg.Int32, Value: k32(0)}})
	_, bv := b.scalarObj("b", cfg.Int32, []cfg.InitValue{{Offset: 0, Type: cfg.Int32, Value: k32(-5)}})
	_, cv := b.scalarObj("c", cfg.Int32, []cfg.InitValue{{Offset: 0, Type: cfg.Int32, Value: k32(7)}})
	p := b.local("p", pt)
	star := func(cells ...*cfg.Var) *cfg.Deref {
		return &cfg.Deref{Addr: ref(p), Type: cfg.Int32, Cells: cells}
	}
	readA := &cfg.Deref{Addr: &cfg.AddrOf{Object: a.Mem, Type: pt}, Type: cfg.Int32, Cells: []*cfg.Var{a}}
	chk := func(x *cfg.Var, lo, hi int64) *cfg.CheckAct {
		r := &cfg.Deref{Addr: &cfg.AddrOf{Object: x.Mem, Type: pt}, Type: cfg.Int32, Cells: []*cfg.Var{x}}
		return b.check(cfg.AssertCheck, bin(cfg.LAnd, bin(cfg.Ge, r, k32(lo)), bin(cfg.Le, r, k32(hi))))
	}
	ca, cb, cc := chk(a, 0, 1), chk(bv, -5, 1), chk(cv, 1, 7)
	nb := b.check(cfg.AssertCheck, bin(cfg.Eq, &cfg.Deref{Addr: &cfg.AddrOf{Object: bv.Mem, Type: pt}, Type: cfg.Int32, Cells: []*cfg.Var{bv}}, k32(1)))
	_, l := b.seq(b.cur.Entry,
		havoc(ref(p)),
		asg(star(a, bv, cv), bin(cfg.Add, readA, k32(1))),
		ca, cb, cc, nb)
	b.exit(l)
	prog := b.fix()
	s := solve(t, prog, false, domains.Intervals)
	wantStatus(t, s, ca.Check, Proven)
	wantStatus(t, s, cb.Check, Proven)
	wantStatus(t, s, cc.Check, Proven)
	wantStatus(t, s, nb.Check, Unproven)
	// The relational domain takes write's general loop: sound too.
	s = solve(t, prog, true, domains.Octagons)
	wantStatus(t, s, ca.Check, Proven)
	wantStatus(t, s, cc.Check, Proven)
	wantStatus(t, s, nb.Check, Unproven)
}
