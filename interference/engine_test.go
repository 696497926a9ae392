package interference

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"chorus/cfg"
)

// both runs the engine with the datalog backend, the worklist backend and
// the default one (writer rows on bits) and requires the same edges.
func both(t *testing.T, p *cfg.Program, inv Invariants, opts ...Option) map[edgeKey]bool {
	t.Helper()
	a := runEngine(t, p, inv, append(opts, WithDatalog(true))...)
	b := runEngine(t, p, inv, append(opts, WithDatalog(false))...)
	if fmt.Sprint(sortedEdges(a)) != fmt.Sprint(sortedEdges(b)) {
		t.Fatalf("datalog and worklist disagree:\n datalog  %v\n worklist %v", sortedEdges(a), sortedEdges(b))
	}
	c := runEngine(t, p, inv, opts...)
	if fmt.Sprint(sortedEdges(a)) != fmt.Sprint(sortedEdges(c)) {
		t.Fatalf("datalog and bits disagree:\n datalog %v\n bits    %v", sortedEdges(a), sortedEdges(c))
	}
	return a
}

func sortedEdges(m map[edgeKey]bool) []edgeKey {
	var out []edgeKey
	for k := range m {
		out = append(out, k)
	}
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			a, b := out[i], out[j]
			if b.src < a.src || b.src == a.src && (b.cell < a.cell || b.cell == a.cell && b.dst < a.dst) {
				out[i], out[j] = b, a
			}
		}
	}
	return out
}

// Unsynchronized write and read of g by unboundedly many instances: the
// write reaches the read of another instance.
func TestRaceGivesEdge(t *testing.T) {
	b := newProg()
	g := b.global("g")
	main := b.template("main")
	th := b.template("T")
	tl := b.local(th, "t")
	ls := b.seq(th, &cfg.Skip{}, assign(g, num(1)), assign(tl, ref(g)), &cfg.Skip{})
	th.Exit = ls[3]
	b.spawnLoop(main, th)
	got := both(t, b.p, allUnknown{})
	if !got[edgeKey{ls[1].ID, g.ID, ls[2].ID}] {
		t.Fatalf("missing edge write->read; got %v", sortedEdges(got))
	}
}

// A thread template spawned once, not in a loop, never pairs with itself:
// its own write never reaches its own read by interference.
func TestSingleInstanceNoSelfEdge(t *testing.T) {
	b := newProg()
	g := b.global("g")
	main := b.template("main")
	th := b.template("T")
	tl := b.local(th, "t")
	ls := b.seq(th, &cfg.Skip{}, assign(g, num(1)), assign(tl, ref(g)), &cfg.Skip{})
	th.Exit = ls[3]
	th.Spawned = true
	ms := b.seq(main, &cfg.InitGlobals{}, &cfg.Spawn{Targets: []*cfg.Template{th}}, &cfg.Skip{})
	main.Exit = ms[2]
	got := both(t, b.p, allUnknown{})
	if len(got) != 0 {
		t.Fatalf("want no interference edges, got %v", sortedEdges(got))
	}
}

// main writes after spawning: the child's read sees it; main's write
// before the spawn is sequential (no interference edge).
func TestMainWriteAfterSpawn(t *testing.T) {
	b := newProg()
	g := b.global("g")
	main := b.template("main")
	th := b.template("T")
	tl := b.local(th, "t")
	ls := b.seq(th, &cfg.Skip{}, assign(tl, ref(g)), &cfg.Skip{})
	th.Exit = ls[2]
	th.Spawned = true
	ms := b.seq(main, &cfg.InitGlobals{}, assign(g, num(3)), &cfg.Spawn{Targets: []*cfg.Template{th}}, assign(g, num(4)), &cfg.Skip{})
	main.Exit = ms[4]
	got := both(t, b.p, allUnknown{})
	if !got[edgeKey{ms[3].ID, g.ID, ls[1].ID}] {
		t.Errorf("missing edge from main's write after the spawn; got %v", sortedEdges(got))
	}
	if got[edgeKey{ms[1].ID, g.ID, ls[1].ID}] {
		t.Errorf("interference edge from main's write before the spawn")
	}
}

