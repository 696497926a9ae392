package analysis

import (
	"context"
	"errors"
	"testing"

	"chorus/cfg"
	"chorus/domains"
	"chorus/interference"
)

// Hand-made IR, independent of the C frontend.

type pb struct{ p *cfg.Program }

func (b *pb) global(name string, init int64) *cfg.Var {
	v := &cfg.Var{ID: len(b.p.Vars), Name: name, Scope: cfg.Global, Type: cfg.Int32, Init: &cfg.Const{Type: cfg.Int32, Value: init}}
	b.p.Vars = append(b.p.Vars, v)
	return v
}

func (b *pb) local(t *cfg.Template, name string) *cfg.Var {
	v := &cfg.Var{ID: len(b.p.Vars), Name: name, Scope: cfg.Local, Type: cfg.Int32, Template: t}
	b.p.Vars = append(b.p.Vars, v)
	t.Locals = append(t.Locals, v)
	return v
}

func (b *pb) template(name string) *cfg.Template {
	t := &cfg.Template{ID: len(b.p.Templates), Name: name}
	b.p.Templates = append(b.p.Templates, t)
	return t
}

func (b *pb) loc(t *cfg.Template, a cfg.Action) *cfg.Loc {
	l := &cfg.Loc{ID: len(b.p.Locs), Template: t, Act: a}
	l.Pos.Filename, l.Pos.Line = "hand.c", l.ID+1
	b.p.Locs = append(b.p.Locs, l)
	t.Locs = append(t.Locs, l)
	if t.Entry == nil {
		t.Entry = l
	}
	return l
}

func (b *pb) seq(t *cfg.Template, acts ...cfg.Action) []*cfg.Loc {
	var out []*cfg.Loc
	for _, a := range acts {
		l := b.loc(t, a)
		if n := len(out); n > 0 {
			link(out[n-1], l)
		}
		out = append(out, l)
	}
	return out
}

func link(a, c *cfg.Loc) {
	a.Succs = append(a.Succs, c)
	c.Preds = append(c.Preds, a)
}

func (b *pb) check(kind cfg.CheckKind, cond cfg.Expr) *cfg.CheckAct {
	c := &cfg.Check{ID: len(b.p.Checks), Kind: kind, Msg: "hand check"}
	b.p.Checks = append(b.p.Checks, c)
	return &cfg.CheckAct{Check: c, Cond: cond}
}

func bindChecks(p *cfg.Program) {
	for _, l := range p.Locs {
		if a, ok := l.Act.(*cfg.CheckAct); ok {
			a.Check.Loc, a.Check.Pos = l, l.Pos
		}
	}
}

func ref(v *cfg.Var) *cfg.VarRef { return &cfg.VarRef{Var: v} }
func num(n int64) *cfg.Const     { return &cfg.Const{Type: cfg.Int32, Value: n} }
func bin(op cfg.BinOp, x, y cfg.Expr) *cfg.Binary {
	return &cfg.Binary{Op: op, X: x, Y: y, Type: cfg.Int32}
}
func assign(v *cfg.Var, e cfg.Expr) *cfg.Assign { return &cfg.Assign{Dst: ref(v), Src: e} }

// spawnLoop: main = init; while(*) spawn T; exit.
func (b *pb) spawnLoop(main *cfg.Template, targets ...*cfg.Template) {
	ls := b.seq(main, &cfg.InitGlobals{}, &cfg.Skip{})
	head := ls[1]
	for _, t := range targets {
		s := b.loc(main, &cfg.Spawn{Targets: []*cfg.Template{t}})
		link(head, s)
		link(s, head)
		t.Spawned, t.Unbounded = true, true
	}
	exit := b.loc(main, &cfg.Skip{})
	link(head, exit)
	main.Exit = exit
}

// figure2 builds the paper's Figure-2 situation: unboundedly many threads
// do c = c + incr with incr > 0, unsynchronized; then assert c >= 0 and
// c <= 0.
func figure2() (*cfg.Program, *cfg.Check, *cfg.Check) {
	b := &pb{p: &cfg.Program{File: "hand.c"}}
	c := b.global("c", 0)
	main := b.template("main")
	th := b.template("adder")
	incr := b.local(th, "incr")
	t := b.local(th, "t")
	u := b.local(th, "u")
	mathSum := &cfg.Binary{Op: cfg.Add, X: ref(t), Y: ref(incr), Type: cfg.MathInt}
	ls := b.seq(th,
		&cfg.Skip{},
		&cfg.Havoc{Dst: ref(incr)},
		&cfg.Assume{Cond: bin(cfg.Gt, ref(incr), num(0))},
		assign(t, ref(c)),
		b.check(cfg.OverflowCheck, &cfg.Binary{Op: cfg.Le, X: mathSum, Y: &cfg.Const{Type: cfg.MathInt, Value: 2147483647}, Type: cfg.Int32}),
		assign(c, bin(cfg.Add, ref(t), ref(incr))),
		assign(u, ref(c)),
		b.check(cfg.AssertCheck, bin(cfg.Ge, ref(u), num(0))),
		b.check(cfg.AssertCheck, bin(cfg.Le, ref(u), num(0))),
		&cfg.Skip{})
	th.Exit = ls[len(ls)-1]
	b.spawnLoop(main, th)
	bindChecks(b.p)
	return b.p, b.p.Checks[1], b.p.Checks[2]
}

