package main

// The worker's garbage collector setting. A worker is a short process, and
// most files are small: at Go's default (GOGC=100, a 4 MB minimum heap) a
// 30 KB SV-COMP task runs several collections whose work is a fifth of its
// CPU time (worker CPU on pthread-ext/03_incdec.i, 25 runs each, in the
// same minute: 52 ms at GOGC=100, 41 ms at 400, 39 ms at 800). So the
// worker starts at smallHeapGCPercent and returns to the default once the
// live heap passes smallHeapLimit, where the extra room would cost real
// memory. Past largeHeapLimit it goes down to largeHeapGCPercent: pigz
// linked and floppy hold 4-6 GB live in their fixpoint, and at GOGC=100
// the heap grows to twice that before a collection (pigz: 11.8 GB peak
// RSS; 8.8 GB at GOGC=50 for 13% more CPU). The watcher follows the live
// heap after every collection, both ways. A GOGC set in the environment
// is left alone.
//
// Above smallHeapLimit the percentage also never lets the heap goal fall
// below the highest goal reached so far (gcRatchet): that much memory was
// already taken at the peak, so collecting earlier after the live heap
// shrinks or levels off below it (between the rounds of the fixpoint, after
// the solve) saves no peak memory, only adds collections. Peak RSS is
// unchanged: a goal above the peak is only ever set by gcPercentFor itself.
//
// Past largeHeapLimit the worker also sets a soft memory limit just above
// that highest goal (gcRatchet.memoryLimit). The heap's goal bounds the
// heap, not the process: freed pages the background scavenger had not yet
// returned, and spans left half-used by earlier phases, kept pigz linked's
// peak RSS 770 MB above its largest heap (2.95 GB for a 2.2 GB heap at a
// 1.6 GB live peak). With the limit the runtime returns such pages as the
// total nears it, so RSS follows the goal (2.46 GB at a 2.4 GB limit, the
// same 50 collections). The limit only grows (the goal it follows is the
// peak's), so it never makes the collector run earlier than the goal it
// was set for, except by the runtime's own overhead, which the margin
// covers; the GOMEMLIMIT the worker started with still caps it.

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync/atomic"
)

const (
	smallHeapGCPercent = 400
	smallHeapLimit     = 64 << 20
	largeHeapGCPercent = 50
)

// largeHeapLimit is the live heap past which the worker collects at
// largeHeapGCPercent (a variable for the tests).
var largeHeapLimit uint64 = 1 << 30

// gcPercentFor is the GC percentage for a live heap of live bytes.
func gcPercentFor(live uint64) int {
	switch {
	case live > largeHeapLimit:
		return largeHeapGCPercent
	case live > smallHeapLimit:
		return 100
	}
	return smallHeapGCPercent
}

// gcRatchet turns gcPercentFor's percentage into the one the worker sets:
// at least that, and enough for the heap goal to reach peakGoal, the
// largest goal gcPercentFor has asked for so far.
type gcRatchet struct{ peakGoal uint64 }

// maxRatchetFactor bounds gcRatchet's percentage by a multiple of
// gcPercentFor's.
const maxRatchetFactor = 2

// percent is the GC percentage after a collection that left live bytes.
// Below smallHeapLimit it is gcPercentFor's: there the runtime's minimum
// heap (4 MB times the percentage over 100) could exceed the goal a
// large percentage stands for.
func (r *gcRatchet) percent(live uint64) int {
	p := gcPercentFor(live)
	if live <= smallHeapLimit {
		return p
	}
	goal := live + live/100*uint64(p)
	r.peakGoal = max(r.peakGoal, goal)
	if r.peakGoal > goal {
		// The goal live*(1+q/100) rounded down to at most peakGoal, q
		// at most maxRatchetFactor*p: the runtime applies a percentage
		// to the live heap of the next collection until this watcher
		// runs again (the sentinel's finalizer waits for its span to
		// be swept), and the live heap may have grown by then.
		p = max(p, min(maxRatchetFactor*p, int((r.peakGoal-live)/(live/100))))
	}
	return p
}

// memoryLimit is the soft memory limit for the highest goal so far: the
// goal plus room for the runtime's memory besides the heap (GC metadata,
// stacks: a few percent).
func (r *gcRatchet) memoryLimit() int64 {
	return int64(r.peakGoal + r.peakGoal/16 + limitSlack)
}

