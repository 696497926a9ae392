package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"strconv"
	"time"

	"chorus/analysis"
)

// devTrace: CHORUS_TRACE=1 prints each round to stderr; CHORUS_PROFILE=DIR
// writes cpu.pprof and heap.pprof there (CHORUS_PROFILE_SECS=N: the first N
// seconds of CPU; CHORUS_PROFILE_FROM=S: from S seconds in); CHORUS_PEAK_HEAP=DIR
// writes the heap profile near the live heap's peak there (peakHeapProfile).
// For profiling large programs.
func devTrace() (opts []analysis.Option, stop func()) {
	stop = func() {}
	if tr := os.Getenv("CHORUS_TRACE"); tr != "" {
		start := time.Now()
		// CHORUS_TRACE=FILE (anything but 1): the trace goes to FILE (a
		// worker's stderr is only shown when it fails).
		w := os.Stderr
		if tr != "1" {
			if f, err := os.OpenFile(tr, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644); err == nil {
				w = f
			}
		}
		opts = append(opts, analysis.WithRoundHook(func(r analysis.Round) {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			fmt.Fprintf(w, "trace %6.1fs heap %5d MB: round new=%d pairs=%d flows=%d z3=%d game=%s solve=%v (%d evals, %d edge visits, %d widenings) engine=%v\n",
				time.Since(start).Seconds(), ms.HeapAlloc>>20, r.NewEdges, r.Pairs, r.Flows, r.Z3Queries, r.Game, r.Solve, r.Evaluations, r.EdgeVisits, r.Widenings, r.Engine)
		}))
	}
	if dir := os.Getenv("CHORUS_PEAK_HEAP"); dir != "" {
		stop = peakHeapProfile(dir)
	}
	if dir := os.Getenv("CHORUS_PROFILE"); dir != "" {
		f, err := os.Create(filepath.Join(dir, "cpu.pprof"))
		if err == nil {
			// CHORUS_PROFILE_FROM=S: the CPU profile starts S seconds in
			// (to see a late round of a long run).
			from, _ := strconv.Atoi(os.Getenv("CHORUS_PROFILE_FROM"))
			startCPU := func() { pprof.StartCPUProfile(f) }
			if from > 0 {
				time.AfterFunc(time.Duration(from)*time.Second, startCPU)
			} else {
				startCPU()
			}
			secs, _ := strconv.Atoi(os.Getenv("CHORUS_PROFILE_SECS"))
			if secs > 0 {
				time.AfterFunc(time.Duration(from+secs)*time.Second, func() { pprof.StopCPUProfile(); f.Close() })
			}
			done := make(chan struct{})
			go func() {
				t := time.NewTicker(5 * time.Second)
				for {
					select {
					case <-done:
						return
					case <-t.C:
						writeHeapProfile(filepath.Join(dir, "heap.pprof"))
					}
				}
			}()
			stopPeak := stop
			stop = func() { close(done); pprof.StopCPUProfile(); f.Close(); stopPeak() }
		}
	}
	return opts, stop
}

// peakHeapProfile (CHORUS_PEAK_HEAP=DIR) samples the live heap (as marked
// by the last collection) every 100 ms and writes DIR/heap-peak.pprof
// whenever it passes its highest value by 2%, so the last file written is the
// heap near its peak (RSS follows the peak live heap, not the heap at an
// arbitrary tick). It prints the peak live heap to stderr when the run stops.
func peakHeapProfile(dir string) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	var peak uint64
	go func() {
		defer close(finished)
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		var written uint64
		live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		for {
			select {
			case <-done:
				return
			case <-t.C:
				metrics.Read(live)
				now := live[0].Value.Uint64()
				if now > peak {
					peak = now
				}
				if now > written+written/50 {
					written = now
					writeHeapProfile(filepath.Join(dir, "heap-peak.pprof"))
				}
			}
		}
	}()
	return func() {
		close(done)
		<-finished
		msg := fmt.Sprintf("peak live heap %d MB\n", peak>>20)
		os.Stderr.WriteString(msg)
		os.WriteFile(filepath.Join(dir, "peak.txt"), []byte(msg), 0o644)
	}
}

// writeHeapProfile writes the heap profile to path (a development aid:
// errors are ignored).
func writeHeapProfile(path string) {
	if h, err := os.Create(path); err == nil {
		pprof.WriteHeapProfile(h)
		h.Close()
	}
}