// Within one critical section g is set to 1 and back to 0: no other
// thread holding the same lock can read the 1.
func TestLockHidesIntermediateWrite(t *testing.T) {
	b := newProg()
	g := b.global("g")
	m := b.global("m")
	main := b.template("main")
	th := b.template("T")
	tl := b.local(th, "t")
	ls := b.seq(th, &cfg.Skip{},
		&cfg.Acquire{Lock: ref(m)}, assign(g, num(1)), assign(g, num(0)), &cfg.Release{Lock: ref(m)},
		&cfg.Acquire{Lock: ref(m)}, assign(tl, ref(g)), &cfg.Release{Lock: ref(m)},
		&cfg.Skip{})
	th.Exit = ls[8]
	b.spawnLoop(main, th)
	got := both(t, b.p, allUnknown{})
	w1, w0, r := ls[2], ls[3], ls[6]
	if got[edgeKey{w1.ID, g.ID, r.ID}] {
		t.Errorf("edge from the intermediate write inside the lock")
	}
	if !got[edgeKey{w0.ID, g.ID, r.ID}] {
		t.Errorf("missing edge from the final write; got %v", sortedEdges(got))
	}
	// Without the lock the intermediate value is visible.
	b2 := newProg()
	g2 := b2.global("g")
	main2 := b2.template("main")
	th2 := b2.template("T")
	tl2 := b2.local(th2, "t")
	ls2 := b2.seq(th2, &cfg.Skip{}, assign(g2, num(1)), assign(g2, num(0)), assign(tl2, ref(g2)), &cfg.Skip{})
	th2.Exit = ls2[4]
	b2.spawnLoop(main2, th2)
	got2 := both(t, b2.p, allUnknown{})
	if !got2[edgeKey{ls2[1].ID, g2.ID, ls2[3].ID}] {
		t.Errorf("unlocked: missing edge from the intermediate write; got %v", sortedEdges(got2))
	}
}

// An atomic section hides its intermediate write from a reader that reads
// inside its own atomic section; a reader outside may stand there while
// the writer is inside, so its invariant must see the intermediate value.
func TestAtomicHidesIntermediateWrite(t *testing.T) {
	b := newProg()
	g := b.global("g")
	main := b.template("main")
	th := b.template("T")
	tl := b.local(th, "t")
	ls := b.seq(th, &cfg.Skip{}, &cfg.AtomicBegin{}, assign(g, num(1)), assign(g, num(0)), &cfg.AtomicEnd{},
		&cfg.AtomicBegin{}, assign(tl, ref(g)), &cfg.AtomicEnd{}, assign(tl, ref(g)), &cfg.Skip{})
	for _, i := range []int{2, 3, 4, 6, 7} {
		ls[i].Atomic = true
	}
	th.Exit = ls[9]
	b.spawnLoop(main, th)
	got := both(t, b.p, allUnknown{})
	if got[edgeKey{ls[2].ID, g.ID, ls[6].ID}] {
		t.Errorf("edge from the intermediate write into the atomic read")
	}
	if !got[edgeKey{ls[3].ID, g.ID, ls[6].ID}] {
		t.Errorf("missing edge from the final write; got %v", sortedEdges(got))
	}
	if !got[edgeKey{ls[2].ID, g.ID, ls[8].ID}] {
		t.Errorf("missing edge from the intermediate write to the reader outside atomic sections")
	}
}

// compat: the writer's invariant says flag != 1 everywhere, the reader
// reads g only after assume(flag == 1): no edge. With unknown invariants
// the edge exists.
func TestCompatBlocksFlow(t *testing.T) {
	b := newProg()
	g := b.global("g")
	flag := b.global("flag")
	main := b.template("main")
	u := b.template("U")
	th := b.template("T")
	tl := b.local(th, "t")
	us := b.seq(u, &cfg.Skip{}, assign(g, num(5)), &cfg.Skip{})
	u.Exit = us[2]
	ts := b.seq(th, &cfg.Skip{}, assume(bin(cfg.Eq, ref(flag), num(1))), assign(tl, ref(g)), &cfg.Skip{})
	th.Exit = ts[3]
	b.spawnLoop(main, u, th)
	key := edgeKey{us[1].ID, g.ID, ts[2].ID}
	if got := both(t, b.p, allUnknown{}); !got[key] {
		t.Fatalf("unknown invariants: missing edge; got %v", sortedEdges(got))
	}
	// flag != 1 wherever the writer or main stands (so the reader can
	// never pass its assume while they exist).
	tt := truthTable{}
	for _, l := range append(append([]*cfg.Loc(nil), us...), main.Locs...) {
		tt[[2]any{l, "(flag == 1)"}] = False
	}
	if got := both(t, b.p, tt); got[key] {
		t.Fatalf("edge despite flag != 1 at every writer position")
	}
}