func TestFigure2(t *testing.T) {
	for _, dom := range []string{"interval", "octagon"} {
		for _, dl := range []bool{true, false} {
			p, ge, le := figure2()
			res, err := Analyze(context.Background(), p, WithDomain(dom), WithChecks(cfg.AssertCheck),
				WithEngineOptions(interference.WithDatalog(dl)))
			if err != nil {
				t.Fatal(err)
			}
			st := map[*cfg.Check]Status{}
			for _, c := range res.Checks {
				st[c.Check] = c.Status
			}
			if st[ge] != Proven {
				t.Errorf("%s datalog=%v: c >= 0 is %v, want proven", dom, dl, st[ge])
			}
			if st[le] != Unproven {
				t.Errorf("%s datalog=%v: c <= 0 is %v, want unproven", dom, dl, st[le])
			}
			if len(res.Stats.Rounds) < 2 || res.Stats.InterferenceEdges == 0 {
				t.Errorf("%s: expected interference edges over several rounds, got %d rounds, %d edges", dom, len(res.Stats.Rounds), res.Stats.InterferenceEdges)
			}
			if res.Safe() {
				t.Errorf("Safe() with an unproven check")
			}
		}
	}
}

func TestRoundLimit(t *testing.T) {
	p, _, _ := figure2()
	_, err := Analyze(context.Background(), p, WithMaxRounds(1))
	if !errors.Is(err, ErrRoundLimit) {
		t.Fatalf("err = %v, want ErrRoundLimit", err)
	}
}

func TestCancelled(t *testing.T) {
	p, _, _ := figure2()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if res, err := Analyze(ctx, p); err == nil {
		t.Fatalf("cancelled context gave a result: %+v", res.Checks)
	}
}

