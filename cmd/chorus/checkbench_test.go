package main

import (
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"time"
)

// BenchmarkCheckSVCOMP analyses the SV-COMP unreach-call tasks of a
// typical cost in this process (--checks assert, octagons, GOGC as a
// worker starts): the per-file cost without the processes, to profile
// (-cpuprofile) what lowering and the analysis of a small file spend on.
func BenchmarkCheckSVCOMP(b *testing.B) {
	root := corpusRoot(b)
	tasks := readManifest(b, root)
	defer debug.SetGCPercent(debug.SetGCPercent(smallHeapGCPercent))
	check := func(tk svcompTask) {
		o := &checkOptions{domain: "octagon", dataModel: tk.dataModel, maxRounds: 200}
		o.kinds = append(o.kinds, checkKindNames["assert"])
		checkFile(o, filepath.Join(root, "svcomp", tk.dir, tk.input))
	}
	// The files of a typical cost: the slowest third (the analysis of a
	// few large tasks) would hide the per-file overhead.
	var small []svcompTask
	for _, tk := range tasks {
		start := time.Now()
		check(tk)
		if time.Since(start) < 40*time.Millisecond {
			small = append(small, tk)
		}
	}
	b.Logf("%d of %d files", len(small), len(tasks))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, tk := range small {
			check(tk)
		}
	}
}

// BenchmarkCheckDDVerify analyses the DDVerify drivers but floppy in this
// process as the bulk command's workers do (bounds and overflow, ILP32,
// GOGC as a worker starts): to profile (-cpuprofile) where a driver's time
// goes without the worker processes. -args -corpus-filter NAME picks one.
func BenchmarkCheckDDVerify(b *testing.B) {
	root := corpusRoot(b)
	files, _ := filepath.Glob(filepath.Join(root, "ddverify", "*.c"))
	var drivers []string
	for _, f := range files {
		if filepath.Base(f) != "floppy.c" && (*corpusFilter == "" || strings.Contains(f, *corpusFilter)) {
			drivers = append(drivers, f)
		}
	}
	if len(drivers) == 0 {
		b.Skip("no ddverify drivers")
	}
	defer debug.SetGCPercent(debug.SetGCPercent(smallHeapGCPercent))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, f := range drivers {
			o := &checkOptions{domain: "interval", dataModel: "ILP32", maxRounds: 200}
			o.kinds = append(o.kinds, checkKindNames["bounds"], checkKindNames["overflow"])
			if out := checkFile(o, f); out.err != nil {
				b.Fatalf("%s: %v", f, out.err)
			}
		}
	}
}
