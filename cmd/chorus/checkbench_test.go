package main

import (
	"path/filepath"
	"runtime/debug"
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
