package explore

import (
	"runtime"
	"testing"
	"time"

	"chorus/cfg"
	. "chorus/cfg/interp/irtest"
)

// The CPU clock counts the searching thread's work only: time it spends
// parked (here asleep, on a loaded machine waiting for a core) does not
// use the budget, and work does.
func TestCPUClockCountsOnlyThisThread(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if _, ok := threadCPU(); !ok {
		t.Skip("no per-thread CPU clock on this system")
	}
	c := startCPUClock(20 * time.Millisecond)
	time.Sleep(100 * time.Millisecond)
	if c.spent() {
		t.Fatal("sleeping used up the CPU budget")
	}
	x, start := 0, time.Now()
	for !c.spent() {
		for i := 0; i < 1000; i++ {
			x += i
		}
		if time.Since(start) > 10*time.Second {
			t.Fatalf("20ms of CPU never spent after 10s of busy work (%d)", x)
		}
	}
}

// CPUTimeout stops a search far too large for it: incomplete, and long
// before the state bound (a clock that never runs out would reach it).
func TestCPUTimeoutStopsSearch(t *testing.T) {
	b := NewBuilder()
	main := b.Template("main")
	u8 := cfg.Type{Kind: cfg.IntType, Bits: 8}
	r1, r2, r3 := b.Local(main, "r1", u8), b.Local(main, "r2", u8), b.Local(main, "r3", u8)
	last := b.Seq(main, nil,
		&cfg.InitGlobals{},
		&cfg.Havoc{Dst: Ref(r1)}, &cfg.Havoc{Dst: Ref(r2)}, &cfg.Havoc{Dst: Ref(r3)},
		b.Check(cfg.AssertCheck, "r1 != 7", Bin(cfg.Ne, Ref(r1), I32(7))),
	)
	Link(last, main.Exit)
	p := b.Finish()
	values := make([][]int64, len(p.Locs))
	for _, l := range p.Locs {
		if _, ok := l.Act.(*cfg.Havoc); ok {
			for v := int64(0); v < 256; v++ {
				values[l.ID] = append(values[l.ID], v)
			}
		}
	}
	const maxStates = 2_000_000 // 256^3 states would pass it
	res, err := Explore(p, Options{HavocValues: values, MaxStates: maxStates, CPUTimeout: 30 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if res.Complete || res.States >= maxStates/4 {
		t.Fatalf("complete %v after %d states: the CPU budget did not stop the search", res.Complete, res.States)
	}
}
