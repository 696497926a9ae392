package main

import (
	"bytes"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"chorus/internal/ccflags"
	"chorus/internal/drivergen"
)

var (
	callScaling      = flag.Bool("call-scaling", false, "run TestCallScaling (every DDVerify driver and real-corpus file; minutes)")
	syntheticScaling = flag.String("synthetic-scaling", "", "run TestSyntheticScaling over drivergen programs with these handler counts (comma-separated, e.g. 45,90,225,450,900,2250,4500: about 1 to 100 kLOC)")
)

// TestCallScaling prints, per program of the corpus — each DDVerify
// driver, then each translation unit of the real projects
// (../shared/corpus/real/*, every entry of the project's compile database
// with its own flags, as TestRealCorpus runs them), then the projects of
// -scaling-link linked as one program each (--link) — its size (source
// lines: the file's, or the sum of a linked program's members) against
// what the analysis builds and spends: locations, shared bodies and their
// call sites, cells, DFG edges, time and peak heap; then the growth
// exponents of locations and time in program size (least squares on
// log-log). Programs that do not lower, or hit -corpus-timeout, are listed
// with their error and left out of the fit. -corpus-filter narrows the
// programs by path. Run with -args -call-scaling (make bench-calls).
func TestCallScaling(t *testing.T) {
	if !*callScaling {
		t.Skip("run with -args -call-scaling")
	}
	root := corpusRoot(t)
	var gr growth
	drivers, _ := filepath.Glob(filepath.Join(root, "ddverify", "*.c"))
	sort.Strings(drivers)
	for _, path := range drivers {
		if *corpusFilter == "" || strings.Contains(path, *corpusFilter) {
			gr.measure(t, filepath.Base(path), unit{file: path, cc: &ccflags.Flags{}}, "ILP32")
		}
	}
	projects, _ := filepath.Glob(filepath.Join(root, "real", "*", "compile_commands.template.json"))
	sort.Strings(projects)
	linked := map[string]bool{}
	for _, p := range strings.Split(*scalingLink, ",") {
		linked[strings.TrimSpace(p)] = true
	}
	for _, tmpl := range projects {
		dir := filepath.Dir(tmpl)
		project := filepath.Base(dir)
		var notes []string
		units, err := compileDBUnits(realDB(t, dir), nil, nil, &notes)
		if err != nil {
			t.Errorf("%s: %v", project, err)
			continue
		}
		for _, u := range units {
			if *corpusFilter == "" || strings.Contains(u.file, *corpusFilter) {
				name := project + "/" + filepath.Base(u.file)
				if u.entry != "" {
					name += " (" + filepath.Base(u.entry) + ")"
				}
				gr.measure(t, name, u, "LP64")
			}
		}
		if linked[project] && (*corpusFilter == "" || strings.Contains(dir, *corpusFilter)) {
			o := &checkOptions{units: units, program: programOptions{link: true}}
			o.linkUnits()
			gr.measure(t, project+" linked", o.units[0], "LP64")
		}
	}
	gr.report(t)
}

// scalingLink names the real projects TestCallScaling also analyses
// linked as one program (pigz linked is issue 11's benchmark; thpool's
// database compiles several programs with a main each, memcached's two,
// and zstd's linked program is far beyond the per-file limits).
var scalingLink = flag.String("scaling-link", "pigz", "TestCallScaling: real projects also measured linked as one program (comma-separated)")

// TestSyntheticScaling is TestCallScaling over programs of drivergen (a
// table of N handlers sharing locked devices, called by worker threads),
// one per handler count of -synthetic-scaling, written to a temporary
// directory: the growth of the analysis in program size on code whose
// shape does not change with its size (issue 11: at most n^1.2). Run with
// -args -synthetic-scaling=45,90,225,450 (and -corpus-timeout).
func TestSyntheticScaling(t *testing.T) {
	if *syntheticScaling == "" {
		t.Skip("run with -args -synthetic-scaling=N,N,...")
	}
	dir := t.TempDir()
	var gr growth
	for _, f := range strings.Split(*syntheticScaling, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			t.Fatalf("bad handler count %q", f)
		}
		path := filepath.Join(dir, fmt.Sprintf("drivergen%d.c", n))
		if err := os.WriteFile(path, drivergen.Program(n), 0o644); err != nil {
			t.Fatal(err)
		}
		gr.measure(t, filepath.Base(path), unit{file: path, cc: &ccflags.Flags{}}, "ILP32")
	}
	gr.report(t)
}