// appendixA builds DESIGN.md Appendix A by hand: producers and consumers
// spawned in an unbounded loop. Variants: noConsumerLock drops the
// consumer's lock; noWait resets counter without waiting for it to drain.
func appendixA(noConsumerLock, noWait bool) (*cfg.Program, *cfg.Check) {
	b := &pb{p: &cfg.Program{File: "hand.c"}}
	counter := b.global("counter", 0)
	plock := b.global("plock", 0)
	clock := b.global("clock", 0)
	main := b.template("main")
	prod := b.template("producer")
	cons := b.template("consumer")
	pos := func(e cfg.Expr) *cfg.Assume { return &cfg.Assume{Cond: e} }
	gt0 := func() cfg.Expr { return bin(cfg.Gt, ref(counter), num(0)) }
	notGt0 := func() cfg.Expr { return &cfg.Unary{Op: cfg.Not, X: gt0(), Type: cfg.Int32} }
	mathOf := func(op cfg.BinOp, x cfg.Expr, k int64) cfg.Expr {
		return &cfg.Binary{Op: op, X: x, Y: &cfg.Const{Type: cfg.MathInt, Value: k}, Type: cfg.MathInt}
	}
	cmpMath := func(op cfg.BinOp, x cfg.Expr, k int64) cfg.Expr {
		return &cfg.Binary{Op: op, X: x, Y: &cfg.Const{Type: cfg.MathInt, Value: k}, Type: cfg.Int32}
	}

	// producer
	nd := b.local(prod, "nd")
	pt := b.local(prod, "t")
	p := b.seq(prod, &cfg.Skip{}, &cfg.Acquire{Lock: ref(plock)}, &cfg.Havoc{Dst: ref(nd)})
	unlock := b.seq(prod, &cfg.Release{Lock: ref(plock)}, &cfg.Skip{})
	prod.Exit = unlock[1]
	inc := b.seq(prod, pos(bin(cfg.Ne, ref(nd), num(0))), assign(pt, ref(counter)),
		b.check(cfg.OverflowCheck, cmpMath(cfg.Le, mathOf(cfg.Add, ref(pt), 1), 2147483647)),
		assign(counter, bin(cfg.Add, ref(pt), num(1))))
	link(p[2], inc[0])
	link(inc[3], unlock[0])
	els := b.seq(prod, pos(bin(cfg.Eq, ref(nd), num(0))))
	link(p[2], els[0])
	reset := b.loc(prod, assign(counter, num(0)))
	link(reset, unlock[0])
	if noWait {
		enter := b.seq(prod, pos(gt0()))
		link(els[0], enter[0])
		link(enter[0], reset)
	} else {
		enter := b.seq(prod, pos(gt0()), &cfg.Skip{})
		link(els[0], enter[0])
		head := enter[1]
		spin := b.loc(prod, pos(gt0()))
		link(head, spin)
		link(spin, head)
		leave := b.loc(prod, pos(notGt0()))
		link(head, leave)
		link(leave, reset)
	}
	skipElse := b.loc(prod, pos(notGt0()))
	link(els[0], skipElse)
	link(skipElse, unlock[0])

	// consumer
	cnd := b.local(cons, "nd")
	ct := b.local(cons, "t")
	cu := b.local(cons, "u")
	c := b.seq(cons, &cfg.Skip{}, &cfg.Skip{}, &cfg.Havoc{Dst: ref(cnd)})
	head := c[1]
	exit := b.seq(cons, pos(bin(cfg.Eq, ref(cnd), num(0))), &cfg.Skip{})
	link(c[2], exit[0])
	cons.Exit = exit[1]
	body := b.seq(cons, pos(bin(cfg.Ne, ref(cnd), num(0))))
	link(c[2], body[0])
	var lockAt, unlockAt []*cfg.Loc
	if noConsumerLock {
		lockAt = b.seq(cons, &cfg.Skip{})
		unlockAt = b.seq(cons, &cfg.Skip{})
	} else {
		lockAt = b.seq(cons, &cfg.Acquire{Lock: ref(clock)})
		unlockAt = b.seq(cons, &cfg.Release{Lock: ref(clock)})
	}
	link(body[0], lockAt[0])
	assertAct := b.check(cfg.AssertCheck, bin(cfg.Ge, ref(cu), num(0)))
	dec := b.seq(cons, pos(gt0()), assign(ct, ref(counter)),
		b.check(cfg.OverflowCheck, cmpMath(cfg.Ge, mathOf(cfg.Sub, ref(ct), 1), -2147483648)),
		assign(counter, bin(cfg.Sub, ref(ct), num(1))),
		assign(cu, ref(counter)),
		assertAct)
	link(lockAt[0], dec[0])
	link(dec[5], unlockAt[0])
	skip := b.loc(cons, pos(notGt0()))
	link(lockAt[0], skip)
	link(skip, unlockAt[0])
	link(unlockAt[0], head)

	b.spawnLoop(main, prod, cons)
	bindChecks(b.p)
	return b.p, assertAct.Check
}

func TestAppendixA(t *testing.T) {
	cases := []struct {
		name                   string
		noConsumerLock, noWait bool
		want                   Status
	}{
		{"appendix_a", false, false, Proven},
		{"no_consumer_lock", true, false, Unproven},
		{"no_wait", false, true, Unproven},
	}
	for _, tc := range cases {
		for _, mode := range []string{"interval", "octagon", "interval-coarse"} {
			dom := mode
			opts := []Option{WithChecks(cfg.AssertCheck)}
			if mode == "interval-coarse" {
				dom = "interval"
				opts = append(opts, WithEngineOptions(interference.WithCoarse()))
			}
			p, chk := appendixA(tc.noConsumerLock, tc.noWait)
			res, err := Analyze(context.Background(), p, append(opts, WithDomain(dom))...)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range res.Checks {
				if c.Check == chk && c.Status != tc.want {
					t.Errorf("%s/%s: assert is %v (%s), want %v", tc.name, mode, c.Status, c.Message, tc.want)
				}
			}
			if tc.want != Proven {
				continue
			}
			// DESIGN.md Appendix A: no interference edge carries the value
			// written at u (counter = 0) to the consumer's decrement.
			var reset, read *cfg.Loc
			for _, l := range p.Locs {
				a, ok := l.Act.(*cfg.Assign)
				if !ok {
					continue
				}
				dst, _ := a.Dst.(*cfg.VarRef)
				src, _ := a.Src.(*cfg.VarRef)
				if k, ok := a.Src.(*cfg.Const); ok && k.Value == 0 && dst != nil && dst.Var.Name == "counter" {
					reset = l
				}
				if src != nil && src.Var.Name == "counter" && l.Template.Name == "consumer" && dst.Var.Name == "t" {
					read = l
				}
			}
			if reset == nil || read == nil {
				t.Fatalf("reset or decrement read not found")
			}
			for _, e := range res.Graph.Edges(read) {
				if e.Src == reset {
					t.Errorf("%s: edge from the reset u to the consumer's decrement", dom)
				}
			}
		}
	}
}

