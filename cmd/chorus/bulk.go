package main

// The run of chorus check over many files: -j N worker processes (each
// file in a child process of this binary, worker.go, so that a crash, an
// out-of-memory or a runaway loses only that file), --timeout and
// --memory per file enforced from outside, the result cache (cache.go),
// ignore comments, --baseline, --shard, progress (progress.go), and one
// deterministic report sorted by file whatever order the workers finish
// in (output.go, report/sarif).

import (
	"flag"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"chorus/report"
	"chorus/report/sarif"
)

// bulkOptions are the flags of the run itself.
type bulkOptions struct {
	jobs           int
	memoryFlag     string
	memory         int64 // bytes; 0: no limit
	output         string
	quiet          bool
	cacheDir       string
	noCache        bool
	baseline       string
	strictIgnores  bool
	shard          string
	shardI, shardN int
	// childArgs are the flags a worker process gets (the analysis flags as
	// given, so that flags added later reach the workers unchanged).
	childArgs []string
}

// runFlagNames are the flags that concern the run, not one file's
// analysis: not passed to workers, not part of the cache key.
var runFlagNames = map[string]bool{
	"j": true, "output": true, "quiet": true, "cache": true, "no-cache": true,
	"baseline": true, "strict-ignores": true, "shard": true, "format": true,
	"invariants": true, "dot": true, "p": true,
}

func addBulkFlags(fs *flag.FlagSet, b *bulkOptions) {
	fs.IntVar(&b.jobs, "j", runtime.NumCPU(), "files analysed in parallel, each in a worker process of its own")
	fs.StringVar(&b.memoryFlag, "memory", "", "memory limit per file, e.g. 2GiB or 1500MB (a file over it is unknown; default: none)")
	fs.StringVar(&b.output, "output", "", "write the report to this file instead of standard output")
	fs.BoolVar(&b.quiet, "quiet", false, "no progress bar and no summary table on standard error")
	fs.StringVar(&b.cacheDir, "cache", "", "result cache directory (default: chorus in the user cache directory)")
	fs.BoolVar(&b.noCache, "no-cache", false, "neither read nor write the result cache")
	fs.StringVar(&b.baseline, "baseline", "", "SARIF log of an earlier run: report only results whose fingerprint it does not have")
	fs.BoolVar(&b.strictIgnores, "strict-ignores", false, "report chorus:ignore comments that suppress nothing (exit status 1)")
	fs.StringVar(&b.shard, "shard", "", "I/N: analyse only shard I (0 <= I < N) of the files, chosen by a hash of the path")
}

// finish validates the run flags and records the workers' flags.
func (b *bulkOptions) finish(fs *flag.FlagSet) error {
	if b.jobs < 1 {
		return fmt.Errorf("-j %d: need at least 1", b.jobs)
	}
	if b.memoryFlag != "" {
		n, err := parseBytes(b.memoryFlag)
		if err != nil {
			return fmt.Errorf("--memory: %v", err)
		}
		b.memory = n
	}
	if b.shard != "" {
		i, n, err := parseShard(b.shard)
		if err != nil {
			return fmt.Errorf("--shard: %v", err)
		}
		b.shardI, b.shardN = i, n
	}
	if b.cacheDir == "" && !b.noCache {
		dir, err := os.UserCacheDir()
		if err != nil {
			b.noCache = true // no home: run without a cache
		} else {
			b.cacheDir = filepath.Join(dir, "chorus")
		}
	}
	b.childArgs = nil
	fs.Visit(func(f *flag.Flag) {
		if !runFlagNames[f.Name] {
			b.childArgs = append(b.childArgs, "--"+f.Name+"="+f.Value.String())
		}
	})
	return nil
}

