package main

import (
	"flag"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"
)

var corpusSpeed = flag.Bool("corpus-speed", false, "run TestCorpusSpeed (chorus check next to gcc -fsyntax-only on every SV-COMP task and DDVerify driver; minutes)")

// runTimed is one process: its wall time, CPU time (user and system, its
// waited-for children included: chorus check's worker) and peak resident
// memory (the largest of the process and those children), and whether it
// ran at all.
type runTimed struct {
	wall, cpu time.Duration
	rssKB     int64
	ok        bool
}

func timeCommand(name string, args ...string) runTimed {
	cmd := exec.Command(name, args...)
	start := time.Now()
	err := cmd.Run()
	r := runTimed{wall: time.Since(start)}
	if _, exit := err.(*exec.ExitError); err != nil && !exit {
		return r
	}
	r.ok = true
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		r.rssKB = ru.Maxrss
	}
	return r
}

func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func ratio(a, b time.Duration) float64 {
	if b <= 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// TestCorpusSpeed measures the per-file cost of chorus check (the real
// binary, -j 1, no cache: what a user pays per file, process start and
// worker included) next to gcc -fsyntax-only on the same file, one right
// after the other, so that their ratio holds on a loaded machine where the
// absolute times do not. Per SV-COMP directory (--checks assert): files,
// median wall and median CPU of each and the ratios of the medians (CPU
// is the steadier on a shared machine), CPU sums, peak memory; per DDVerify driver (ILP32, --checks bounds,overflow): wall and
// CPU of each, ratio, peak memory; totals over the drivers without
// floppy and with it. -corpus-filter narrows the files, -corpus-timeout
// bounds each chorus run. Opt-in (-corpus-speed; make bench-corpus).
// Nothing is asserted: timings live here, not in tests.
func TestCorpusSpeed(t *testing.T) {
	if !*corpusSpeed {
		t.Skip("run with -args -corpus-speed")
	}
	root := corpusRoot(t)
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("no gcc")
	}
	exe := buildChorus(t)
	timeout := corpusTimeout.String()

	type dirStats struct {
		chorus, gcc       []time.Duration // wall per file
		cpuC, cpuG        []time.Duration // CPU per file
		chorusCPU, gccCPU time.Duration
		peakKB            int64
	}
	dirs := map[string]*dirStats{}
	var allChorus, allGCC, allCPUC, allCPUG []time.Duration
	for _, tk := range readManifest(t, root) {
		path := filepath.Join(root, "svcomp", tk.dir, tk.input)
		if *corpusFilter != "" && !strings.Contains(path, *corpusFilter) {
			continue
		}
		g := timeCommand("gcc", "-fsyntax-only", "-w", path)
		c := timeCommand(exe, "check", "--no-cache", "-j", "1", "--quiet", "--checks", "assert", "--data-model", tk.dataModel, "--timeout", timeout, path)
		if !g.ok || !c.ok {
			continue
		}
		d := dirs[tk.dir]
		if d == nil {
			d = &dirStats{}
			dirs[tk.dir] = d
		}
		d.chorus = append(d.chorus, c.wall)
		d.gcc = append(d.gcc, g.wall)
		d.cpuC = append(d.cpuC, c.cpu)
		d.cpuG = append(d.cpuG, g.cpu)
		allCPUC = append(allCPUC, c.cpu)
		allCPUG = append(allCPUG, g.cpu)
		d.chorusCPU += c.cpu
		d.gccCPU += g.cpu
		d.peakKB = max(d.peakKB, c.rssKB)
		allChorus = append(allChorus, c.wall)
		allGCC = append(allGCC, g.wall)
	}
	names := make([]string, 0, len(dirs))
	for n := range dirs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		d := dirs[n]
		mc, mg := median(d.chorus), median(d.gcc)
		cc, cg := median(d.cpuC), median(d.cpuG)
		t.Logf("svcomp %-16s %4d files  median wall chorus %6.1f ms, gcc %5.1f ms, ratio %5.1fx  median CPU chorus %6.1f ms, gcc %5.1f ms, ratio %5.1fx  CPU sum chorus %6.2fs, gcc %5.2fs (%5.1fx)  peak %4d MB",
			n, len(d.chorus), ms(mc), ms(mg), ratio(mc, mg), ms(cc), ms(cg), ratio(cc, cg), d.chorusCPU.Seconds(), d.gccCPU.Seconds(), ratio(d.chorusCPU, d.gccCPU), d.peakKB>>10)
	}
	if len(allChorus) > 0 {
		mc, mg := median(allChorus), median(allGCC)
		cc, cg := median(allCPUC), median(allCPUG)
		t.Logf("svcomp all %17d files  median wall chorus %6.1f ms, gcc %5.1f ms, ratio %5.1fx  median CPU chorus %6.1f ms, gcc %5.1f ms, ratio %5.1fx",
			len(allChorus), ms(mc), ms(mg), ratio(mc, mg), ms(cc), ms(cg), ratio(cc, cg))
	}

	drivers, _ := filepath.Glob(filepath.Join(root, "ddverify", "*.c"))
	var sumC, sumG, sumCPU, sumGCPU time.Duration
	var fC, fG time.Duration
	var peak int64
	n := 0
	for _, path := range drivers {
		if *corpusFilter != "" && !strings.Contains(path, *corpusFilter) {
			continue
		}
		name := strings.TrimSuffix(filepath.Base(path), ".c")
		g := timeCommand("gcc", "-fsyntax-only", "-w", path)
		c := timeCommand(exe, "check", "--no-cache", "-j", "1", "--quiet", "--data-model", "ILP32", "--checks", "bounds,overflow", "--timeout", timeout, path)
		if !g.ok || !c.ok {
			t.Logf("driver %-16s did not run (gcc %v, chorus %v)", name, g.ok, c.ok)
			continue
		}
		t.Logf("driver %-16s chorus %7.2fs (CPU %7.2fs), gcc %5.3fs, ratio %6.1fx (CPU %6.1fx)  peak %5d MB",
			name, c.wall.Seconds(), c.cpu.Seconds(), g.wall.Seconds(), ratio(c.wall, g.wall), ratio(c.cpu, g.cpu+time.Millisecond), c.rssKB>>10)
		if name == "floppy" {
			fC, fG = c.wall, g.wall
			continue
		}
		n++
		sumC += c.wall
		sumG += g.wall
		sumCPU += c.cpu
		sumGCPU += g.cpu
		peak = max(peak, c.rssKB)
	}
	if n > 0 {
		t.Logf("drivers without floppy: %d, chorus %.1fs (CPU %.1fs), gcc %.2fs (CPU %.2fs), ratio %.1fx (CPU %.1fx), peak %d MB",
			n, sumC.Seconds(), sumCPU.Seconds(), sumG.Seconds(), sumGCPU.Seconds(), ratio(sumC, sumG), ratio(sumCPU, sumGCPU), peak>>10)
	}
	if fC > 0 {
		t.Logf("drivers with floppy: chorus %.1fs, gcc %.2fs, ratio %.1fx", (sumC + fC).Seconds(), (sumG + fG).Seconds(), ratio(sumC+fC, sumG+fG))
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
