package dfg

import (
	"context"
	"strings"
	"testing"

	"chorus/cfg"
	"chorus/domains"
)

var bothDomains = []domains.Domain{domains.Intervals, domains.Octagons}

// for (i = 0; i < 10; i++) a[i] = i;  assert(i == 10)
func loopProgram() (*cfg.Program, []*cfg.Check) {
	b := newIRB()
	obj, a := b.array("a", cfg.Int32, 10, nil)
	i := b.local("i", cfg.Int32)
	_, init := b.seq(b.cur.Entry, asg(ref(i), k32(0)))
	head := b.loc(&cfg.Skip{})
	link(init, head)
	boundsChk := b.check(cfg.BoundsCheck, bin(cfg.LAnd, bin(cfg.Ge, mi(ref(i)), kM(0)), bin(cfg.Lt, mi(ref(i)), kM(10))))
	ovChk := b.check(cfg.OverflowCheck, bin(cfg.Le, binT(cfg.Add, cfg.MathInt, mi(ref(i)), kM(1)), kM(1<<31-1)))
	addr := &cfg.Binary{Op: cfg.PtrAdd, X: &cfg.AddrOf{Object: obj, Type: cfg.Type{Kind: cfg.PtrType, Bits: 64}}, Y: binT(cfg.Mul, cfg.Int64, &cfg.Cast{X: ref(i), Type: cfg.Int64}, kt(cfg.Int64, 4)), Type: cfg.Type{Kind: cfg.PtrType, Bits: 64}}
	body, bodyEnd := b.seq(nil,
		assume(bin(cfg.Lt, ref(i), k32(10))),
		boundsChk,
		asg(&cfg.Deref{Addr: addr, Type: cfg.Int32, Cells: []*cfg.Var{a}}, ref(i)),
		ovChk,
		asg(ref(i), bin(cfg.Add, ref(i), k32(1))),
	)
	link(head, body)
	link(bodyEnd, head)
	endChk := b.check(cfg.AssertCheck, bin(cfg.Eq, ref(i), k32(10)))
	arrChk := b.check(cfg.AssertCheck, bin(cfg.Le, &cfg.Deref{Addr: addr, Type: cfg.Int32, Cells: []*cfg.Var{a}}, k32(9)))
	exitFirst, exitLast := b.seq(nil, assume(bin(cfg.Ge, ref(i), k32(10))), endChk, arrChk)
	link(head, exitFirst)
	b.exit(exitLast)
	return b.fix(), []*cfg.Check{boundsChk.Check, ovChk.Check, endChk.Check, arrChk.Check}
}

func TestLoopBoundsWithWidening(t *testing.T) {
	for _, dom := range bothDomains {
		for _, rel := range []bool{false, true} {
			p, checks := loopProgram()
			s := solve(t, p, rel, dom)
			for _, c := range checks {
				wantStatus(t, s, c, Proven)
			}
			if s.Stats().Widenings == 0 {
				t.Errorf("%s: expected widening at the loop head", dom.Name())
			}
		}
	}
}

func TestLoopHeadNeedsThresholdsOrNarrowing(t *testing.T) {
	// The loop test's assume(i < 10) location sees i in [0, 10] with the
	// defaults; with plain widening and no narrowing, i is only bounded by
	// its type there. (The exit assertion survives anyway: the DFG carries
	// i to the exit from the increment, not through the widened head.)
	headI := func(s *Solver, p *cfg.Program) domains.Interval {
		for _, l := range p.Locs {
			if a, ok := l.Act.(*cfg.Assume); ok && ExprString(a.Cond) == "(i < 10)" {
				return s.At(l).Interval(p.Vars[1])
			}
		}
		t.Fatal("no loop head")
		return botIv
	}
	p, checks := loopProgram()
	s := solve(t, p, false, domains.Intervals)
	if iv := headI(s, p); iv != mkIv(0, 10) {
		t.Errorf("with thresholds+narrowing: i = %v at the head, want [0, 10]", ivString(iv))
	}
	g := New(p, NewPartition(p, false))
	s = NewSolver(g, domains.Intervals, WithNarrowing(0), WithWideningDelay(0))
	s.ths = nil
	if err := s.Solve(context.Background()); err != nil {
		t.Fatal(err)
	}
	if iv := headI(s, p); iv != mkIv(0, 2147483647) {
		t.Errorf("plain widening: i = %v at the head, want [0, 2147483647]", ivString(iv))
	}
	wantStatus(t, s, checks[0], Proven) // the body is still refined by the assume
}

