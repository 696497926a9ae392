package interp

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"chorus/cfg"
)

func mustRun(t *testing.T, p *cfg.Program, sched Scheduler, opts RunOptions) Result {
	t.Helper()
	res, err := Run(p, sched, opts)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// An OverflowCheck written with MathInt fails; the wrapped Binary after
// it would not have noticed.
func TestOverflowCheckFails(t *testing.T) {
	b := newProg()
	main := b.template("main")
	x := b.local(main, "x", cfg.Int32)
	y := b.local(main, "y", cfg.Int32)
	sum := &cfg.Binary{Op: cfg.Add,
		X:    &cfg.Cast{X: ref(x), Type: cfg.MathInt},
		Y:    &cfg.Cast{X: cst(cfg.Int32, 1), Type: cfg.MathInt},
		Type: cfg.MathInt}
	chk := b.check(cfg.OverflowCheck, "x + 1 overflows", bin(cfg.Le, sum, cst(cfg.MathInt, math.MaxInt32)))
	last := b.seq(main, nil,
		assign(ref(x), i32(math.MaxInt32-1)),
		chk,
		assign(ref(y), bin(cfg.Add, ref(x), i32(1))),
		assign(ref(x), ref(y)),
		b.check(cfg.OverflowCheck, "x + 1 overflows again", bin(cfg.Le, sum, cst(cfg.MathInt, math.MaxInt32))),
		assign(ref(y), bin(cfg.Add, ref(x), i32(1))),
	)
	link(last, main.Exit)
	p := b.finish()

	res := mustRun(t, p, nil, RunOptions{})
	if res.Reason != CheckFailure || len(res.Failures) != 1 {
		t.Fatalf("reason %v, failures %v", res.Reason, res.Failures)
	}
	f := res.Failures[0]
	if f.Event.Check.Msg != "x + 1 overflows again" || f.Event.Thread != 0 {
		t.Fatalf("wrong failure %v", f.Event)
	}
	if len(f.Schedule) != 5 || f.Schedule[4].Loc != f.Event.Loc.ID {
		t.Fatalf("schedule %v does not end at the failing check", f.Schedule)
	}
	// With KeepGoing the failing thread stops at the check: the wrapped
	// addition never runs and main does not finish.
	res = mustRun(t, p, nil, RunOptions{KeepGoing: true})
	if res.Reason != Deadlock || len(res.Failures) != 1 {
		t.Fatalf("KeepGoing: reason %v, failures %d", res.Reason, len(res.Failures))
	}
	// Without the check, the Binary wraps.
	m, _ := New(p, Options{})
	s, _ := m.Initial()
	s.Threads[0].Locals[0] = IntValue(math.MaxInt32)
	v, err := m.Eval(s, 0, bin(cfg.Add, ref(x), i32(1)))
	if err != nil || v.N != math.MinInt32 {
		t.Fatalf("INT_MAX + 1 = %v, %v; want INT_MIN (wrap)", v, err)
	}
}

func TestMemory(t *testing.T) {
	b := newProg()
	main := b.template("main")
	g := b.object("g", cfg.GlobalObject, 16, nil)
	g.Init = []cfg.InitValue{{Offset: 0, Type: cfg.Int32, Value: i32(-2)}, {Offset: 8, Type: ptr64, Value: addr(g, 4)}}
	l := b.object("buf", cfg.LocalObject, 4, main)
	p := b.local(main, "p", ptr64)
	r1 := b.local(main, "r1", cfg.Int32)
	r2 := b.local(main, "r2", i8)
	r3 := b.local(main, "r3", cfg.Uint32)
	r4 := b.local(main, "r4", u8)
	last := b.seq(main, nil,
		&cfg.InitGlobals{},
		assign(deref(addr(g, 4), u8), cst(u8, 0xFF)),          // g[4] = 0xff
		assign(ref(p), deref(addr(g, 8), ptr64)),              // p = *(char**)(g+8) == g+4
		assign(ref(r2), deref(ref(p), i8)),                    // -1 (signed load)
		assign(ref(r4), deref(ref(p), u8)),                    // 255
		assign(ref(r1), deref(addr(g, 0), cfg.Int32)),         // -2
		assign(ref(r3), deref(addr(g, 0), cfg.Uint32)),        // 4294967294
		assign(deref(addr(l, 0), cfg.Int32), i32(0x01020304)), // little-endian
		assign(ref(r4), deref(addr(l, 1), u8)),                // 3
		assign(deref(addr(l, 0), ptr64), addr(g, 0)),          // out of bounds: buf has 4 bytes
	)
	link(last, main.Exit)
	m, err := New(b.finish(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	s, _ := m.Initial()
	res := m.Run(s, nil, RunOptions{})
	if res.Reason != RuntimeError || !strings.Contains(res.Error.Event.Text, "out-of-bounds") {
		t.Fatalf("reason %v error %v", res.Reason, res.Error)
	}
	f := res.Final
	get := func(v *cfg.Var) int64 {
		x, _ := m.Register(f, 0, v)
		return x.N
	}
	pv, _ := m.Register(f, 0, p)
	if pv.Obj != m.StaticInstance(g) || pv.N != 4 {
		t.Errorf("p = %v, want &g+4 (pointer survives memory)", pv)
	}
	if get(r1) != -2 || get(r2) != -1 || get(r3) != 4294967294 || get(r4) != 3 {
		t.Errorf("r1..r4 = %d %d %d %d", get(r1), get(r2), get(r3), get(r4))
	}
}

func TestNullAndFreedAccess(t *testing.T) {
	b := newProg()
	main := b.template("main")
	p := b.local(main, "p", ptr64)
	last := b.seq(main, nil, assign(ref(p), deref(cst(ptr64, 0), ptr64)))
	link(last, main.Exit)
	res := mustRun(t, b.finish(), nil, RunOptions{})
	if res.Reason != RuntimeError || !strings.Contains(res.Error.Event.Text, "null pointer") {
		t.Fatalf("reason %v error %v", res.Reason, res.Error)
	}
}

func TestAllocDistinctInstances(t *testing.T) {
	b := newProg()
	main := b.template("main")
	site := b.object("malloc@1", cfg.HeapObject, -1, nil)
	p := b.local(main, "p", ptr64)
	q := b.local(main, "q", ptr64)
	r := b.local(main, "r", cfg.Int64)
	last := b.seq(main, nil,
		&cfg.Alloc{Dst: ref(p), Site: site, Size: cst(cfg.Int64, 8)},
		&cfg.Alloc{Dst: ref(q), Site: site, Size: cst(cfg.Int64, 8)},
		assign(deref(ref(p), cfg.Int64), cst(cfg.Int64, 7)),
		assign(deref(ref(q), cfg.Int64), cst(cfg.Int64, 9)),
		assign(ref(r), bin(cfg.Add, deref(ref(p), cfg.Int64), deref(ref(q), cfg.Int64))),
		assign(ref(r), bin(cfg.Add, ref(r), deref(&cfg.Binary{Op: cfg.PtrAdd, X: ref(p), Y: cst(cfg.Int64, 8), Type: ptr64}, cfg.Int64))),
	)
	link(last, main.Exit)
	m, _ := New(b.finish(), Options{})
	s, _ := m.Initial()
	res := m.Run(s, nil, RunOptions{})
	if res.Reason != RuntimeError || !strings.Contains(res.Error.Event.Text, "out-of-bounds") {
		t.Fatalf("reason %v error %v", res.Reason, res.Error)
	}
	if v, _ := m.Register(res.Final, 0, r); v.N != 16 {
		t.Fatalf("r = %v, want 16", v)
	}
}

// counterProgram is two threads incrementing g through a local; main
// joins them and asserts g == 2. sync wraps the increment: "" none,
// "lock" a mutex, "atomic" an atomic section.
func counterProgram(sync string) (*cfg.Program, *cfg.Check) {
	b := newProg()
	main := b.template("main")
	inc := b.template("inc")
	g := b.global("g", cfg.Int32, i32(0))
	m := b.global("m", cfg.Int32, nil)
	fn := b.object("inc", cfg.FuncObject, 0, nil)
	tmp := b.local(inc, "t", cfg.Int32)
	var acts []cfg.Action
	switch sync {
	case "lock":
		acts = append(acts, &cfg.Acquire{Lock: ref(m)})
	case "atomic":
		acts = append(acts, &cfg.AtomicBegin{})
	}
	acts = append(acts, assign(ref(tmp), ref(g)), assign(ref(g), bin(cfg.Add, ref(tmp), i32(1))))
	switch sync {
	case "lock":
		acts = append(acts, &cfg.Release{Lock: ref(m)})
	case "atomic":
		acts = append(acts, &cfg.AtomicEnd{})
	}
	link(b.seq(inc, nil, acts...), inc.Exit)

	h1 := b.local(main, "h1", u64)
	h2 := b.local(main, "h2", u64)
	r := b.local(main, "r", cfg.Int32)
	chk := b.check(cfg.AssertCheck, "g == 2", bin(cfg.Eq, ref(r), i32(2)))
	last := b.seq(main, nil,
		&cfg.InitGlobals{},
		&cfg.Spawn{Fn: addr(fn, 0), Targets: []*cfg.Template{inc}, Handle: ref(h1)},
		&cfg.Spawn{Fn: addr(fn, 0), Targets: []*cfg.Template{inc}, Handle: ref(h2)},
		&cfg.Join{Handle: ref(h1)},
		&cfg.Join{Handle: ref(h2)},
		assign(ref(r), ref(g)),
		chk,
	)
	link(last, main.Exit)
	inc.Spawned = true
	return b.finish(), chk.Check
}

// lostUpdate runs thread 1 until it has read g, then thread 2 to the
// end, then the rest.
func lostUpdate() Scheduler {
	return Script(nil, Phase{Thread: 0, Steps: 3}, Phase{Thread: 1, Steps: 1}, Phase{Thread: 2}, Phase{Thread: 1})
}

func TestLostUpdate(t *testing.T) {
	p, chk := counterProgram("")
	res := mustRun(t, p, FirstEnabled(), RunOptions{})
	if res.Reason != Finished || len(res.Failures) != 0 {
		t.Fatalf("sequential schedule: %v %v", res.Reason, res.Failures)
	}
	res = mustRun(t, p, lostUpdate(), RunOptions{})
	if res.Reason != CheckFailure || res.Failures[0].Event.Check != chk {
		t.Fatalf("lost-update schedule: %v %v", res.Reason, res.Failures)
	}
	// The schedule interleaves: thread 1 reads, thread 2 runs, thread 1 writes.
	var order []ThreadID
	for _, st := range res.Failures[0].Schedule {
		if len(order) == 0 || order[len(order)-1] != st.Thread {
			order = append(order, st.Thread)
		}
	}
	if want := []ThreadID{0, 1, 2, 1, 0}; !equalIDs(order, want) {
		t.Fatalf("thread order %v, want %v", order, want)
	}
}

func equalIDs(a, b []ThreadID) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestSynchronizedCounters(t *testing.T) {
	for _, sync := range []string{"lock", "atomic"} {
		p, _ := counterProgram(sync)
		scheds := map[string]Scheduler{"lost-update": lostUpdate(), "round-robin": RoundRobin()}
		for seed := uint64(0); seed < 20; seed++ {
			scheds["random"+string(rune('a'+seed))] = Random(seed)
		}
		for name, sc := range scheds {
			res := mustRun(t, p, sc, RunOptions{})
			if res.Reason != Finished || len(res.Failures) != 0 {
				t.Errorf("%s/%s: %v %v %v", sync, name, res.Reason, res.Failures, res.Error)
			}
		}
	}
	// And the unsynchronized one fails under some random schedule.
	p, _ := counterProgram("")
	failed := 0
	for seed := uint64(0); seed < 50; seed++ {
		if res := mustRun(t, p, Random(seed), RunOptions{}); res.Reason == CheckFailure {
			failed++
		}
	}
	if failed == 0 {
		t.Errorf("no random schedule lost an update")
	}
}

func TestEnabledRules(t *testing.T) {
	p, _ := counterProgram("lock")
	m, _ := New(p, Options{})
	s, _ := m.Initial()
	step := func(mv Move) {
		t.Helper()
		ns, ev := m.Step(s, mv)
		if ns == nil {
			t.Fatalf("step %v: %v", mv, ev)
		}
		s = ns
	}
	step(Move{Thread: 0}) // InitGlobals
	step(Move{Thread: 0}) // spawn 1
	step(Move{Thread: 0}) // spawn 2
	if n := len(s.Threads); n != 3 {
		t.Fatalf("%d threads", n)
	}
	// Main waits at the join: not enabled.
	if _, ev := m.Step(s, Move{Thread: 0}); ev.Kind != Blocked {
		t.Fatalf("join of a running thread: %v", ev)
	}
	step(Move{Thread: 1}) // thread 1 takes the lock
	if mv := m.ThreadMoves(s, 2); len(mv) != 0 {
		t.Fatalf("thread 2 can move while the lock is held: %v", mv)
	}
	if _, ev := m.Step(s, Move{Thread: 2}); ev.Kind != Blocked {
		t.Fatalf("acquire of a held lock: %v", ev)
	}
	for _, mv := range m.Enabled(s) {
		if mv.Thread != 1 {
			t.Fatalf("enabled %v", mv)
		}
	}

	// Atomic sections: once thread 1 is inside, only it moves.
	p, _ = counterProgram("atomic")
	m, _ = New(p, Options{})
	s, _ = m.Initial()
	for i := 0; i < 3; i++ {
		step(Move{Thread: 0})
	}
	step(Move{Thread: 1}) // atomic begin
	if !s.Threads[1].Loc.Atomic || s.Threads[1].Atomic != 1 {
		t.Fatalf("thread 1 not inside its atomic section")
	}
	for _, mv := range m.Enabled(s) {
		if mv.Thread != 1 {
			t.Fatalf("thread %d moves inside thread 1's atomic section", mv.Thread)
		}
	}
}

func TestMaxInstancesAndSpawnLoop(t *testing.T) {
	b := newProg()
	main := b.template("main")
	w := b.template("worker")
	w.Unbounded, w.Spawned = true, true
	fn := b.object("worker", cfg.FuncObject, 0, nil)
	n := b.global("n", cfg.Int32, nil)
	arg := b.local(w, "arg", ptr64)
	w.Param = arg
	wt := b.local(w, "t", cfg.Int32)
	link(b.seq(w, nil, assign(ref(wt), ref(n)), assign(ref(n), bin(cfg.Add, ref(wt), i32(1)))), w.Exit)
	i := b.local(main, "i", cfg.Int32)
	head := b.seq(main, nil, &cfg.InitGlobals{}, assign(ref(i), i32(0)), &cfg.Skip{})
	body := b.seq(main, nil, assume(bin(cfg.Lt, ref(i), i32(5))))
	main.Entry = main.Locs[1] // seq(nil) reset Entry; restore it
	link(head, body)
	spawn := b.seq(main, body, &cfg.Spawn{Fn: addr(fn, 0), Targets: []*cfg.Template{w}, Arg: ref(i)}, assign(ref(i), bin(cfg.Add, ref(i), i32(1))))
	link(spawn, head)
	out := b.seq(main, nil, assume(bin(cfg.Ge, ref(i), i32(5))))
	main.Entry = main.Locs[1]
	link(head, out)
	link(out, main.Exit)
	p := b.finish()

	res := mustRun(t, p, nil, RunOptions{})
	if res.Reason != Finished || len(res.Final.Threads) != 6 {
		t.Fatalf("%v, %d threads", res.Reason, len(res.Final.Threads))
	}
	m, _ := New(p, Options{})
	if v, _ := m.Register(res.Final, 3, arg); v.N != 2 {
		t.Errorf("thread 3 got argument %v, want 2", v)
	}
	// At most two workers: main blocks at the third spawn.
	res = mustRun(t, p, nil, RunOptions{Machine: Options{MaxInstances: 2}})
	if res.Reason != Deadlock || len(res.Final.Threads) != 3 || res.Final.Spawned[w.ID] != 2 {
		t.Fatalf("bounded: %v, %d threads", res.Reason, len(res.Final.Threads))
	}
}

// A branch on a local condition offers only the feasible successor; a
// wait on a shared flag is offered but marked, and schedulers prefer the
// other threads.
func TestBranchesAndWaits(t *testing.T) {
	b := newProg()
	main := b.template("main")
	child := b.template("child")
	flag := b.global("flag", cfg.Int32, nil)
	fn := b.object("child", cfg.FuncObject, 0, nil)
	link(b.seq(child, nil, assign(ref(flag), i32(1))), child.Exit)
	x := b.local(main, "x", cfg.Int32)
	r := b.local(main, "r", cfg.Int32)
	br := b.seq(main, nil, &cfg.InitGlobals{}, &cfg.Havoc{Dst: ref(x)}, &cfg.Skip{})
	entry := main.Entry
	pos := b.seq(main, br, assume(bin(cfg.Gt, ref(x), i32(0))), assign(ref(r), i32(1)))
	neg := b.loc(main, assume(bin(cfg.Le, ref(x), i32(0))))
	link(br, neg)
	join := b.loc(main, &cfg.Spawn{Fn: addr(fn, 0), Targets: []*cfg.Template{child}})
	link(pos, join)
	link(neg, join)
	wait := b.seq(main, join, assume(bin(cfg.Eq, ref(flag), i32(1))))
	main.Entry = entry
	link(wait, main.Exit)
	p := b.finish()

	m, _ := New(p, Options{})
	s, _ := m.Initial()
	s, _ = m.Step(s, Move{Thread: 0})
	s, _ = m.Step(s, Move{Thread: 0, Value: 5})
	if mv := m.Enabled(s); len(mv) != 1 || mv[0].Succ != 0 {
		t.Fatalf("x = 5: moves %v, want only the x > 0 branch", mv)
	}
	res := mustRun(t, p, FirstEnabled(), RunOptions{Inputs: func(ThreadID, *cfg.Loc) int64 { return -3 }})
	if res.Reason != Finished {
		t.Fatalf("%v %v", res.Reason, res.Error)
	}
	if v, _ := m.Register(res.Final, 0, r); v.N != 0 {
		t.Fatalf("x = -3 took the x > 0 branch")
	}
	// Right after the spawn, main's move to the wait is marked Waits.
	s, _ = m.Initial()
	for _, v := range []int64{0, 1} {
		s, _ = m.Step(s, Move{Thread: 0, Value: v})
	}
	s, _ = m.Step(s, Move{Thread: 0, Succ: 0}) // x = 1 > 0
	s, _ = m.Step(s, Move{Thread: 0})          // assume x > 0
	s, _ = m.Step(s, Move{Thread: 0})          // r = 1
	mv := m.Enabled(s)
	if len(mv) != 1 || !mv[0].Waits {
		t.Fatalf("moves before the spawn %v, want one waiting move", mv)
	}
}

func TestCloneAndEncode(t *testing.T) {
	p, _ := counterProgram("")
	m, _ := New(p, Options{})
	s0, _ := m.Initial()
	enc0 := s0.Encode(nil)
	a, _ := m.Step(s0, Move{Thread: 0})
	if !bytes.Equal(enc0, s0.Encode(nil)) {
		t.Fatal("Step changed its input state")
	}
	a, _ = m.Step(a, Move{Thread: 0})
	a, _ = m.Step(a, Move{Thread: 0})
	// Threads 1 and 2 both read g = 0: the order does not matter.
	x, _ := m.Step(a, Move{Thread: 1})
	x, _ = m.Step(x, Move{Thread: 2})
	y, _ := m.Step(a, Move{Thread: 2})
	y, _ = m.Step(y, Move{Thread: 1})
	if !bytes.Equal(x.Encode(nil), y.Encode(nil)) || x.Hash() != y.Hash() {
		t.Fatal("equal states encode differently")
	}
	z, _ := m.Step(x, Move{Thread: 1}) // thread 1 writes g = 1
	if bytes.Equal(z.Encode(nil), x.Encode(nil)) {
		t.Fatal("different states encode equally")
	}
	if x.Globals[0].N != 0 || z.Globals[0].N != 1 {
		t.Fatalf("clone not independent: g = %v / %v", x.Globals[0], z.Globals[0])
	}
}

func TestOutputFormat(t *testing.T) {
	b := newProg()
	main := b.template("main")
	str := b.object("str", cfg.StringObject, 4, nil)
	for i, c := range "abc" {
		str.Init = append(str.Init, cfg.InitValue{Offset: int64(i), Type: i8, Value: cst(i8, int64(c))})
	}
	out := func(f string, args ...cfg.Expr) *cfg.Output { return &cfg.Output{Format: f, Args: args} }
	last := b.seq(main, nil,
		&cfg.InitGlobals{},
		out("%d %i|%5d|%-5d|%05d|%+d|%.3d\n", i32(-42), i32(7), i32(42), i32(42), i32(42), i32(42), i32(5)),
		out("%u %x %X %#x %o %#o\n", i32(-1), i32(255), i32(255), i32(255), i32(8), i32(8)),
		out("%ld %lu %lx %lld %hd %hhu\n", cst(cfg.Int64, -5), cst(cfg.Int64, -1), cst(cfg.Int64, 1<<40), cst(cfg.Int64, 1<<40), i32(70000), i32(300)),
		out("%c%c|%3c|%s|%.2s|%5s|%-5s|%s\n", i32('o'), i32('k'), i32('z'), addr(str, 0), addr(str, 0), addr(str, 1), addr(str, 1), cst(ptr64, 0)),
		out("%*d|%-*d|%.*s|%%|%#x\n", i32(4), i32(1), i32(4), i32(2), i32(1), addr(str, 0), i32(0)),
		out("%f %.2f %e %g %g\n", cst(cfg.Type{Kind: cfg.FloatType, Bits: 64}, int64(math.Float64bits(1.5))),
			cst(cfg.Type{Kind: cfg.FloatType, Bits: 64}, int64(math.Float64bits(-2.345))),
			cst(cfg.Type{Kind: cfg.FloatType, Bits: 64}, int64(math.Float64bits(12345.678))),
			cst(cfg.Type{Kind: cfg.FloatType, Bits: 64}, int64(math.Float64bits(0.1))),
			cst(cfg.Type{Kind: cfg.FloatType, Bits: 64}, int64(math.Float64bits(1234567.0)))),
	)
	link(last, main.Exit)
	res := mustRun(t, b.finish(), nil, RunOptions{})
	want := "-42 7|   42|42   |00042|+42|005\n" +
		"4294967295 ff FF 0xff 10 010\n" +
		"-5 18446744073709551615 10000000000 1099511627776 4464 44\n" +
		"ok|  z|abc|ab|   bc|bc   |(null)\n" +
		"   1|2   |a|%|0\n" +
		"1.500000 -2.35 1.234568e+04 0.1 1.23457e+06\n"
	if res.Reason != Finished || res.Output != want {
		t.Fatalf("reason %v %v\noutput:\n%s\nwant:\n%s", res.Reason, res.Error, res.Output, want)
	}
}
