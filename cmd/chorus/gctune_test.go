package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"testing"
)

func TestGCPercentFor(t *testing.T) {
	if p := gcPercentFor(1 << 20); p != smallHeapGCPercent {
		t.Errorf("small heap: GC percent %d, want %d", p, smallHeapGCPercent)
	}
	if p := gcPercentFor(smallHeapLimit + 1); p != 100 {
		t.Errorf("medium heap: GC percent %d, want the default 100", p)
	}
	if p := gcPercentFor(largeHeapLimit + 1); p != largeHeapGCPercent {
		t.Errorf("large heap: GC percent %d, want %d", p, largeHeapGCPercent)
	}
}

// The watcher follows the live heap both ways: down to
// largeHeapGCPercent when it grows past largeHeapLimit (here lowered to
// 96 MB), back up once it is small again.
func TestWorkerGCFollowsTheHeap(t *testing.T) {
	old := debug.SetGCPercent(100)
	defer debug.SetGCPercent(old)
	oldLimit := largeHeapLimit
	largeHeapLimit = smallHeapLimit + 32<<20
	defer func() { largeHeapLimit = oldLimit }()
	stop := watchGC()
	defer stop()
	waitFor := func(want int) int {
		p := gogc()
		for i := 0; i < 200 && p != want; i++ {
			runtime.GC() // each collection runs the watcher's finalizer
			runtime.Gosched()
			p = gogc()
		}
		return p
	}
	big := make([]byte, largeHeapLimit+16<<20)
	for i := range big {
		big[i] = byte(i)
	}
	if p := waitFor(largeHeapGCPercent); p != largeHeapGCPercent {
		t.Fatalf("live heap over %d MB: GC percent %d, want %d", largeHeapLimit>>20, p, largeHeapGCPercent)
	}
	runtime.KeepAlive(big)
	big = nil
	if p := waitFor(smallHeapGCPercent); p != smallHeapGCPercent {
		t.Fatalf("live heap small again: GC percent %d, want %d", p, smallHeapGCPercent)
	}
}

// The worker's small-heap setting ends once the live heap is large: a
// big program must not run with five times its heap.
func TestWorkerGCReturnsToDefault(t *testing.T) {
	if os.Getenv("GOGC") != "" {
		t.Skip("GOGC set in the environment")
	}
	old := debug.SetGCPercent(100)
	defer debug.SetGCPercent(old)
	stop := watchGC()
	defer stop()
	if p := gogc(); p != smallHeapGCPercent {
		t.Fatalf("after tuneWorkerGC: GC percent %d, want %d", p, smallHeapGCPercent)
	}
	big := make([]byte, smallHeapLimit+16<<20)
	for i := range big {
		big[i] = byte(i)
	}
	p := smallHeapGCPercent
	for i := 0; i < 200 && p != 100; i++ {
		runtime.GC() // each collection runs the watcher's finalizer
		runtime.Gosched()
		p = gogc()
	}
	runtime.KeepAlive(big)
	if p != 100 {
		t.Fatalf("live heap over %d MB: GC percent still %d", smallHeapLimit>>20, p)
	}
}

// gogc reads the GC percentage without setting it.
func gogc() int {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return int(s[0].Value.Uint64())
}

// The worker's soft memory limit: three quarters of the machine over the
// workers that run at once; none when --memory or GOMEMLIMIT sets one.
func TestWorkerMemoryEnv(t *testing.T) {
	for _, c := range []struct {
		total       uint64
		jobs, units int
		want        uint64
	}{
		{24 << 30, 2, 30, 9 << 30},
		{24 << 30, 2, 1, 18 << 30},
		{24 << 30, 8, 3, 6 << 30},
		{16 << 30, 0, 0, 12 << 30},
	} {
		if got := softLimitPerWorker(c.total, c.jobs, c.units); got != c.want {
			t.Errorf("softLimitPerWorker(%d, %d, %d) = %d, want %d", c.total, c.jobs, c.units, got, c.want)
		}
	}
	if physicalMemory() == 0 {
		t.Skip("no /proc/meminfo")
	}
	t.Setenv("GOMEMLIMIT", "")
	o := &checkOptions{units: make([]unit, 1)}
	o.bulk.jobs = 1
	env := workerMemoryEnv(o)
	if !strings.HasPrefix(env, "GOMEMLIMIT=") {
		t.Fatalf("workerMemoryEnv = %q, want a GOMEMLIMIT", env)
	}
	o.bulk.memory = 1 << 30
	if env := workerMemoryEnv(o); env != "" {
		t.Errorf("with --memory: workerMemoryEnv = %q, want none", env)
	}
	o.bulk.memory = 0
	t.Setenv("GOMEMLIMIT", "4GiB")
	if env := workerMemoryEnv(o); env != "" {
		t.Errorf("with GOMEMLIMIT set: workerMemoryEnv = %q, want none", env)
	}
}