func TestUnreachableBranch(t *testing.T) {
	b := newIRB()
	x := b.local("x", cfg.Int32)
	y := b.local("y", cfg.Int32)
	c1 := b.check(cfg.AssertCheck, bin(cfg.Eq, ref(x), k32(0)))
	c2 := b.check(cfg.AssertCheck, bin(cfg.Eq, ref(y), k32(2))) // no data dependence on x
	c3 := b.check(cfg.AssertCheck, bin(cfg.Eq, ref(x), k32(5)))
	_, l := b.seq(b.cur.Entry, asg(ref(x), k32(5)))
	f1, l1 := b.seq(nil, assume(bin(cfg.Gt, ref(x), k32(10))), c1, asg(ref(y), k32(1)), c2)
	f2, l2 := b.seq(nil, assume(bin(cfg.Le, ref(x), k32(10))), c3)
	link(l, f1)
	link(l, f2)
	end := b.exit(nil)
	link(l1, end)
	link(l2, end)
	p := b.fix()
	for _, dom := range bothDomains {
		s := solve(t, p, false, dom)
		wantStatus(t, s, c1.Check, Unreachable)
		wantStatus(t, s, c2.Check, Unreachable)
		wantStatus(t, s, c3.Check, Proven)
		if s.At(end).IsBottom() {
			t.Errorf("exit must be reachable")
		}
	}
}

func TestAssumeFacts(t *testing.T) {
	b := newIRB()
	x := b.local("x", cfg.Int32)
	y := b.local("y", cfg.Int32)
	c1 := b.check(cfg.AssertCheck, bin(cfg.Le, ref(y), k32(200)))
	c2 := b.check(cfg.AssertCheck, bin(cfg.Lt, ref(y), k32(200)))
	c3 := b.check(cfg.AssertCheck, bin(cfg.LOr, bin(cfg.Lt, ref(x), k32(0)), bin(cfg.Ge, ref(y), k32(0))))
	c4 := b.check(cfg.AssertCheck, bin(cfg.Ne, ref(x), k32(50)))
	_, l := b.seq(b.cur.Entry,
		havoc(ref(x)),
		assume(bin(cfg.LAnd, bin(cfg.Ge, ref(x), k32(0)), bin(cfg.Le, ref(x), k32(100)))),
		asg(ref(y), bin(cfg.Mul, ref(x), k32(2))),
		c1, c2, c3, c4)
	b.exit(l)
	p := b.fix()
	for _, dom := range bothDomains {
		s := solve(t, p, false, dom)
		wantStatus(t, s, c1.Check, Proven)
		wantStatus(t, s, c2.Check, Unproven)
		wantStatus(t, s, c3.Check, Proven)
		wantStatus(t, s, c4.Check, Unproven)
		st := s.At(c3.Check.Loc)                      // c3 reads x and y (c1 only y: x is not tracked there)
		if iv := st.Interval(y); iv != mkIv(0, 199) { // c2 continues assuming y < 200
			t.Errorf("%s: y interval %v, want [0,199]", dom.Name(), ivString(iv))
		}
		if tr := st.Truth(bin(cfg.Gt, ref(x), k32(100))); tr != False {
			t.Errorf("Truth(x > 100) = %v, want false", tr)
		}
		cons, vars := st.Constraints()
		if len(vars) != 2 || len(cons) == 0 {
			t.Errorf("Constraints: %d constraints over %v", len(cons), vars)
		}
		// Every constraint holds at (x, y) = (50, 100) and fails somewhere
		// outside: x = 101 violates one of them.
		holds := func(pt []int64) bool {
			for _, c := range cons {
				v := c.Expr.Const
				for _, tm := range c.Expr.Terms {
					v += tm.Coef * pt[tm.Var]
				}
				if (c.Op == domains.LeZero && v > 0) || (c.Op == domains.EqZero && v != 0) || (c.Op == domains.NeZero && v == 0) {
					return false
				}
			}
			return true
		}
		xi := 0
		if vars[1] == x {
			xi = 1
		}
		in, out := make([]int64, 2), make([]int64, 2)
		in[xi], in[1-xi] = 50, 100
		out[xi], out[1-xi] = 101, 100
		if !holds(in) || holds(out) {
			t.Errorf("%s: Constraints %v wrong", dom.Name(), cons)
		}
		if iv := st.Eval(bin(cfg.Add, ref(x), ref(y))); iv != mkIv(0, 299) {
			t.Errorf("Eval(x+y) = %v", ivString(iv))
		}
	}
}