// Z3: the writer's invariant says x < 3 (one condition), the reader needs
// x > 5 (another condition over x): only Z3 sees the clash.
func TestZ3Clash(t *testing.T) {
	b := newProg()
	g := b.global("g")
	x := b.global("x")
	main := b.template("main")
	u := b.template("U")
	th := b.template("T")
	tl := b.local(th, "t")
	us := b.seq(u, &cfg.Skip{}, assume(bin(cfg.Lt, ref(x), num(3))), assign(g, num(5)), &cfg.Skip{})
	u.Exit = us[3]
	ts := b.seq(th, &cfg.Skip{}, assume(bin(cfg.Gt, ref(x), num(5))), assign(tl, ref(g)), &cfg.Skip{})
	th.Exit = ts[3]
	b.spawnLoop(main, u, th)
	tt := truthTable{}
	for _, l := range append(append([]*cfg.Loc(nil), us...), main.Locs...) {
		tt[[2]any{l, "(x < 3)"}] = True
	}
	key := edgeKey{us[2].ID, g.ID, ts[2].ID}
	if got := both(t, b.p, tt); got[key] {
		t.Errorf("with Z3: edge despite x < 3 at the writer and x > 5 at the reader")
	}
	if got := both(t, b.p, tt, WithoutZ3()); !got[key] {
		t.Errorf("without Z3 the literals do not clash, the edge must be there; got %v", sortedEdges(got))
	}
}

// A spawn by the reader hands the current value to the child.
func TestFlowThroughSpawn(t *testing.T) {
	b := newProg()
	g := b.global("g")
	main := b.template("main")
	w := b.template("W")
	par := b.template("P")
	child := b.template("C")
	cl := b.local(child, "t")
	ws := b.seq(w, &cfg.Skip{}, assign(g, num(7)), &cfg.Skip{})
	w.Exit = ws[2]
	ps := b.seq(par, &cfg.Skip{}, &cfg.Spawn{Targets: []*cfg.Template{child}}, &cfg.Skip{})
	par.Exit = ps[2]
	cs := b.seq(child, &cfg.Skip{}, assign(cl, ref(g)), &cfg.Skip{})
	child.Exit = cs[2]
	child.Spawned = true
	b.spawnLoop(main, w, par)
	got := both(t, b.p, allUnknown{})
	if !got[edgeKey{ws[1].ID, g.ID, cs[1].ID}] {
		t.Errorf("missing edge into the grandchild's read; got %v", sortedEdges(got))
	}
}

// Thread-local runs are compressed; a local loop gets a position.
func TestPositions(t *testing.T) {
	b := newProg()
	g := b.global("g")
	main := b.template("main")
	th := b.template("T")
	i := b.local(th, "i")
	ls := b.seq(th, &cfg.Skip{}, assign(i, num(0)), assign(i, bin(cfg.Add, ref(i), num(1))), assign(i, bin(cfg.Mul, ref(i), num(2))))
	link(ls[3], ls[2]) // local loop i = i+1; i = i*2
	wr := b.loc(th, assign(g, ref(i)))
	link(ls[3], wr)
	exit := b.loc(th, &cfg.Skip{})
	link(wr, exit)
	th.Exit = exit
	b.spawnLoop(main, th)
	e, err := New(b.p, fakeCells{b.p})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if e.IsPosition(ls[1]) {
		t.Errorf("local assignment is a position")
	}
	if !e.IsPosition(ls[2]) && !e.IsPosition(ls[3]) {
		t.Errorf("local cycle without a position")
	}
	if !e.IsPosition(wr) || !e.IsPosition(ls[0]) || !e.IsPosition(exit) {
		t.Errorf("write/entry/exit must be positions")
	}
}

func TestMustLockset(t *testing.T) {
	b := newProg()
	m := b.global("m")
	n := b.global("n")
	main := b.template("main")
	th := b.template("T")
	ls := b.seq(th, &cfg.Skip{}, &cfg.Acquire{Lock: ref(m)}, &cfg.Skip{})
	// branch: one side also takes n, the other releases m
	left := b.seq(th, &cfg.Acquire{Lock: ref(n)}, &cfg.Skip{})
	right := b.seq(th, &cfg.Release{Lock: ref(m)})
	join := b.loc(th, &cfg.Skip{})
	link(ls[2], left[0])
	link(ls[2], right[0])
	link(left[1], join)
	link(right[0], join)
	th.Exit = join
	b.spawnLoop(main, th)
	e, err := New(b.p, fakeCells{b.p})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if !e.Holds(ls[2], m) || e.Holds(ls[1], m) {
		t.Errorf("m held only after its acquire")
	}
	if !e.Holds(left[1], n) || !e.Holds(left[1], m) {
		t.Errorf("both held on the left")
	}
	if e.Holds(join, m) || e.Holds(join, n) {
		t.Errorf("join: intersection must be empty")
	}
}

