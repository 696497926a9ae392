package explore

import (
	"testing"

	"chorus/cfg"
	. "chorus/cfg/interp/irtest"
)

// havocCheck builds main: havoc r (u8); check r != 200. It returns the
// program and the havoc's location.
func havocCheck() (*cfg.Program, *cfg.Loc) {
	b := NewBuilder()
	main := b.Template("main")
	u8 := cfg.Type{Kind: cfg.IntType, Bits: 8}
	r := b.Local(main, "r", u8)
	last := b.Seq(main, nil,
		&cfg.InitGlobals{},
		&cfg.Havoc{Dst: Ref(r)},
		b.Check(cfg.AssertCheck, "r != 200", Bin(cfg.Ne, Ref(r), I32(200))),
	)
	Link(last, main.Exit)
	p := b.Finish()
	for _, l := range p.Locs {
		if _, ok := l.Act.(*cfg.Havoc); ok {
			return p, l
		}
	}
	panic("no havoc")
}

// HavocValues replaces HavocMin..HavocMax at its location: the value 200
// is only tried when listed.
func TestHavocValues(t *testing.T) {
	p, h := havocCheck()
	res, err := Explore(p, Options{})
	if err != nil || len(res.Failures) != 0 {
		t.Fatalf("default range -1..1: %v, %d failures", err, len(res.Failures))
	}
	values := make([][]int64, len(p.Locs))
	for v := int64(0); v < 256; v++ {
		values[h.ID] = append(values[h.ID], v)
	}
	res, err = Explore(p, Options{HavocValues: values, Reduce: true})
	if err != nil || len(res.Failures) != 1 || !res.Complete {
		t.Fatalf("every u8 value: %v, %d failures, complete %v", err, len(res.Failures), res.Complete)
	}
}

// StopAt ends the search when a thread could run a marked location.
func TestStopAt(t *testing.T) {
	p, h := havocCheck()
	stop := make([]bool, len(p.Locs))
	stop[h.ID] = true
	res, err := Explore(p, Options{StopAt: stop, Reduce: true})
	if err != nil || res.Complete || res.StoppedAt != h {
		t.Fatalf("%v: complete %v, stopped at %v (want %v)", err, res.Complete, res.StoppedAt, h)
	}
	res, err = Explore(p, Options{StopAt: make([]bool, len(p.Locs)), Reduce: true})
	if err != nil || !res.Complete || res.StoppedAt != nil {
		t.Fatalf("nothing marked: %v: complete %v, stopped at %v", err, res.Complete, res.StoppedAt)
	}
}

// CheckUninit makes a read of a register never written a runtime error,
// also on a move the reduction would run in place.
func TestCheckUninitOption(t *testing.T) {
	b := NewBuilder()
	main := b.Template("main")
	r := b.Local(main, "r", cfg.Int32)
	s := b.Local(main, "s", cfg.Int32)
	last := b.Seq(main, nil, &cfg.InitGlobals{}, Assign(Ref(s), Ref(r)),
		b.Check(cfg.AssertCheck, "s == 0", Bin(cfg.Eq, Ref(s), I32(0))))
	Link(last, main.Exit)
	p := b.Finish()
	for _, reduce := range []bool{false, true} {
		res, err := Explore(p, Options{Reduce: reduce})
		if err != nil || len(res.Errors) != 0 || len(res.Failures) != 0 {
			t.Fatalf("reduce %v, zero registers: %v, %d errors", reduce, err, len(res.Errors))
		}
		res, err = Explore(p, Options{Reduce: reduce, CheckUninit: true})
		if err != nil || len(res.Errors) != 1 {
			t.Fatalf("reduce %v, CheckUninit: %v, %d errors", reduce, err, len(res.Errors))
		}
	}
}

// ExactStates visits the same states as the hashed set; MaxThreads counts
// main and its two workers.
func TestExactStates(t *testing.T) {
	p, _, _ := counter(false)
	hashed, err := Explore(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	exact, err := Explore(p, Options{ExactStates: true})
	if err != nil {
		t.Fatal(err)
	}
	if hashed.States != exact.States || hashed.Transitions != exact.Transitions || len(hashed.Failures) != len(exact.Failures) {
		t.Fatalf("hashed %d states %d moves, exact %d states %d moves", hashed.States, hashed.Transitions, exact.States, exact.Transitions)
	}
	if exact.MaxThreads != 3 {
		t.Fatalf("MaxThreads %d, want 3", exact.MaxThreads)
	}
	small, err := Explore(p, Options{ExactStates: true, MaxExactBytes: 1})
	if err != nil || small.Complete {
		t.Fatalf("MaxExactBytes 1: %v, complete %v", err, small.Complete)
	}
}

// StopWhenBounded ends the search at the first spawn that waits for an
// instance.
func TestStopWhenBounded(t *testing.T) {
	p, _, _ := counter(false)
	full, err := Explore(p, Options{MaxInstances: 1})
	if err != nil || !full.Bounded || !full.Complete {
		t.Fatalf("one instance: %v, bounded %v, complete %v", err, full.Bounded, full.Complete)
	}
	cut, err := Explore(p, Options{MaxInstances: 1, StopWhenBounded: true})
	if err != nil || !cut.Bounded || cut.Complete || cut.States >= full.States {
		t.Fatalf("StopWhenBounded: %v, bounded %v, complete %v, %d states (full %d)", err, cut.Bounded, cut.Complete, cut.States, full.States)
	}
	two, err := Explore(p, Options{MaxInstances: 2, StopWhenBounded: true})
	if err != nil || two.Bounded || !two.Complete {
		t.Fatalf("two instances: %v, bounded %v, complete %v", err, two.Bounded, two.Complete)
	}
}