func TestUnsignedWrap(t *testing.T) {
	b := newIRB()
	u := b.local("u", cfg.Uint32)
	w := b.local("w", cfg.Type{Kind: cfg.IntType, Bits: 8})
	c1 := b.check(cfg.AssertCheck, bin(cfg.Eq, ref(u), kt(cfg.Uint32, 4294967295)))
	c2 := b.check(cfg.AssertCheck, bin(cfg.Eq, ref(w), kt(w.Type, 44)))
	c3 := b.check(cfg.AssertCheck, bin(cfg.Ge, ref(u), kt(cfg.Uint32, 0)))
	_, l := b.seq(b.cur.Entry,
		asg(ref(u), kt(cfg.Uint32, 0)),
		asg(ref(u), bin(cfg.Sub, ref(u), kt(cfg.Uint32, 1))),
		c1,
		asg(ref(w), kt(w.Type, 200)),
		asg(ref(w), bin(cfg.Add, ref(w), kt(w.Type, 100))), // 300 mod 256
		c2,
		havoc(ref(u)),
		asg(ref(u), bin(cfg.Add, ref(u), kt(cfg.Uint32, 7))),
		c3,
	)
	b.exit(l)
	p := b.fix()
	for _, dom := range bothDomains {
		s := solve(t, p, false, dom)
		wantStatus(t, s, c1.Check, Proven)
		wantStatus(t, s, c2.Check, Proven)
		wantStatus(t, s, c3.Check, Proven)
		if iv := s.At(c3.Check.Loc).Interval(u); iv != mkIv(0, 4294967295) {
			t.Errorf("u after havoc+7: %v, want the whole u32 range", ivString(iv))
		}
	}
}

func TestOverflowChecks(t *testing.T) {
	b := newIRB()
	x := b.local("x", cfg.Int32)
	y := b.local("y", cfg.Int32)
	ov := func(v *cfg.Var) *cfg.CheckAct {
		return b.check(cfg.OverflowCheck, bin(cfg.Le, binT(cfg.Add, cfg.MathInt, mi(ref(v)), kM(1)), kM(1<<31-1)))
	}
	c1, c2 := ov(x), ov(y)
	c3 := b.check(cfg.AssertCheck, bin(cfg.Gt, ref(y), k32(-2147483648))) // after the checked increment
	_, l := b.seq(b.cur.Entry,
		havoc(ref(x)), c1, // x unconstrained: may overflow
		havoc(ref(y)), assume(bin(cfg.Lt, ref(y), k32(100))), c2,
		asg(ref(y), bin(cfg.Add, ref(y), k32(1))),
		c3,
	)
	b.exit(l)
	p := b.fix()
	for _, dom := range bothDomains {
		s := solve(t, p, false, dom)
		wantStatus(t, s, c1.Check, Unproven)
		wantStatus(t, s, c2.Check, Proven)
		wantStatus(t, s, c3.Check, Proven) // y+1 did not wrap
	}
}

func TestSignedWrapWithoutCheckIsSound(t *testing.T) {
	// A signed addition whose overflow check failed to prove: the paths
	// continuing past the check have no overflow; and a cast always wraps.
	b := newIRB()
	x := b.local("x", cfg.Int32)
	c1 := b.check(cfg.AssertCheck, bin(cfg.Ge, ref(x), k32(0)))
	_, l := b.seq(b.cur.Entry,
		asg(ref(x), kt(cfg.Int32, 2147483647)),
		asg(ref(x), &cfg.Cast{X: binT(cfg.Add, cfg.Int64, &cfg.Cast{X: ref(x), Type: cfg.Int64}, kt(cfg.Int64, 1)), Type: cfg.Int32}),
		c1)
	b.exit(l)
	p := b.fix()
	for _, dom := range bothDomains {
		s := solve(t, p, false, dom)
		wantStatus(t, s, c1.Check, Unproven)
		if iv := s.At(c1.Check.Loc).Interval(x); iv != point(-2147483648) {
			t.Errorf("cast wrap: x = %v", ivString(iv))
		}
	}
}