// trylock: { acquire m; t := 0 } or { t := 16 }; assume(t == 0) holds m.
func TestTrylockLockset(t *testing.T) {
	b := newProg()
	m := b.global("m")
	main := b.template("main")
	th := b.template("T")
	tl := b.local(th, "t")
	entry := b.seq(th, &cfg.Skip{})
	took := b.seq(th, &cfg.Acquire{Lock: ref(m)}, assign(tl, num(0)))
	failed := b.seq(th, assign(tl, num(16)))
	join := b.loc(th, &cfg.Skip{})
	link(entry[0], took[0])
	link(entry[0], failed[0])
	link(took[1], join)
	link(failed[0], join)
	yes := b.seq(th, assume(bin(cfg.Eq, ref(tl), num(0))), &cfg.Skip{}, &cfg.Release{Lock: ref(m)})
	no := b.seq(th, assume(bin(cfg.Ne, ref(tl), num(0))), &cfg.Skip{})
	exit := b.loc(th, &cfg.Skip{})
	link(join, yes[0])
	link(join, no[0])
	link(yes[2], exit)
	link(no[1], exit)
	th.Exit = exit
	b.spawnLoop(main, th)
	e, err := New(b.p, fakeCells{b.p})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if e.Holds(join, m) {
		t.Errorf("m held at the join")
	}
	if !e.Holds(yes[1], m) || !e.Holds(yes[2], m) {
		t.Errorf("m not held after assume(t == 0)")
	}
	if e.Holds(no[1], m) || e.Holds(exit, m) {
		t.Errorf("m held after assume(t != 0) or at the exit")
	}
}

func TestFactLimit(t *testing.T) {
	b := newProg()
	g := b.global("g")
	main := b.template("main")
	th := b.template("T")
	tl := b.local(th, "t")
	ls := b.seq(th, &cfg.Skip{}, assign(g, num(1)), assign(tl, ref(g)), &cfg.Skip{})
	th.Exit = ls[3]
	b.spawnLoop(main, th)
	for name, eval := range map[string][]Option{"datalog": {WithDatalog(true)}, "worklist": {WithDatalog(false)}, "bits": nil} {
		e, err := New(b.p, fakeCells{b.p}, append(eval, WithMaxTuples(5), WithCoarseFallback(false))...)
		if err != nil {
			t.Fatal(err)
		}
		_, _, _, err = e.Round(context.Background(), allUnknown{})
		e.Close()
		if !errors.Is(err, ErrTooManyFacts) {
			t.Errorf("%s: err = %v, want ErrTooManyFacts", name, err)
		}
	}
}