// parseBytes reads a size: a number with an optional unit (B, K/KB/KiB,
// M/MB/MiB, G/GB/GiB, T...; powers of 1024 for all, as memory is sized).
func parseBytes(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := 0
	for i < len(t) && (t[i] >= '0' && t[i] <= '9' || t[i] == '.') {
		i++
	}
	num, err := strconv.ParseFloat(t[:i], 64)
	if err != nil || num <= 0 {
		return 0, fmt.Errorf("bad size %q (want e.g. 2GiB)", s)
	}
	unit := strings.ToUpper(strings.TrimSpace(t[i:]))
	unit = strings.TrimSuffix(strings.TrimSuffix(unit, "IB"), "B")
	mult := map[string]float64{"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}[unit]
	if mult == 0 {
		return 0, fmt.Errorf("bad size unit in %q (want B, KiB, MiB, GiB or TiB)", s)
	}
	return int64(num * mult), nil
}

func parseShard(s string) (int, int, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return 0, 0, fmt.Errorf("bad shard %q (want I/N with 0 <= I < N)", s)
	}
	return i, n, nil
}

// inShard reports whether file belongs to shard i of n: a hash of its
// cleaned, slash-separated path, so that every machine of a job splits
// the same file list the same way.
func inShard(file string, i, n int) bool {
	h := fnv.New32a()
	h.Write([]byte(filepath.ToSlash(filepath.Clean(file))))
	return int(h.Sum32()%uint32(n)) == i
}

// inProcess reports whether the files must be analysed in this process:
// the outputs that need the analysis itself (invariants, the graph,
// explanations and the HTML report, explain.go and htmlreport.go).
// Such runs are sequential, and their --timeout does not cover lowering.
func (o *checkOptions) inProcess() bool {
	return o.invariants || o.dot != "" || o.explain.on()
}

// runBulk analyses o.files and writes the report; it returns the exit
// status.
func runBulk(o *checkOptions, stdout, stderr io.Writer) int {
	start, cpuStart := time.Now(), cpuTime()
	b := &o.bulk
	var baseline map[string]bool
	if b.baseline != "" {
		data, err := os.ReadFile(b.baseline)
		if err == nil {
			log, rerr := sarif.Read(data)
			if err = rerr; err == nil {
				baseline = sarif.Fingerprints(log)
			}
		}
		if err != nil {
			fmt.Fprintf(stderr, "chorus check: --baseline %s: %v\n", b.baseline, err)
			return 2
		}
	}
	units := o.units
	if b.shardN > 0 {
		units = nil
		for _, u := range o.units {
			if inShard(u.file, b.shardI, b.shardN) {
				units = append(units, u)
			}
		}
	}
	if !b.quiet {
		for _, n := range o.notes {
			fmt.Fprintln(stderr, n)
		}
	}
	var cache *resultCache
	if !b.noCache && !o.inProcess() {
		cache = &resultCache{dir: b.cacheDir}
	}
	workers := b.jobs
	if o.inProcess() {
		workers = 1 // the invariants and graphs go to stdout/files in order
	}
	if workers > len(units) {
		workers = len(units)
	}
	prog := newProgress(stderr, len(units), b.quiet)
	results := make([]report.File, len(units))
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				prog.start(units[i].file)
				results[i] = analyseOne(o, units[i], cache, stdout, stderr)
				prog.done(units[i].file, &results[i])
			}
		}()
	}
	for i := range units {
		next <- i
	}
	close(next)
	wg.Wait()
	prog.finish()

	ignores := newIgnoreReader()
	for i := range results {
		f := &results[i]
		report.Fingerprints(f)
		report.ApplyIgnores(f, ignores.forFile(f))
		for j := range f.Checks {
			c := &f.Checks[j]
			c.InBaseline = c.Failing() && c.Suppressed == nil && baseline[c.Fingerprint]
		}
	}
	report.SortFiles(results)

	out := stdout
	var outFile *os.File
	if b.output != "" {
		var err error
		outFile, err = os.Create(b.output)
		if err != nil {
			fmt.Fprintf(stderr, "chorus check: %v\n", err)
			return 2
		}
		out = outFile
	}
	var werr error
	switch o.format {
	case "json":
		werr = writeReportJSON(out, results)
	case "sarif":
		werr = sarif.Write(out, sarif.Build(results, sarif.Options{Version: chorusVersion(), Baseline: baseline != nil, StrictIgnores: b.strictIgnores}))
		writeFileErrors(stderr, results)
	default:
		werr = writeReportText(out, stderr, results, b.strictIgnores)
	}
	if outFile != nil {
		if err := outFile.Close(); werr == nil {
			werr = err
		}
	}
	if werr != nil {
		fmt.Fprintf(stderr, "chorus check: writing the report: %v\n", werr)
		return 2
	}
	if err := writeHTMLReport(o, results); err != nil {
		fmt.Fprintf(stderr, "chorus check: --html: %v\n", err)
		return 2
	}
	sum := report.Summarize(results)
	sum.CPUMS = (cpuTime() - cpuStart).Milliseconds()
	if !b.quiet && (len(units) > 1 || o.format != "text") {
		writeSummaryTable(stderr, sum, time.Since(start))
	}
	return exitStatus(results, b.strictIgnores)
}