func TestOctagonRelation(t *testing.T) {
	b := newIRB()
	x := b.local("x", cfg.Int32)
	y := b.local("y", cfg.Int32)
	c1 := b.check(cfg.AssertCheck, bin(cfg.Gt, ref(x), ref(y)))
	_, l := b.seq(b.cur.Entry,
		havoc(ref(y)),
		assume(bin(cfg.Lt, ref(y), k32(1000))),
		asg(ref(x), bin(cfg.Add, ref(y), k32(1))),
		c1)
	b.exit(l)
	p := b.fix()
	s := solve(t, p, true, domains.Octagons)
	wantStatus(t, s, c1.Check, Proven)
	s = solve(t, p, false, domains.Octagons) // separate cells: no relation
	wantStatus(t, s, c1.Check, Unproven)
	s = solve(t, p, true, domains.Intervals)
	wantStatus(t, s, c1.Check, Unproven)
}

func TestWeakUpdateOfArray(t *testing.T) {
	b := newIRB()
	obj, a := b.array("a", cfg.Int32, 4, []cfg.InitValue{{Offset: 0, Type: cfg.Int32, Value: k32(3)}})
	_, sc := b.scalarObj("s", cfg.Int32, nil)
	j := b.local("j", cfg.Int32)
	pt := cfg.Type{Kind: cfg.PtrType, Bits: 64}
	elem := &cfg.Deref{Addr: &cfg.Binary{Op: cfg.PtrAdd, X: &cfg.AddrOf{Object: obj, Type: pt}, Y: &cfg.Cast{X: ref(j), Type: cfg.Int64}, Type: pt}, Type: cfg.Int32, Cells: []*cfg.Var{a}}
	sref := &cfg.Deref{Addr: &cfg.AddrOf{Object: sc.Mem, Type: pt}, Type: cfg.Int32, Cells: []*cfg.Var{sc}}
	c0 := b.check(cfg.AssertCheck, bin(cfg.LAnd, bin(cfg.Ge, elem, k32(0)), bin(cfg.Le, elem, k32(3))))
	c1 := b.check(cfg.AssertCheck, bin(cfg.Le, elem, k32(5)))
	c2 := b.check(cfg.AssertCheck, bin(cfg.Eq, elem, k32(5)))
	c3 := b.check(cfg.AssertCheck, bin(cfg.Eq, sref, k32(7)))
	c4 := b.check(cfg.AssertCheck, bin(cfg.Ge, elem, k32(0)))
	_, l := b.seq(b.cur.Entry,
		havoc(ref(j)), c0,
		asg(elem, k32(5)), c1, c2,
		asg(sref, k32(7)), c3, c4)
	b.exit(l)
	p := b.fix()
	for _, dom := range bothDomains {
		s := solve(t, p, true, dom)
		wantStatus(t, s, c0.Check, Proven) // {3, 0}: initialized element and zeros
		wantStatus(t, s, c1.Check, Proven)
		wantStatus(t, s, c2.Check, Unproven) // weak: old values remain
		wantStatus(t, s, c3.Check, Proven)   // strong: one non-summary cell
		wantStatus(t, s, c4.Check, Proven)
	}
}

// main: g := 3; spawn(T, 7); t := g; check(t == 3)     T(p): check(p == 7); check(g == 3); g := 5
func threadProgram() (p *cfg.Program, mainRead, tWrite *cfg.Loc, checks []*cfg.Check, g *cfg.Var) {
	b := newIRB()
	mainT := b.cur
	g = b.global("g", cfg.Int32, k32(0))
	tv := b.local("t", cfg.Int32)
	T := b.template("T")
	T.Spawned = true
	par := b.local("p", cfg.Int32)
	T.Param = par
	cP := b.check(cfg.AssertCheck, bin(cfg.Eq, ref(par), k32(7)))
	cG := b.check(cfg.AssertCheck, bin(cfg.Eq, ref(g), k32(3)))
	first, last := b.seq(nil, cP, cG, asg(ref(g), k32(5)))
	T.Entry = first
	tWrite = last
	b.exit(last)
	b.cur = mainT
	cT := b.check(cfg.AssertCheck, bin(cfg.Eq, ref(tv), k32(3)))
	_, l := b.seq(mainT.Entry,
		asg(ref(g), k32(3)),
		&cfg.Spawn{Targets: []*cfg.Template{T}, Arg: k32(7)},
		asg(ref(tv), ref(g)),
		cT)
	mainRead = l.Preds[0]
	b.exit(l)
	return b.fix(), mainRead, tWrite, []*cfg.Check{cP.Check, cG.Check, cT.Check}, g
}