// The coarse rules find every edge the exact rules find (on the test
// programs), and the fallback kicks in when the exact game is too big.
func TestCoarseSupersetAndFallback(t *testing.T) {
	progs := map[string]func() *cfg.Program{
		"lock": func() *cfg.Program {
			b := newProg()
			g := b.global("g")
			m := b.global("m")
			main := b.template("main")
			th := b.template("T")
			tl := b.local(th, "t")
			ls := b.seq(th, &cfg.Skip{},
				&cfg.Acquire{Lock: ref(m)}, assign(g, num(1)), assign(g, num(0)), &cfg.Release{Lock: ref(m)},
				&cfg.Acquire{Lock: ref(m)}, assign(tl, ref(g)), &cfg.Release{Lock: ref(m)},
				&cfg.Skip{})
			th.Exit = ls[8]
			b.spawnLoop(main, th)
			return b.p
		},
		"spawn": func() *cfg.Program {
			b := newProg()
			g := b.global("g")
			main := b.template("main")
			w := b.template("W")
			par := b.template("P")
			child := b.template("C")
			cl := b.local(child, "t")
			ws := b.seq(w, &cfg.Skip{}, assign(g, num(7)), &cfg.Skip{})
			w.Exit = ws[2]
			ps := b.seq(par, &cfg.Skip{}, &cfg.Spawn{Targets: []*cfg.Template{child}}, &cfg.Skip{})
			par.Exit = ps[2]
			cs := b.seq(child, &cfg.Skip{}, assign(cl, ref(g)), &cfg.Skip{})
			child.Exit = cs[2]
			child.Spawned = true
			b.spawnLoop(main, w, par)
			return b.p
		},
	}
	for name, mk := range progs {
		p := mk()
		exact := runEngine(t, p, allUnknown{})
		coarse := runEngine(t, p, allUnknown{}, WithCoarse())
		for k := range exact {
			if !coarse[k] {
				t.Errorf("%s: coarse misses exact edge %v", name, k)
			}
		}
		flat := runEngine(t, p, allUnknown{}, WithFlowInsensitive())
		for k := range coarse {
			if !flat[k] {
				t.Errorf("%s: flow-insensitive misses coarse edge %v", name, k)
			}
		}
		// A bound too small for the exact game but enough for the coarse.
		size := func(opts ...Option) int {
			e, err := New(p, fakeCells{p}, opts...)
			if err != nil {
				t.Fatal(err)
			}
			defer e.Close()
			_, _, st, err := e.Round(context.Background(), allUnknown{})
			if err != nil {
				t.Fatal(err)
			}
			return st.Pairs + st.Flows
		}
		// (The worklist counts facts as the coarse game does.)
		exactSize, coarseSize := size(WithDatalog(false)), size(WithCoarse())
		if coarseSize >= exactSize {
			t.Logf("%s: coarse game not smaller (%d vs %d)", name, coarseSize, exactSize)
			continue
		}
		e, err := New(p, fakeCells{p}, WithDatalog(false), WithMaxTuples(coarseSize+1))
		if err != nil {
			t.Fatal(err)
		}
		got, _, st, err := e.Round(context.Background(), allUnknown{})
		e.Close()
		if err != nil || !st.Coarse || len(got) == 0 {
			t.Errorf("%s: bounded round: coarse=%v err=%v edges=%d", name, st.Coarse, err, len(got))
		}
		t.Logf("%s: exact %d edges / %d facts, coarse %d edges / %d facts", name, len(exact), exactSize, len(coarse), coarseSize)
		// A coarse game over its flow bound falls back to the
		// flow-insensitive one, which still has every coarse edge.
		fell := runEngineStats(t, p, allUnknown{}, func(st RoundStats) {
			if !st.FlowInsensitive {
				t.Errorf("%s: coarse game over its flow bound did not fall back (stats %+v)", name, st)
			}
		}, WithCoarse(), WithMaxCoarseFlows(1))
		for k := range coarse {
			if !fell[k] {
				t.Errorf("%s: fallback from the flow bound misses coarse edge %v", name, k)
			}
		}
	}
}

// A position's compat row is decided again when its signature changes
// between rounds, even to one with the same conditions of the other
// polarity: the writer first has flag != 1 (no edge to the reader, which
// needs flag == 1), then flag == 1 (the edge must come). Round's skip of
// unchanged signatures (Engine.decided) must not cover the second round.
func TestChangedSignatureRedecidesCompat(t *testing.T) {
	b := newProg()
	g := b.global("g")
	flag := b.global("flag")
	main := b.template("main")
	u := b.template("U")
	th := b.template("T")
	tl := b.local(th, "t")
	us := b.seq(u, &cfg.Skip{}, assign(g, num(5)), &cfg.Skip{})
	u.Exit = us[2]
	ts := b.seq(th, &cfg.Skip{}, assume(bin(cfg.Eq, ref(flag), num(1))), assign(tl, ref(g)), &cfg.Skip{})
	th.Exit = ts[3]
	b.spawnLoop(main, u, th)
	key := edgeKey{us[1].ID, g.ID, ts[2].ID}
	writerSide := append(append([]*cfg.Loc(nil), us...), main.Locs...)
	games := map[string][]Option{"datalog": {WithDatalog(true)}, "worklist": {WithDatalog(false)}, "bits": nil, "coarse": {WithCoarse()}}
	for name, opts := range games {
		e, err := New(b.p, fakeCells{b.p}, opts...)
		if err != nil {
			t.Fatal(err)
		}
		found := func(inv Invariants) bool {
			edges, _, _, err := e.Round(context.Background(), inv)
			if err != nil {
				t.Fatal(err)
			}
			for _, ed := range edges {
				if (edgeKey{ed.Src.ID, ed.Cell, ed.Dst.ID}) == key {
					return true
				}
			}
			return false
		}
		tt := truthTable{}
		for _, l := range writerSide {
			tt[[2]any{l, "(flag == 1)"}] = False
		}
		if found(tt) || found(tt) {
			t.Fatalf("%s: edge despite flag != 1 at every writer position", name)
		}
		for _, l := range writerSide {
			tt[[2]any{l, "(flag == 1)"}] = True
		}
		if !found(tt) {
			t.Errorf("%s: no edge once flag == 1 at the writer positions", name)
		}
		e.Close()
	}
}
