package interp

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"chorus/cfg"
	. "chorus/cfg/interp/irtest"
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
	b := NewBuilder()
	main := b.Template("main")
	x := b.Local(main, "x", cfg.Int32)
	y := b.Local(main, "y", cfg.Int32)
	sum := &cfg.Binary{Op: cfg.Add,
		X:    &cfg.Cast{X: Ref(x), Type: cfg.MathInt},
		Y:    &cfg.Cast{X: Cst(cfg.Int32, 1), Type: cfg.MathInt},
		Type: cfg.MathInt}
	chk := b.Check(cfg.OverflowCheck, "x + 1 overflows", Bin(cfg.Le, sum, Cst(cfg.MathInt, math.MaxInt32)))
	last := b.Seq(main, nil,
		Assign(Ref(x), I32(math.MaxInt32-1)),
		chk,
		Assign(Ref(y), Bin(cfg.Add, Ref(x), I32(1))),
		Assign(Ref(x), Ref(y)),
		b.Check(cfg.OverflowCheck, "x + 1 overflows again", Bin(cfg.Le, sum, Cst(cfg.MathInt, math.MaxInt32))),
		Assign(Ref(y), Bin(cfg.Add, Ref(x), I32(1))),
	)
	Link(last, main.Exit)
	p := b.Finish()

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
	v, err := m.Eval(s, 0, Bin(cfg.Add, Ref(x), I32(1)))
	if err != nil || v.N != math.MinInt32 {
		t.Fatalf("INT_MAX + 1 = %v, %v; want INT_MIN (wrap)", v, err)
	}
}

func TestMemory(t *testing.T) {
	b := NewBuilder()
	main := b.Template("main")
	g := b.Object("g", cfg.GlobalObject, 16, nil)
	g.Init = []cfg.InitValue{{Offset: 0, Type: cfg.Int32, Value: I32(-2)}, {Offset: 8, Type: Ptr64, Value: Addr(g, 4)}}
	l := b.Object("buf", cfg.LocalObject, 4, main)
	p := b.Local(main, "p", Ptr64)
	r1 := b.Local(main, "r1", cfg.Int32)
	r2 := b.Local(main, "r2", i8)
	r3 := b.Local(main, "r3", cfg.Uint32)
	r4 := b.Local(main, "r4", u8)
	last := b.Seq(main, nil,
		&cfg.InitGlobals{},
		Assign(Deref(Addr(g, 4), u8), Cst(u8, 0xFF)),          // g[4] = 0xff
		Assign(Ref(p), Deref(Addr(g, 8), Ptr64)),              // p = *(char**)(g+8) == g+4
		Assign(Ref(r2), Deref(Ref(p), i8)),                    // -1 (signed load)
		Assign(Ref(r4), Deref(Ref(p), u8)),                    // 255
		Assign(Ref(r1), Deref(Addr(g, 0), cfg.Int32)),         // -2
		Assign(Ref(r3), Deref(Addr(g, 0), cfg.Uint32)),        // 4294967294
		Assign(Deref(Addr(l, 0), cfg.Int32), I32(0x01020304)), // little-endian
		Assign(Ref(r4), Deref(Addr(l, 1), u8)),                // 3
		Assign(Deref(Addr(l, 0), Ptr64), Addr(g, 0)),          // out of bounds: buf has 4 bytes
	)
	Link(last, main.Exit)
	m, err := New(b.Finish(), Options{})
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
	b := NewBuilder()
	main := b.Template("main")
	p := b.Local(main, "p", Ptr64)
	last := b.Seq(main, nil, Assign(Ref(p), Deref(Cst(Ptr64, 0), Ptr64)))
	Link(last, main.Exit)
	res := mustRun(t, b.Finish(), nil, RunOptions{})
	if res.Reason != RuntimeError || !strings.Contains(res.Error.Event.Text, "null pointer") {
		t.Fatalf("reason %v error %v", res.Reason, res.Error)
	}
}