// limitSlack is memoryLimit's fixed part.
const limitSlack = 64 << 20

// tuneWorkerGC applies gcRatchet's percentage now and after every collection (a
// finalizer per collection: nothing next to the collection's own work).
//
// memory is --memory's limit (0: none). The collector gets a soft limit of
// nine tenths of it, so it works harder near the limit the parent's
// watchdog enforces on the worker's resident memory. It is set before the
// watcher starts because the watcher never raises the limit above the one
// it found: set after, the ratchet's own limit (the peak goal plus slack)
// replaced it once the heap passed largeHeapLimit, and pigz linked under
// --memory 2GB grew past 2 GB and was stopped where 1.8 GB would have held it.
// stop ends the watching (for the tests).
func tuneWorkerGC(memory int64) (stop func()) {
	if memory > 0 {
		debug.SetMemoryLimit(memoryFlagSoftLimit(memory))
	}
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	return watchGC()
}

// memoryFlagSoftLimit is the collector's soft limit under --memory's limit.
func memoryFlagSoftLimit(memory int64) int64 { return memory / 10 * 9 }

// watchGC is tuneWorkerGC without the environment check; stop ends the
// watching at the next collection (for the tests).
func watchGC() (stop func()) {
	var stopped atomic.Bool
	current := smallHeapGCPercent
	debug.SetGCPercent(current)
	var ratchet gcRatchet
	startLimit := debug.SetMemoryLimit(-1) // (GOMEMLIMIT, or no limit)
	curLimit := startLimit
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var watch func(*gcSentinel)
	watch = func(*gcSentinel) {
		if stopped.Load() {
			return
		}
		metrics.Read(sample)
		live := uint64(0)
		if sample[0].Value.Kind() == metrics.KindUint64 {
			live = sample[0].Value.Uint64()
		}
		if p := ratchet.percent(live); p != current {
			current = p
			debug.SetGCPercent(p)
		}
		if ratchet.peakGoal > largeHeapLimit {
			if l := min(ratchet.memoryLimit(), startLimit); l != curLimit {
				curLimit = l
				debug.SetMemoryLimit(l)
			}
		}
		s := new(gcSentinel)
		runtime.SetFinalizer(s, watch) // runs after the next collection
	}
	s := new(gcSentinel)
	runtime.SetFinalizer(s, watch)
	return func() {
		stopped.Store(true)
		debug.SetMemoryLimit(startLimit)
	}
}

// gcSentinel is an object whose finalizer runs once per collection.
type gcSentinel struct{ _ [16]byte }

// workerMemoryEnv is the GOMEMLIMIT a worker process starts with when
// neither --memory nor the environment sets one: three quarters of the
// machine's memory shared by the workers that run at once. It is a soft
// limit (the collector works harder near it, nothing fails): without it a
// worker whose live heap is several gigabytes (floppy's is 6-8 GB in its
// fixpoint) lets the heap grow to twice that at GOGC=100 and can exhaust a
// machine that would hold the live data. Empty: leave the runtime's
// default.
func workerMemoryEnv(o *checkOptions) string {
	if o.bulk.memory > 0 || os.Getenv("GOMEMLIMIT") != "" {
		return ""
	}
	total := physicalMemory()
	if total == 0 {
		return ""
	}
	return "GOMEMLIMIT=" + strconv.FormatUint(softLimitPerWorker(total, o.bulk.jobs, len(o.units)), 10)
}

// softLimitPerWorker is three quarters of total over the workers that run
// at once (min(jobs, units), at least 1).
func softLimitPerWorker(total uint64, jobs, units int) uint64 {
	workers := max(min(jobs, units), 1)
	return total / 4 * 3 / uint64(workers)
}

// physicalMemory is MemTotal from /proc/meminfo in bytes (0: unknown).
func physicalMemory() uint64 {
	data, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		rest, ok := strings.CutPrefix(line, "MemTotal:")
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		if len(f) != 2 || f[1] != "kB" {
			return 0
		}
		kb, err := strconv.ParseUint(f[0], 10, 64)
		if err != nil {
			return 0
		}
		return kb << 10
	}
	return 0
}