func benchmarkAppendixA(b *testing.B, dom string, datalog bool) {
	for i := 0; i < b.N; i++ {
		p, _ := appendixA(false, false)
		if _, err := Analyze(context.Background(), p, WithDomain(dom),
			WithEngineOptions(interference.WithDatalog(datalog))); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAppendixAIntervalDatalog(b *testing.B)  { benchmarkAppendixA(b, "interval", true) }
func BenchmarkAppendixAIntervalWorklist(b *testing.B) { benchmarkAppendixA(b, "interval", false) }
func BenchmarkAppendixAOctagonDatalog(b *testing.B)   { benchmarkAppendixA(b, "octagon", true) }

func TestFuseConditionLoads(t *testing.T) {
	build := func(useLater bool) (*cfg.Program, []*cfg.Loc) {
		b := &pb{p: &cfg.Program{File: "hand.c"}}
		g := b.global("g", 0)
		main := b.template("main")
		tv := b.local(main, "t")
		u := b.local(main, "u")
		ls := b.seq(main, &cfg.InitGlobals{}, assign(tv, ref(g)))
		yes := b.seq(main, &cfg.Assume{Cond: bin(cfg.Gt, ref(tv), num(0))})
		no := b.seq(main, &cfg.Assume{Cond: &cfg.Unary{Op: cfg.Not, X: bin(cfg.Gt, ref(tv), num(0)), Type: cfg.Int32}})
		link(ls[1], yes[0])
		link(ls[1], no[0])
		var tail cfg.Action = &cfg.Skip{}
		if useLater {
			tail = assign(u, ref(tv))
		}
		end := b.seq(main, tail, &cfg.Skip{})
		link(yes[0], end[0])
		link(no[0], end[0])
		main.Exit = end[1]
		return b.p, []*cfg.Loc{ls[1], yes[0], no[0]}
	}
	p, ls := build(false)
	if n := fuseConditionLoads(p); n != 1 {
		t.Fatalf("fused %d, want 1", n)
	}
	if _, ok := ls[0].Act.(*cfg.Skip); !ok {
		t.Errorf("load not removed: %T", ls[0].Act)
	}
	for _, l := range ls[1:] {
		a := l.Act.(*cfg.Assume)
		if !cfg.ReadsGlobal(a.Cond) || readsOnlyLocalRegisters(a.Cond) {
			t.Errorf("assume not rewritten to read g")
		}
	}
	// t read after the branch: no fusion.
	p, ls = build(true)
	if n := fuseConditionLoads(p); n != 0 {
		t.Fatalf("fused %d with t live after the branch", n)
	}
	if _, ok := ls[0].Act.(*cfg.Assign); !ok {
		t.Errorf("load removed although t is used later")
	}
}

func TestCanViolate(t *testing.T) {
	iv := func(lo, hi int64) domains.Interval { return domains.NewInterval(lo, hi) }
	cases := []struct {
		iv   domains.Interval
		op   cfg.BinOp
		k    int64
		want bool
	}{
		{iv(0, 5), cfg.Ge, 0, false}, // x >= 0 holds on [0,5]
		{iv(-1, 5), cfg.Ge, 0, true},
		{iv(0, 5), cfg.Le, 5, false},
		{iv(0, 6), cfg.Le, 5, true},
		{iv(3, 3), cfg.Eq, 3, false},
		{iv(3, 4), cfg.Eq, 3, true},
		{iv(4, 9), cfg.Ne, 3, false},
		{iv(2, 9), cfg.Ne, 3, true},
		{iv(1, 9), cfg.Gt, 0, false},
		{iv(0, 9), cfg.Gt, 0, true},
		{iv(0, 4), cfg.Lt, 5, false},
		{domains.TopInterval(), cfg.Lt, 5, true},
		{domains.EmptyInterval(), cfg.Lt, 5, false},
	}
	for _, c := range cases {
		if got := canViolate(c.iv, c.op, c.k); got != c.want {
			t.Errorf("canViolate(%v, %v, %d) = %v, want %v", c.iv, c.op, c.k, got, c.want)
		}
	}
}
