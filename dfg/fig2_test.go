package dfg

import (
	"context"
	"testing"

	"chorus/cfg"
)

// TestFigure2Shape: the paper's Figure 2 (c := c + incr with incr > 0 and
// an overflow check) with the interference edges added by hand: c >= 0
// must be proven with intervals too, which needs the clamped signed sum
// to keep the range the overflow check guarantees.
func TestFigure2Shape(t *testing.T) {
	b := newIRB()
	mainT := b.cur
	c := b.global("c", cfg.Int32, k32(0))
	T := b.template("adder")
	incr := b.local("incr", cfg.Int32)
	tt := b.local("t", cfg.Int32)
	u := b.local("u", cfg.Int32)
	mathSum := &cfg.Binary{Op: cfg.Add, X: ref(tt), Y: ref(incr), Type: cfg.MathInt}
	ge := b.check(cfg.AssertCheck, bin(cfg.Ge, ref(u), k32(0)))
	first, last := b.seq(nil, &cfg.Skip{}, havoc(ref(incr)), assume(bin(cfg.Gt, ref(incr), k32(0))),
		asg(ref(tt), ref(c)),
		b.check(cfg.OverflowCheck, &cfg.Binary{Op: cfg.Le, X: mathSum, Y: kM(2147483647), Type: cfg.Int32}),
		asg(ref(c), bin(cfg.Add, ref(tt), ref(incr))),
		asg(ref(u), ref(c)), ge)
	T.Entry = first
	b.exit(last)
	b.cur = mainT
	head := b.loc(&cfg.Skip{})
	link(mainT.Entry, head)
	_, sp := b.seq(head, &cfg.Spawn{Targets: []*cfg.Template{T}})
	link(sp, head)
	b.exit(head)
	p := b.fix()
	var R, W, U *cfg.Loc
	for _, l := range p.Locs {
		switch ActionString(l.Act) {
		case "t := c":
			R = l
		case "c := (t + incr)":
			W = l
		case "u := c":
			U = l
		}
	}
	for _, dom := range bothDomains {
		part := NewPartition(p, false)
		g := New(p, part)
		s := NewSolver(g, dom)
		if err := s.Solve(context.Background()); err != nil {
			t.Fatal(err)
		}
		g.AddEdge(W, part.CellOf(c), R)
		g.AddEdge(W, part.CellOf(c), U)
		if err := s.Solve(context.Background()); err != nil {
			t.Fatal(err)
		}
		wantStatus(t, s, ge.Check, Proven)
		if iv := s.At(ge.Check.Loc).Interval(u); iv != mkIv(1, 2147483647) {
			t.Errorf("%s: u = %v", dom.Name(), ivString(iv))
		}
	}
}
