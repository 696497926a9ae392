package main

// The worker's garbage collector setting. A worker is a short process, and
// most files are small: at Go's default (GOGC=100, a 4 MB minimum heap) a
// 30 KB SV-COMP task runs several collections whose work is a fifth of its
// CPU time (worker CPU on pthread-ext/03_incdec.i, 25 runs each, in the
// same minute: 52 ms at GOGC=100, 41 ms at 400, 39 ms at 800). So the
// worker starts at smallHeapGCPercent and returns to the default once the
// live heap passes smallHeapLimit, where the extra room would cost real
// memory (floppy's heap is over a gigabyte). A GOGC set in the
// environment is left alone.

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
)

const (
	smallHeapGCPercent = 400
	smallHeapLimit     = 64 << 20
)

// gcPercentFor is the GC percentage for a live heap of live bytes.
func gcPercentFor(live uint64) int {
	if live > smallHeapLimit {
		return 100
	}
	return smallHeapGCPercent
}

// tuneWorkerGC applies gcPercentFor now and after every collection until
// the heap has grown past smallHeapLimit (then the default stays).
func tuneWorkerGC() {
	if os.Getenv("GOGC") != "" {
		return
	}
	debug.SetGCPercent(smallHeapGCPercent)
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var watch func(*gcSentinel)
	watch = func(*gcSentinel) {
		metrics.Read(sample)
		live := uint64(0)
		if sample[0].Value.Kind() == metrics.KindUint64 {
			live = sample[0].Value.Uint64()
		}
		p := gcPercentFor(live)
		debug.SetGCPercent(p)
		if p == smallHeapGCPercent {
			s := new(gcSentinel)
			runtime.SetFinalizer(s, watch) // runs after the next collection
		}
	}
	s := new(gcSentinel)
	runtime.SetFinalizer(s, watch)
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