func TestAllocDistinctInstances(t *testing.T) {
	b := NewBuilder()
	main := b.Template("main")
	site := b.Object("malloc@1", cfg.HeapObject, -1, nil)
	p := b.Local(main, "p", Ptr64)
	q := b.Local(main, "q", Ptr64)
	r := b.Local(main, "r", cfg.Int64)
	last := b.Seq(main, nil,
		&cfg.Alloc{Dst: Ref(p), Site: site, Size: Cst(cfg.Int64, 8)},
		&cfg.Alloc{Dst: Ref(q), Site: site, Size: Cst(cfg.Int64, 8)},
		Assign(Deref(Ref(p), cfg.Int64), Cst(cfg.Int64, 7)),
		Assign(Deref(Ref(q), cfg.Int64), Cst(cfg.Int64, 9)),
		Assign(Ref(r), Bin(cfg.Add, Deref(Ref(p), cfg.Int64), Deref(Ref(q), cfg.Int64))),
		Assign(Ref(r), Bin(cfg.Add, Ref(r), Deref(&cfg.Binary{Op: cfg.PtrAdd, X: Ref(p), Y: Cst(cfg.Int64, 8), Type: Ptr64}, cfg.Int64))),
	)
	Link(last, main.Exit)
	m, _ := New(b.Finish(), Options{})
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
	b := NewBuilder()
	main := b.Template("main")
	inc := b.Template("inc")
	g := b.Global("g", cfg.Int32, I32(0))
	m := b.Global("m", cfg.Int32, nil)
	fn := b.Object("inc", cfg.FuncObject, 0, nil)
	tmp := b.Local(inc, "t", cfg.Int32)
	var acts []cfg.Action
	switch sync {
	case "lock":
		acts = append(acts, &cfg.Acquire{Lock: Ref(m)})
	case "atomic":
		acts = append(acts, &cfg.AtomicBegin{})
	}
	acts = append(acts, Assign(Ref(tmp), Ref(g)), Assign(Ref(g), Bin(cfg.Add, Ref(tmp), I32(1))))
	switch sync {
	case "lock":
		acts = append(acts, &cfg.Release{Lock: Ref(m)})
	case "atomic":
		acts = append(acts, &cfg.AtomicEnd{})
	}
	Link(b.Seq(inc, nil, acts...), inc.Exit)

	h1 := b.Local(main, "h1", u64)
	h2 := b.Local(main, "h2", u64)
	r := b.Local(main, "r", cfg.Int32)
	chk := b.Check(cfg.AssertCheck, "g == 2", Bin(cfg.Eq, Ref(r), I32(2)))
	last := b.Seq(main, nil,
		&cfg.InitGlobals{},
		&cfg.Spawn{Fn: Addr(fn, 0), Targets: []*cfg.Template{inc}, Handle: Ref(h1)},
		&cfg.Spawn{Fn: Addr(fn, 0), Targets: []*cfg.Template{inc}, Handle: Ref(h2)},
		&cfg.Join{Handle: Ref(h1)},
		&cfg.Join{Handle: Ref(h2)},
		Assign(Ref(r), Ref(g)),
		chk,
	)
	Link(last, main.Exit)
	inc.Spawned = true
	return b.Finish(), chk.Check
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
	b := NewBuilder()
	main := b.Template("main")
	w := b.Template("worker")
	w.Unbounded, w.Spawned = true, true
	fn := b.Object("worker", cfg.FuncObject, 0, nil)
	n := b.Global("n", cfg.Int32, nil)
	arg := b.Local(w, "arg", Ptr64)
	w.Param = arg
	wt := b.Local(w, "t", cfg.Int32)
	Link(b.Seq(w, nil, Assign(Ref(wt), Ref(n)), Assign(Ref(n), Bin(cfg.Add, Ref(wt), I32(1)))), w.Exit)
	i := b.Local(main, "i", cfg.Int32)
	head := b.Seq(main, nil, &cfg.InitGlobals{}, Assign(Ref(i), I32(0)), &cfg.Skip{})
	body := b.Seq(main, nil, Assume(Bin(cfg.Lt, Ref(i), I32(5))))
	main.Entry = main.Locs[1] // seq(nil) reset Entry; restore it
	Link(head, body)
	spawn := b.Seq(main, body, &cfg.Spawn{Fn: Addr(fn, 0), Targets: []*cfg.Template{w}, Arg: Ref(i)}, Assign(Ref(i), Bin(cfg.Add, Ref(i), I32(1))))
	Link(spawn, head)
	out := b.Seq(main, nil, Assume(Bin(cfg.Ge, Ref(i), I32(5))))
	main.Entry = main.Locs[1]
	Link(head, out)
	Link(out, main.Exit)
	p := b.Finish()

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
	b := NewBuilder()
	main := b.Template("main")
	child := b.Template("child")
	flag := b.Global("flag", cfg.Int32, nil)
	fn := b.Object("child", cfg.FuncObject, 0, nil)
	Link(b.Seq(child, nil, Assign(Ref(flag), I32(1))), child.Exit)
	x := b.Local(main, "x", cfg.Int32)
	r := b.Local(main, "r", cfg.Int32)
	br := b.Seq(main, nil, &cfg.InitGlobals{}, &cfg.Havoc{Dst: Ref(x)}, &cfg.Skip{})
	entry := main.Entry
	pos := b.Seq(main, br, Assume(Bin(cfg.Gt, Ref(x), I32(0))), Assign(Ref(r), I32(1)))
	neg := b.Loc(main, Assume(Bin(cfg.Le, Ref(x), I32(0))))
	Link(br, neg)
	join := b.Loc(main, &cfg.Spawn{Fn: Addr(fn, 0), Targets: []*cfg.Template{child}})
	Link(pos, join)
	Link(neg, join)
	wait := b.Seq(main, join, Assume(Bin(cfg.Eq, Ref(flag), I32(1))))
	main.Entry = entry
	Link(wait, main.Exit)
	p := b.Finish()

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
	b := NewBuilder()
	main := b.Template("main")
	str := b.Object("str", cfg.StringObject, 4, nil)
	for i, c := range "abc" {
		str.Init = append(str.Init, cfg.InitValue{Offset: int64(i), Type: i8, Value: Cst(i8, int64(c))})
	}
	out := func(f string, args ...cfg.Expr) *cfg.Output { return &cfg.Output{Format: f, Args: args} }
	last := b.Seq(main, nil,
		&cfg.InitGlobals{},
		out("%d %i|%5d|%-5d|%05d|%+d|%.3d\n", I32(-42), I32(7), I32(42), I32(42), I32(42), I32(42), I32(5)),
		out("%u %x %X %#x %o %#o\n", I32(-1), I32(255), I32(255), I32(255), I32(8), I32(8)),
		out("%ld %lu %lx %lld %hd %hhu\n", Cst(cfg.Int64, -5), Cst(cfg.Int64, -1), Cst(cfg.Int64, 1<<40), Cst(cfg.Int64, 1<<40), I32(70000), I32(300)),
		out("%c%c|%3c|%s|%.2s|%5s|%-5s|%s\n", I32('o'), I32('k'), I32('z'), Addr(str, 0), Addr(str, 0), Addr(str, 1), Addr(str, 1), Cst(Ptr64, 0)),
		out("%*d|%-*d|%.*s|%%|%#x\n", I32(4), I32(1), I32(4), I32(2), I32(1), Addr(str, 0), I32(0)),
		out("%f %.2f %e %g %g\n", Cst(cfg.Type{Kind: cfg.FloatType, Bits: 64}, int64(math.Float64bits(1.5))),
			Cst(cfg.Type{Kind: cfg.FloatType, Bits: 64}, int64(math.Float64bits(-2.345))),
			Cst(cfg.Type{Kind: cfg.FloatType, Bits: 64}, int64(math.Float64bits(12345.678))),
			Cst(cfg.Type{Kind: cfg.FloatType, Bits: 64}, int64(math.Float64bits(0.1))),
			Cst(cfg.Type{Kind: cfg.FloatType, Bits: 64}, int64(math.Float64bits(1234567.0)))),
	)
	Link(last, main.Exit)
	res := mustRun(t, b.Finish(), nil, RunOptions{})
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

// A branch right after a Havoc: Run picks the value first, then the
// successor that is not a dead end.
func TestHavocThenBranch(t *testing.T) {
	b := NewBuilder()
	main := b.Template("main")
	x := b.Local(main, "x", cfg.Int32)
	r := b.Local(main, "r", cfg.Int32)
	h := b.Seq(main, nil, &cfg.Havoc{Dst: Ref(x)})
	entry := main.Entry
	pos := b.Seq(main, h, Assume(Bin(cfg.Gt, Ref(x), I32(0))), Assign(Ref(r), I32(1)))
	neg := b.Seq(main, nil, Assume(Bin(cfg.Le, Ref(x), I32(0))), Assign(Ref(r), I32(2)))
	negEntry := main.Entry
	main.Entry = entry
	Link(h, negEntry)
	Link(pos, main.Exit)
	Link(neg, main.Exit)
	p := b.Finish()
	m, _ := New(p, Options{})
	for in, want := range map[int64]int64{5: 1, -3: 2} {
		res := mustRun(t, p, FirstEnabled(), RunOptions{Inputs: func(ThreadID, *cfg.Loc) int64 { return in }})
		if res.Reason != Finished {
			t.Fatalf("input %d: %v", in, res.Reason)
		}
		if v, _ := m.Register(res.Final, 0, r); v.N != want {
			t.Fatalf("input %d: r = %v, want %d", in, v, want)
		}
	}
}

// CheckCells: an access outside the Deref's cells is reported.
func TestCheckCells(t *testing.T) {
	b := NewBuilder()
	main := b.Template("main")
	a := b.Object("a", cfg.GlobalObject, 8, nil)
	o := b.Object("o", cfg.GlobalObject, 4, nil)
	a0 := &cfg.Var{ID: len(b.P().Vars), Name: "a[0]", Scope: cfg.Global, Type: cfg.Int32, Mem: a, Offset: 0}
	a1 := &cfg.Var{ID: len(b.P().Vars) + 1, Name: "a[1]", Scope: cfg.Global, Type: cfg.Int32, Mem: a, Offset: 4}
	oc := &cfg.Var{ID: len(b.P().Vars) + 2, Name: "o", Scope: cfg.Global, Type: cfg.Int32, Mem: o}
	b.P().Vars = append(b.P().Vars, a0, a1, oc)
	p := b.Local(main, "p", Ptr64)
	last := b.Seq(main, nil,
		Assign(Ref(p), Addr(a, 4)),
		Assign(&cfg.Deref{Addr: Ref(p), Type: cfg.Int32, Cells: []*cfg.Var{a1, oc}}, I32(1)), // covered
		Assign(&cfg.Deref{Addr: Ref(p), Type: cfg.Int32, Cells: []*cfg.Var{a0, oc}}, I32(2)), // not covered
	)
	Link(last, main.Exit)
	prog := b.Finish()
	res := mustRun(t, prog, nil, RunOptions{})
	if res.Reason != Finished {
		t.Fatalf("without CheckCells: %v", res.Reason)
	}
	res = mustRun(t, prog, nil, RunOptions{Machine: Options{CheckCells: true}})
	if res.Reason != RuntimeError || !strings.HasPrefix(res.Error.Event.Text, "points-to:") || res.Steps != 3 {
		t.Fatalf("with CheckCells: %v after %d steps, %v", res.Reason, res.Steps, res.Error)
	}
}

// A location without successors (reach_error's check, abort) still runs
// its action once; then its thread halts there.
func TestDeadEndRunsItsAction(t *testing.T) {
	b := NewBuilder()
	main := b.Template("main")
	g := b.Global("g", cfg.Int32, nil)
	chk := b.Check(cfg.AssertCheck, "reach_error", I32(0))
	b.Seq(main, nil, Assign(Ref(g), I32(1)), chk) // no link to the exit
	p := b.Finish()
	res := mustRun(t, p, nil, RunOptions{})
	if res.Reason != CheckFailure || res.Failures[0].Event.Check != chk.Check {
		t.Fatalf("reason %v failures %v", res.Reason, res.Failures)
	}

	b = NewBuilder()
	main = b.Template("main")
	g = b.Global("g", cfg.Int32, nil)
	b.Seq(main, nil, Assign(Ref(g), I32(1)), Assign(Ref(g), I32(2))) // exit unreachable
	p = b.Finish()
	res = mustRun(t, p, nil, RunOptions{})
	if res.Reason != Stuck || res.Steps != 2 || !res.Final.Threads[0].Halted || res.Final.Globals[0].N != 2 {
		t.Fatalf("reason %v after %d steps, g = %v", res.Reason, res.Steps, res.Final.Globals[0])
	}
}

// ILP32: pointers take 4 bytes in memory and survive a round trip; %ld
// reads a 32-bit long.
func TestILP32(t *testing.T) {
	b := NewBuilder()
	b.P().DataModel = cfg.ILP32
	ptr32 := cfg.Type{Kind: cfg.PtrType, Bits: 32}
	main := b.Template("main")
	g := b.Object("g", cfg.GlobalObject, 8, nil)
	p := b.Local(main, "p", ptr32)
	q := b.Local(main, "q", ptr32)
	last := b.Seq(main, nil,
		Assign(Ref(p), &cfg.AddrOf{Object: g, Offset: 4, Type: ptr32}),
		Assign(Deref(&cfg.AddrOf{Object: g, Type: ptr32}, ptr32), Ref(p)),
		Assign(Ref(q), Deref(&cfg.AddrOf{Object: g, Type: ptr32}, ptr32)),
		Assign(Deref(Ref(q), cfg.Int32), I32(-7)),
		&cfg.Output{Format: "%d %ld %lu %zu\n", Args: []cfg.Expr{
			Deref(&cfg.AddrOf{Object: g, Offset: 4, Type: ptr32}, cfg.Int32), I32(-1), I32(-1), I32(-1)}},
	)
	Link(last, main.Exit)
	res := mustRun(t, b.Finish(), nil, RunOptions{})
	if res.Reason != Finished || res.Output != "-7 -1 4294967295 4294967295\n" {
		t.Fatalf("%v %v %q", res.Reason, res.Error, res.Output)
	}
}

// Several goroutines may step from one shared state (the explorer's
// users run in parallel); run with -race.
func TestConcurrentStepsFromOneState(t *testing.T) {
	p, _ := counterProgram("lock")
	m, _ := New(p, Options{})
	s, _ := m.Initial()
	for i := 0; i < 3; i++ {
		s, _ = m.Step(s, Move{Thread: 0})
	}
	before := s.Encode(nil)
	done := make(chan bool)
	for g := 0; g < 4; g++ {
		go func(seed uint64) {
			cur := s
			sched := Random(seed)
			for i := 0; i < 30; i++ {
				moves := m.Enabled(cur)
				if len(moves) == 0 {
					break
				}
				next, _ := m.Step(cur, moves[sched(cur, moves)])
				if next == nil {
					break
				}
				cur = next
			}
			done <- true
		}(uint64(g))
	}
	for g := 0; g < 4; g++ {
		<-done
	}
	if !bytes.Equal(before, s.Encode(nil)) {
		t.Fatal("the shared state changed")
	}
}

// A non-summary cell claims a single concrete location: once its heap
// site has made two instances, an access covered only by it is reported.
func TestCheckCellsNonSummaryHeap(t *testing.T) {
	b := NewBuilder()
	main := b.Template("main")
	site := b.Object("malloc@1", cfg.HeapObject, -1, nil)
	cell := &cfg.Var{ID: len(b.P().Vars), Name: "malloc@1", Scope: cfg.Global, Type: cfg.Int32, Mem: site}
	b.P().Vars = append(b.P().Vars, cell)
	p := b.Local(main, "p", Ptr64)
	q := b.Local(main, "q", Ptr64)
	store := func(ptr *cfg.Var) *cfg.Assign {
		return Assign(&cfg.Deref{Addr: Ref(ptr), Type: cfg.Int32, Cells: []*cfg.Var{cell}}, I32(1))
	}
	last := b.Seq(main, nil,
		&cfg.Alloc{Dst: Ref(p), Site: site, Size: Cst(cfg.Int64, 4)},
		store(p), // one instance: fine
		&cfg.Alloc{Dst: Ref(q), Site: site, Size: Cst(cfg.Int64, 4)},
		store(q), // two instances, non-summary cell: reported
	)
	Link(last, main.Exit)
	res := mustRun(t, b.Finish(), nil, RunOptions{Machine: Options{CheckCells: true}})
	if res.Reason != RuntimeError || res.Steps != 4 || !strings.Contains(res.Error.Event.Text, "non-summary") {
		t.Fatalf("%v after %d steps: %v", res.Reason, res.Steps, res.Error)
	}
	cell.Summary = true
	res = mustRun(t, b.Finish(), nil, RunOptions{Machine: Options{CheckCells: true}})
	if res.Reason != Finished {
		t.Fatalf("summary cell: %v %v", res.Reason, res.Error)
	}
}

// CheckUninit: reading a local register before any write is reported;
// without the option it reads as zero.
func TestCheckUninit(t *testing.T) {
	b := NewBuilder()
	main := b.Template("main")
	x := b.Local(main, "x", cfg.Int32)
	y := b.Local(main, "y", cfg.Int32)
	last := b.Seq(main, nil, Assign(Ref(x), I32(1)), Assign(Ref(x), Bin(cfg.Add, Ref(x), Ref(y))))
	Link(last, main.Exit)
	p := b.Finish()
	if res := mustRun(t, p, nil, RunOptions{}); res.Reason != Finished {
		t.Fatalf("without CheckUninit: %v", res.Reason)
	}
	res := mustRun(t, p, nil, RunOptions{Machine: Options{CheckUninit: true}})
	if res.Reason != RuntimeError || res.Steps != 2 || !strings.Contains(res.Error.Event.Text, "uninitialized register main.y") {
		t.Fatalf("with CheckUninit: %v after %d steps: %v", res.Reason, res.Steps, res.Error)
	}
	m, _ := New(p, Options{CheckUninit: true})
	s, _ := m.Initial()
	if v, ok := m.Register(s, 0, y); !ok || v.N != 0 || v.Obj != 0 {
		t.Fatalf("Register of an unwritten local: %v %v", v, ok)
	}
}

// A shared write right before a false local assume is not dropped: the
// other threads can see it even though the writer then waits for ever.
func TestSharedWriteBeforeDeadEndKept(t *testing.T) {
	b := NewBuilder()
	main := b.Template("main")
	g := b.Global("g", cfg.Int32, nil)
	x := b.Local(main, "x", cfg.Int32)
	w := b.Seq(main, nil, Assign(Ref(x), I32(0)), Assign(Ref(g), I32(1)))
	Link(b.Seq(main, w, Assume(Bin(cfg.Ne, Ref(x), I32(0)))), main.Exit)
	main.Entry = main.Locs[1]
	p := b.Finish()
	m, _ := New(p, Options{})
	s, _ := m.Initial()
	s, _ = m.Step(s, Move{Thread: 0}) // x := 0
	mv := m.Enabled(s)
	if len(mv) != 1 || !mv[0].Waits {
		t.Fatalf("moves before g := 1: %v, want one waiting move", mv)
	}
	s, _ = m.Step(s, mv[0])
	if s.Globals[0].N != 1 {
		t.Fatalf("g = %v", s.Globals[0])
	}
	// A quiet action (x := 0 again) in front of the same dead end is dropped.
	b = NewBuilder()
	main = b.Template("main")
	x = b.Local(main, "x", cfg.Int32)
	w = b.Seq(main, nil, Assign(Ref(x), I32(0)))
	Link(b.Seq(main, w, Assume(Bin(cfg.Ne, Ref(x), I32(0)))), main.Exit)
	main.Entry = main.Locs[1]
	p = b.Finish()
	m, _ = New(p, Options{})
	s, _ = m.Initial()
	if mv := m.Enabled(s); len(mv) != 0 {
		t.Fatalf("quiet move into a dead end offered: %v", mv)
	}
}