func TestSpawnParamAndGlobals(t *testing.T) {
	p, _, _, checks, _ := threadProgram()
	for _, dom := range bothDomains {
		s := solve(t, p, false, dom)
		for _, c := range checks {
			wantStatus(t, s, c, Proven) // sequentially (no interference edges yet)
		}
	}
}

func statesEqual(a, b *Solver) bool {
	for _, l := range a.g.prog.Locs {
		if !a.At(l).equal(b.At(l)) {
			return false
		}
	}
	return true
}

func TestIncrementalResolve(t *testing.T) {
	for _, dom := range bothDomains {
		p, mainRead, tWrite, checks, g := threadProgram()
		part := NewPartition(p, false)
		gr := New(p, part)
		s := NewSolver(gr, dom)
		if err := s.Solve(context.Background()); err != nil {
			t.Fatal(err)
		}
		wantStatus(t, s, checks[2], Proven)
		if gr.AddEdge(tWrite, part.CellOf(g), checks[0].Loc) {
			t.Errorf("edge to a location not tracking the cell must be ignored")
		}
		if !gr.AddEdge(tWrite, part.CellOf(g), mainRead) {
			t.Fatal("AddEdge refused")
		}
		if gr.AddEdge(tWrite, part.CellOf(g), mainRead) {
			t.Error("duplicate edge added")
		}
		if err := s.Solve(context.Background()); err != nil {
			t.Fatal(err)
		}
		wantStatus(t, s, checks[2], Unproven)
		if s.Stats().IncrementalSolves != 1 {
			t.Errorf("stats: %+v", s.Stats())
		}
		// From scratch with the edge.
		gr2 := New(p, part)
		gr2.AddEdge(tWrite, part.CellOf(g), mainRead)
		s2 := NewSolver(gr2, dom)
		if err := s2.Solve(context.Background()); err != nil {
			t.Fatal(err)
		}
		if !statesEqual(s, s2) {
			for _, l := range p.Locs {
				t.Logf("%v: inc %v / scratch %v", l, s.At(l), s2.At(l))
			}
			t.Errorf("%s: incremental result differs from scratch", dom.Name())
		}
		if iv := s.At(checks[2].Loc).Interval(p.Vars[1]); iv != mkIv(3, 5) {
			t.Errorf("t = %v, want [3,5]", ivString(iv))
		}
	}
}

