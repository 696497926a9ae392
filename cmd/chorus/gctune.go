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
