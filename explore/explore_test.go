package explore

import (
	"testing"

	"chorus/cfg"
	"chorus/cfg/interp"
	. "chorus/cfg/interp/irtest"
)

// counter builds: workers do "t := g; g := t + 1" (inside a lock when
// locked); main spawns two, joins both, reads r := g and checks r == 2.
func counter(locked bool) (*cfg.Program, *cfg.Var, *cfg.Loc) {
	b := NewBuilder()
	main := b.Template("main")
	inc := b.Template("inc")
	inc.Spawned = true
	g := b.Global("g", cfg.Int32, I32(0))
	m := b.Global("m", cfg.Int32, nil)
	fn := b.Object("inc", cfg.FuncObject, 0, nil)
	tmp := b.Local(inc, "t", cfg.Int32)
	var acts []cfg.Action
	if locked {
		acts = append(acts, &cfg.Acquire{Lock: Ref(m)})
	}
	acts = append(acts, Assign(Ref(tmp), Ref(g)), Assign(Ref(g), Bin(cfg.Add, Ref(tmp), I32(1))))
	if locked {
		acts = append(acts, &cfg.Release{Lock: Ref(m)})
	}
	Link(b.Seq(inc, nil, acts...), inc.Exit)
	u64 := cfg.Type{Kind: cfg.IntType, Bits: 64}
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
	p := b.Finish()
	return p, r, chk.Check.Loc
}

// valuesAt collects the values of v in the views at loc.
func valuesAt(res *Result, tmpl int, loc *cfg.Loc, v *cfg.Var) map[int64]bool {
	idx := -1
	for i, x := range res.Vars[tmpl] {
		if x == v {
			idx = i
		}
	}
	out := map[int64]bool{}
	for _, view := range res.Views[loc.ID] {
		out[view.Values[idx].N] = true
	}
	return out
}

func TestLostUpdateFound(t *testing.T) {
	p, r, at := counter(false)
	res, err := Explore(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Complete || len(res.Failures) != 1 {
		t.Fatalf("complete %v failures %v", res.Complete, res.Failures)
	}
	got := valuesAt(res, 0, at, r)
	if !got[1] || !got[2] || len(got) != 2 {
		t.Fatalf("r at the check: %v, want {1, 2}", got)
	}
	// The schedule really fails when replayed.
	f := res.Failures[0]
	if last := f.Schedule[len(f.Schedule)-1]; last.Loc != at.ID {
		t.Fatalf("schedule ends at L%d, not at the check", last.Loc)
	}
	t.Logf("%d states, %d transitions; failing schedule of %d steps", res.States, res.Transitions, len(f.Schedule))
}

func TestLockedCounterSafe(t *testing.T) {
	p, r, at := counter(true)
	res, err := Explore(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Complete || len(res.Failures) != 0 || res.Deadlocks != 0 {
		t.Fatalf("complete %v failures %v deadlocks %d", res.Complete, res.Failures, res.Deadlocks)
	}
	if got := valuesAt(res, 0, at, r); len(got) != 1 || !got[2] {
		t.Fatalf("r at the check: %v, want {2}", got)
	}
}

// An unbounded spawn loop stays finite with MaxInstances; the global
// counts the workers that ran.
func TestSpawnLoopBounded(t *testing.T) {
	b := NewBuilder()
	main := b.Template("main")
	w := b.Template("w")
	w.Spawned, w.Unbounded = true, true
	n := b.Global("n", cfg.Int32, nil)
	m := b.Global("m", cfg.Int32, nil)
	fn := b.Object("w", cfg.FuncObject, 0, nil)
	tmp := b.Local(w, "t", cfg.Int32)
	Link(b.Seq(w, nil, &cfg.Acquire{Lock: Ref(m)}, Assign(Ref(tmp), Ref(n)), Assign(Ref(n), Bin(cfg.Add, Ref(tmp), I32(1))), &cfg.Release{Lock: Ref(m)}), w.Exit)
	head := b.Seq(main, nil, &cfg.InitGlobals{}, &cfg.Skip{})
	spawn := b.Loc(main, &cfg.Spawn{Fn: Addr(fn, 0), Targets: []*cfg.Template{w}})
	Link(head, spawn)
	Link(spawn, head)
	p := b.Finish()
	for k := 1; k <= 3; k++ {
		res, err := Explore(p, Options{MaxInstances: k})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Complete {
			t.Fatalf("K=%d: incomplete after %d states", k, res.States)
		}
		got := valuesAt(res, 0, head, n)
		if len(got) != k+1 || !got[int64(k)] {
			t.Fatalf("K=%d: n at the loop head %v, want 0..%d", k, got, k)
		}
	}
}

func TestHavocEnumerated(t *testing.T) {
	b := NewBuilder()
	main := b.Template("main")
	x := b.Local(main, "x", cfg.Int32)
	chk := b.Check(cfg.AssertCheck, "x != 2", Bin(cfg.Ne, Ref(x), I32(2)))
	Link(b.Seq(main, nil, &cfg.Havoc{Dst: Ref(x)}, chk), main.Exit)
	p := b.Finish()
	res, _ := Explore(p, Options{HavocMin: -1, HavocMax: 1})
	if len(res.Failures) != 0 {
		t.Fatalf("x in [-1,1] failed x != 2")
	}
	res, _ = Explore(p, Options{HavocMin: 0, HavocMax: 3})
	if len(res.Failures) != 1 || res.Failures[0].Schedule[0].Value != 2 {
		t.Fatalf("x in [0,3]: %v", res.Failures)
	}
	if got := valuesAt(res, 0, chk.Check.Loc, x); len(got) != 4 {
		t.Fatalf("x at the check: %v", got)
	}
}

func TestBudget(t *testing.T) {
	p, _, _ := counter(false)
	res, err := Explore(p, Options{MaxStates: 5})
	if err != nil {
		t.Fatal(err)
	}
	if res.Complete || res.States > 5 {
		t.Fatalf("complete %v with %d states", res.Complete, res.States)
	}
}

// Every failure the explorer reports replays in interp.Run: the schedule
// is a real execution reaching the failing check.
func TestFailureSchedulesReplay(t *testing.T) {
	p, _, _ := counter(false)
	res, err := Explore(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	replayAll(t, p, res)
}

func replayAll(t *testing.T, p *cfg.Program, res *Result) {
	t.Helper()
	for _, f := range res.Failures {
		sched, inputs := interp.Replay(f.Schedule)
		run, err := interp.Run(p, sched, interp.RunOptions{Inputs: inputs, Machine: interp.Options{MaxInstances: 1 << 20}})
		if err != nil {
			t.Fatal(err)
		}
		if run.Reason != interp.CheckFailure || run.Failures[0].Event.Check != f.Event.Check || run.Steps != len(f.Schedule) {
			t.Errorf("replay of %s: %v after %d of %d steps", f.Event, run.Reason, run.Steps, len(f.Schedule))
		}
	}
}