func TestNeedAndDot(t *testing.T) {
	p, mainRead, tWrite, _, g := threadProgram()
	part := NewPartition(p, false)
	gr := New(p, part)
	gr.Need(part.CellOf(g))
	gr.AddEdge(tWrite, part.CellOf(g), mainRead)
	s := NewSolver(gr, domains.Intervals)
	if err := s.Solve(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, l := range p.Locs {
		st := s.At(l)
		if !st.IsBottom() && st.Cell(part.CellOf(g)) == nil {
			t.Errorf("%v: needed cell g not tracked", l)
		}
	}
	var sb strings.Builder
	if err := gr.WriteDot(&sb); err != nil {
		t.Fatal(err)
	}
	out := sb.String()
	if !strings.Contains(out, "style=dashed") || !strings.Contains(out, "digraph") || !strings.Contains(out, "style=dotted") {
		t.Errorf("dot output lacks edge kinds:\n%s", out)
	}
	if gr.NumInterferenceEdges() != 1 {
		t.Errorf("interference edges: %d", gr.NumInterferenceEdges())
	}
}

func TestMaxIterations(t *testing.T) {
	p, _ := loopProgram()
	g := New(p, NewPartition(p, false))
	s := NewSolver(g, domains.Intervals, WithMaxIterations(5))
	if err := s.Solve(context.Background()); err == nil {
		t.Fatal("expected an iteration-bound error")
	}
}

func TestGuardedDisequality(t *testing.T) {
	// if (d != 0) check(d != 0): intervals cannot represent d != 0, the
	// DFG source of d (the assume) proves it. A second path where d is
	// assigned breaks the guard.
	b := newIRB()
	d := b.local("d", cfg.Int32)
	e := b.local("e", cfg.Int32)
	c1 := b.check(cfg.DivByZeroCheck, bin(cfg.Ne, ref(d), k32(0)))
	c2 := b.check(cfg.DivByZeroCheck, bin(cfg.Ne, ref(e), k32(0)))
	_, l := b.seq(b.cur.Entry, havoc(ref(d)), havoc(ref(e)))
	f1, l1 := b.seq(l, assume(bin(cfg.LAnd, bin(cfg.Ne, ref(d), k32(0)), bin(cfg.Ne, ref(e), k32(0)))))
	f2, l2 := b.seq(l, assume(bin(cfg.Ne, ref(d), k32(0))), asg(ref(e), k32(5)))
	_ = f1
	_ = f2
	j, jl := b.seq(nil, c1, c2)
	link(l1, j)
	link(l2, j)
	b.exit(jl)
	p := b.fix()
	for _, dom := range bothDomains {
		s := solve(t, p, false, dom)
		wantStatus(t, s, c1.Check, Proven)
		wantStatus(t, s, c2.Check, Proven) // e from the conjunct or from e := 5
	}
	// Break: e may come from the havoc.
	link(l, j)
	p = b.fix()
	for _, dom := range bothDomains {
		s := solve(t, p, false, dom)
		wantStatus(t, s, c1.Check, Unproven)
	}
}

func TestPhiLocations(t *testing.T) {
	// switch (n) { case k: x = k; } for k = 0..11, then two uses of x: the
	// merge becomes a φ of x, each use gets one edge from it.
	b := newIRB()
	n := b.local("n", cfg.Int32)
	x := b.local("x", cfg.Int32)
	_, l := b.seq(b.cur.Entry, havoc(ref(n)), asg(ref(x), k32(100)))
	merge := b.loc(&cfg.Skip{})
	for k := int64(0); k < 12; k++ {
		_, e := b.seq(l, assume(bin(cfg.Eq, ref(n), k32(k))), asg(ref(x), k32(k)))
		link(e, merge)
	}
	c1 := b.check(cfg.AssertCheck, bin(cfg.Le, ref(x), k32(11)))
	c2 := b.check(cfg.AssertCheck, bin(cfg.Ge, ref(x), k32(0)))
	_, end := b.seq(merge, c1, c2)
	b.exit(end)
	p := b.fix()
	part := NewPartition(p, false)
	g := New(p, part)
	cx := part.CellOf(x)
	if !g.Tracks(merge, cx) {
		t.Fatal("merge is not a φ of x")
	}
	if src := g.Sources(c1.Check.Loc, cx); len(src) != 1 || src[0] != merge {
		t.Errorf("sources of x at the use: %v, want the φ", src)
	}
	if src := g.Sources(merge, cx); len(src) != 12 {
		t.Errorf("φ sources: %d, want 12", len(src))
	}
	for _, dom := range bothDomains {
		s := NewSolver(g, dom)
		if err := s.Solve(context.Background()); err != nil {
			t.Fatal(err)
		}
		wantStatus(t, s, c1.Check, Proven)
		wantStatus(t, s, c2.Check, Proven)
		if iv := s.At(c1.Check.Loc).Interval(x); iv != mkIv(0, 11) {
			t.Errorf("x = %v", ivString(iv))
		}
	}
}

func TestSubsetSorted(t *testing.T) {
	for _, c := range []struct {
		a, b []CellID
		want bool
	}{
		{nil, nil, true},
		{nil, []CellID{1}, true},
		{[]CellID{1}, nil, false},
		{[]CellID{1, 3}, []CellID{1, 2, 3}, true},
		{[]CellID{1, 4}, []CellID{1, 2, 3}, false},
		{[]CellID{0, 1}, []CellID{1, 2}, false},
		{[]CellID{2}, []CellID{1, 3}, false},
	} {
		if got := subsetSorted(c.a, c.b); got != c.want {
			t.Errorf("subsetSorted(%v, %v) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}