// The ratchet keeps the heap goal at the highest one reached once the
// live heap shrinks, never above it, within maxRatchetFactor of
// gcPercentFor's percentage, and leaves small heaps to gcPercentFor.
func TestGCRatchet(t *testing.T) {
	var r gcRatchet
	live := uint64(512 << 20)
	if p := r.percent(live); p != 100 {
		t.Fatalf("first large heap: percent %d, want 100", p)
	}
	peak := live * 2
	for _, l := range []uint64{400 << 20, 300 << 20, 200 << 20} {
		p := r.percent(l)
		goal := l + l/100*uint64(p)
		if goal > peak {
			t.Errorf("live %d MB: goal %d MB above the peak %d MB", l>>20, goal>>20, peak>>20)
		}
		if p < 100 || p > maxRatchetFactor*100 {
			t.Errorf("live %d MB: percent %d outside [100, %d]", l>>20, p, maxRatchetFactor*100)
		}
	}
	// (1024-400)/4 = 156, less one: the goal is rounded down.
	if p := r.percent(400 << 20); p != 155 {
		t.Errorf("live 400 MB after a 1024 MB goal: percent %d, want 155", p)
	}
	if p := r.percent(1 << 20); p != smallHeapGCPercent {
		t.Errorf("small heap: percent %d, want %d", p, smallHeapGCPercent)
	}
	if p := r.percent(2 << 30); p != largeHeapGCPercent {
		t.Errorf("new peak: percent %d, want %d", p, largeHeapGCPercent)
	}
}

// The soft memory limit follows the highest heap goal, with room for the
// runtime's other memory, and never comes down with the live heap.
func TestGCRatchetMemoryLimit(t *testing.T) {
	var r gcRatchet
	r.percent(2 << 30) // goal 3 GiB at largeHeapGCPercent
	goal := uint64(2<<30) + uint64(2<<30)/100*largeHeapGCPercent
	if r.peakGoal != goal {
		t.Fatalf("peak goal %d, want %d", r.peakGoal, goal)
	}
	l := r.memoryLimit()
	if l <= int64(goal) || l > int64(goal+goal/8+limitSlack) {
		t.Fatalf("memory limit %d for a goal of %d: want a little above it", l, goal)
	}
	r.percent(1500 << 20) // the live heap shrank
	if r.memoryLimit() != l {
		t.Fatalf("memory limit went from %d to %d as the live heap shrank", l, r.memoryLimit())
	}
}

// The watcher sets the soft limit once the heap is large (here past a
// largeHeapLimit lowered to 96 MB), never above the limit it started
// with, and stop restores that one.
func TestWorkerGCSetsMemoryLimit(t *testing.T) {
	old := debug.SetGCPercent(100)
	defer debug.SetGCPercent(old)
	oldLimit := largeHeapLimit
	largeHeapLimit = smallHeapLimit + 32<<20
	defer func() { largeHeapLimit = oldLimit }()
	start := debug.SetMemoryLimit(-1)
	stop := watchGC()
	big := make([]byte, largeHeapLimit+16<<20)
	for i := range big {
		big[i] = byte(i)
	}
	lim := start
	for i := 0; i < 200 && lim == start; i++ {
		runtime.GC() // each collection runs the watcher's finalizer
		runtime.Gosched()
		lim = debug.SetMemoryLimit(-1)
	}
	runtime.KeepAlive(big)
	stop()
	if lim == start || lim < int64(len(big)) || lim > start {
		t.Fatalf("memory limit %d with %d bytes live (started at %d): want one above the live heap, below the start", lim, len(big), start)
	}
	if got := debug.SetMemoryLimit(-1); got != start {
		t.Fatalf("after stop: memory limit %d, want %d", got, start)
	}
}

// Under --memory the watcher keeps the soft limit the flag set (nine
// tenths of it) even when the ratchet's own limit would be higher: here
// the heap passes a largeHeapLimit lowered to 96 MB, whose ratchet limit
// (the goal plus slack) is above the flag's. Set after the watcher
// started, the flag's limit was replaced at the first large collection.
func TestWorkerGCKeepsMemoryFlagLimit(t *testing.T) {
	t.Setenv("GOGC", "")
	os.Unsetenv("GOGC")
	old := debug.SetGCPercent(100)
	defer debug.SetGCPercent(old)
	oldLimit := largeHeapLimit
	largeHeapLimit = smallHeapLimit + 32<<20
	defer func() { largeHeapLimit = oldLimit }()
	original := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(original)

	big := make([]byte, largeHeapLimit+16<<20)
	memory := int64(len(big)) * 2 // soft limit 1.8x the live heap: below the ratchet's
	var r gcRatchet
	r.percent(uint64(len(big)))
	if r.memoryLimit() <= memoryFlagSoftLimit(memory) {
		t.Fatalf("setup: the ratchet's limit %d is not above the flag's %d", r.memoryLimit(), memoryFlagSoftLimit(memory))
	}
	stop := tuneWorkerGC(memory)
	defer stop()
	for i := range big {
		big[i] = byte(i)
	}
	sample := []metrics.Sample{{Name: "/gc/gogc:percent"}, {Name: "/gc/gomemlimit:bytes"}}
	var percent, limit uint64
	for i := 0; i < 200 && percent != largeHeapGCPercent; i++ {
		runtime.GC() // each collection runs the watcher's finalizer
		runtime.Gosched()
		metrics.Read(sample)
		percent, limit = sample[0].Value.Uint64(), sample[1].Value.Uint64()
	}
	runtime.KeepAlive(big)
	if percent != largeHeapGCPercent {
		t.Fatalf("the watcher never saw the large heap: GC percent %d, want %d", percent, largeHeapGCPercent)
	}
	if int64(limit) != memoryFlagSoftLimit(memory) {
		t.Fatalf("memory limit %d, want the flag's %d (memory %d)", limit, memoryFlagSoftLimit(memory), memory)
	}
}
