package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
)

func TestGCPercentFor(t *testing.T) {
	if p := gcPercentFor(1 << 20); p != smallHeapGCPercent {
		t.Errorf("small heap: GC percent %d, want %d", p, smallHeapGCPercent)
	}
	if p := gcPercentFor(smallHeapLimit + 1); p != 100 {
		t.Errorf("large heap: GC percent %d, want the default 100", p)
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
	tuneWorkerGC()
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