// cpuTime is the CPU time (user and system) of this process and of its
// finished children (the workers).
func cpuTime() time.Duration {
	var total time.Duration
	for _, who := range []int{syscall.RUSAGE_SELF, syscall.RUSAGE_CHILDREN} {
		var ru syscall.Rusage
		if syscall.Getrusage(who, &ru) == nil {
			total += time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		}
	}
	return total
}

// exitStatus: 2 when a file could not be read, parsed or lowered; else 1
// when a file is unknown or a check is open (unproven or violated, not
// suppressed, not in the baseline), or with --strict-ignores an ignore
// comment is unused; else 0.
func exitStatus(files []report.File, strictIgnores bool) int {
	status := 0
	for _, f := range files {
		if f.Failure == report.FailInput {
			return 2
		}
		if f.Error != "" || (strictIgnores && len(f.UnusedIgnores) > 0) {
			status = 1
		}
		for _, c := range f.Checks {
			if c.Open() {
				status = 1
			}
		}
	}
	return status
}

// analyseOne produces the report of one file: from the cache, in this
// process (inProcess), or from a worker process.
func analyseOne(o *checkOptions, u unit, cache *resultCache, stdout, stderr io.Writer) (f report.File) {
	file := u.file
	defer func() { f.Entry = u.entry }()
	var key string
	if cache != nil {
		key = cache.key(o, u)
		if f, ok := cache.get(key, file); ok {
			return f
		}
	}
	if o.inProcess() {
		out := checkUnit(o, u)
		if out.res != nil && o.invariants {
			writeInvariants(stdout, out.res)
		}
		if out.res != nil && o.dot != "" {
			if err := writeDotFile(o.dot, out.res); err != nil {
				out.err, out.inputError = err, true
			}
		}
		notes := explainOutcome(o, &out, stderr)
		f = toReport(out)
		addNotes(&f, out.res, notes)
	} else {
		f = runWorkerProcess(o, u, stdout)
	}
	if cache != nil && key != "" && f.Failure != report.FailCrash {
		cache.put(key, f)
	}
	return f
}

// ignoreReader reads and parses each source file's ignore comments once.
type ignoreReader struct{ byFile map[string][]report.Ignore }

func newIgnoreReader() *ignoreReader { return &ignoreReader{byFile: map[string][]report.Ignore{}} }

// forFile returns the ignore comments of f's file and of the files of its
// failing checks (headers).
func (r *ignoreReader) forFile(f *report.File) map[string][]report.Ignore {
	out := map[string][]report.Ignore{}
	add := func(name string) {
		if _, done := out[name]; done {
			return
		}
		igs, ok := r.byFile[name]
		if !ok {
			if data, err := os.ReadFile(name); err == nil {
				igs = report.ParseIgnores(name, data)
			}
			r.byFile[name] = igs
		}
		out[name] = igs
	}
	add(f.File)
	for _, c := range f.Checks {
		if c.Failing() {
			add(c.File)
		}
	}
	return out
}
