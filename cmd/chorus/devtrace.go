package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"time"

	"chorus/analysis"
)

// devTrace: CHORUS_TRACE=1 prints each round to stderr; CHORUS_PROFILE=DIR
// writes cpu.pprof and heap.pprof there (CHORUS_PROFILE_SECS=N: the first N
// seconds of CPU; CHORUS_PROFILE_FROM=S: from S seconds in). For profiling large programs.
func devTrace() (opts []analysis.Option, stop func()) {
	stop = func() {}
	if os.Getenv("CHORUS_TRACE") != "" {
		start := time.Now()
		opts = append(opts, analysis.WithRoundHook(func(r analysis.Round) {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			fmt.Fprintf(os.Stderr, "trace %6.1fs heap %5d MB: round new=%d pairs=%d flows=%d z3=%d game=%s solve=%v (%d evals, %d edge visits, %d widenings) engine=%v\n",
				time.Since(start).Seconds(), ms.HeapAlloc>>20, r.NewEdges, r.Pairs, r.Flows, r.Z3Queries, r.Game, r.Solve, r.Evaluations, r.EdgeVisits, r.Widenings, r.Engine)
		}))
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
						h, _ := os.Create(filepath.Join(dir, "heap.pprof"))
						pprof.WriteHeapProfile(h)
						h.Close()
					}
				}
			}()
			stop = func() { close(done); pprof.StopCPUProfile(); f.Close() }
		}
	}
	return opts, stop
}
