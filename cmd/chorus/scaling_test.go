package main

import (
	"bytes"
	"flag"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

var callScaling = flag.Bool("call-scaling", false, "run TestCallScaling (every DDVerify driver and real-corpus file; minutes)")

// TestCallScaling prints, per file of the corpus (the DDVerify drivers,
// then ../shared/corpus/real/*/*.c and *.i; -corpus-filter narrows them),
// its size (source lines) against what the analysis builds and spends:
// locations, shared bodies and their call sites, cells, DFG edges, time
// and peak heap; then the growth exponents of locations and time in
// program size (least squares on log-log). Files that do not lower are
// listed with their error. Run with -args -call-scaling.
func TestCallScaling(t *testing.T) {
	if !*callScaling {
		t.Skip("run with -args -call-scaling")
	}
	root := corpusRoot(t)
	files, _ := filepath.Glob(filepath.Join(root, "ddverify", "*.c"))
	for _, pat := range []string{"*/*.c", "*/*.i"} {
		more, _ := filepath.Glob(filepath.Join(root, "real", pat))
		files = append(files, more...)
	}
	sort.Strings(files)
	var xs, locs, secs []float64
	for _, path := range files {
		if *corpusFilter != "" && !strings.Contains(path, *corpusFilter) {
			continue
		}
		src, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		lines := bytes.Count(src, []byte("\n")) + 1
		dm := "LP64"
		if strings.Contains(path, "ddverify") {
			dm = "ILP32"
		}
		o := &checkOptions{domain: *corpusDomain, dataModel: dm, timeout: *corpusTimeout, maxRounds: 200}
		for _, k := range []string{"assert", "bounds", "overflow", "divzero"} {
			o.kinds = append(o.kinds, checkKindNames[k])
		}
		runtime.GC()
		var peak atomic.Uint64
		stop := make(chan struct{})
		go func() {
			var ms runtime.MemStats
			for {
				runtime.ReadMemStats(&ms)
				if ms.HeapAlloc > peak.Load() {
					peak.Store(ms.HeapAlloc)
				}
				select {
				case <-stop:
					return
				case <-time.After(50 * time.Millisecond):
				}
			}
		}()
		start := time.Now()
		out := checkFile(o, path)
		el := time.Since(start)
		close(stop)
		name := filepath.Base(path)
		if out.err != nil {
			t.Logf("%-22s %7d lines  %s (%.1fs)", name, lines, firstLine(out.err.Error()), el.Seconds())
			continue
		}
		p := out.res.Program
		calls := 0
		for _, bd := range p.Bodies {
			calls += len(bd.Calls)
		}
		st := out.res.Stats
		cells := out.res.Graph.Partition().NumCells()
		t.Logf("%-22s %7d lines %7d locations %4d bodies %5d shared calls %7d cells %9d edges %7.2fs %6d MB",
			name, lines, st.Locations, len(p.Bodies), calls, cells, st.Edges, el.Seconds(), peak.Load()>>20)
		xs = append(xs, math.Log(float64(lines)))
		locs = append(locs, math.Log(float64(st.Locations)))
		secs = append(secs, math.Log(math.Max(el.Seconds(), 0.01)))
	}
	if len(xs) >= 3 {
		t.Logf("growth in source lines (log-log slope): locations n^%.2f, time n^%.2f over %d files", slope(xs, locs), slope(xs, secs), len(xs))
	}
}

// slope is the least-squares slope of ys on xs.
func slope(xs, ys []float64) float64 {
	n := float64(len(xs))
	var sx, sy, sxx, sxy float64
	for i := range xs {
		sx += xs[i]
		sy += ys[i]
		sxx += xs[i] * xs[i]
		sxy += xs[i] * ys[i]
	}
	d := n*sxx - sx*sx
	if d == 0 {
		return math.NaN()
	}
	return (n*sxy - sx*sy) / d
}