// growth collects, per measured file, the logarithms of its size and of
// what the analysis built and spent.
type growth struct {
	xs, locs, edges, secs, cpu, mem []float64
}

// measure checks one program (a file under its flags, or a linked
// program) with every check kind and logs its size (source lines, summed
// over a linked program's members) against locations, shared bodies and
// their call sites, cells, DFG edges, the game played, wall and CPU time
// (the process's CPU, the steadier on a shared machine) and peak heap.
func (gr *growth) measure(t *testing.T, name string, u unit, dataModel string) {
	lines := 0
	for _, m := range append([]unit{u}, u.members...) {
		if len(u.members) > 0 && m.file == u.file {
			continue // the linked name, not a file
		}
		src, err := os.ReadFile(m.file)
		if err != nil {
			t.Logf("%-28s %v", name, err)
			return
		}
		lines += bytes.Count(src, []byte("\n")) + 1
	}
	o := &checkOptions{domain: *corpusDomain, dataModel: dataModel, timeout: *corpusTimeout, maxRounds: 200}
	for _, k := range []string{"assert", "bounds", "overflow", "divzero", "shift"} {
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
	start, cpuStart := time.Now(), cpuTime()
	out := checkUnit(o, u)
	el, cpu := time.Since(start), cpuTime()-cpuStart
	close(stop)
	if out.err != nil {
		// (the error names a linked program by all its members: drop them)
		msg := strings.TrimPrefix(firstLine(out.err.Error()), u.file+": ")
		t.Logf("%-28s %7d lines  %s (%.1fs)", name, lines, msg, el.Seconds())
		return
	}
	p := out.res.Program
	calls := 0
	for _, bd := range p.Bodies {
		calls += len(bd.Calls)
	}
	st := out.res.Stats
	cells := out.res.Graph.Partition().NumCells()
	t.Logf("%-28s %7d lines %7d locations %6d positions %-16s %4d bodies %5d shared calls %7d cells %9d edges %7.2fs (CPU %7.2fs) %6d MB",
		name, lines, st.Locations, st.GamePositions, st.Game, len(p.Bodies), calls, cells, st.Edges, el.Seconds(), cpu.Seconds(), peak.Load()>>20)
	gr.xs = append(gr.xs, math.Log(float64(lines)))
	gr.locs = append(gr.locs, math.Log(float64(st.Locations)))
	gr.edges = append(gr.edges, math.Log(float64(max(st.Edges, 1))))
	gr.secs = append(gr.secs, math.Log(math.Max(el.Seconds(), 0.01)))
	gr.cpu = append(gr.cpu, math.Log(math.Max(cpu.Seconds(), 0.01)))
	gr.mem = append(gr.mem, math.Log(float64(max(peak.Load(), 1))))
}

// report logs the growth exponents (least-squares slopes on log-log).
func (gr *growth) report(t *testing.T) {
	if len(gr.xs) >= 2 {
		t.Logf("growth in source lines (log-log slope) over %d files: locations n^%.2f, edges n^%.2f, time n^%.2f, CPU n^%.2f, peak heap n^%.2f",
			len(gr.xs), slope(gr.xs, gr.locs), slope(gr.xs, gr.edges), slope(gr.xs, gr.secs), slope(gr.xs, gr.cpu), slope(gr.xs, gr.mem))
		// Each step's exponent too (the target bounds every segment, and
		// a late quadratic term hides in the overall slope).
		// Steps in order of size (the corpus is measured in path order).
		order := make([]int, len(gr.xs))
		for i := range order {
			order[i] = i
		}
		sort.SliceStable(order, func(a, b int) bool { return gr.xs[order[a]] < gr.xs[order[b]] })
		var steps []string
		for k := 1; k < len(order); k++ {
			i, j := order[k-1], order[k]
			steps = append(steps, fmt.Sprintf("%.2f", slope([]float64{gr.xs[i], gr.xs[j]}, []float64{gr.cpu[i], gr.cpu[j]})))
		}
		t.Logf("CPU growth per step: n^(%s)", strings.Join(steps, ", "))
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
