package analysis

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"chorus/cfg"
)

var sliceMax = flag.Int("slice-max", 0, "TestSliceTiming: at most this many slices per file (0: all)")

var sliceOnly = flag.String("slice-only", "", "TestSliceTiming: only checks whose file:line contains this")

var sliceDrivers = flag.String("slice-drivers", "", "glob of C files: time the slices of every unproven check against the analysis (TestSliceTiming)")

// TestSliceTiming measures, per file, the analysis time and the time to
// compute the slice of every unproven check (issue 16: explaining must
// cost well under analysing). Off unless -slice-drivers is given, e.g.
//
//	go test ./analysis -run SliceTiming -v -timeout 60m -args -slice-drivers '../../shared/corpus/ddverify/*.c'
func TestSliceTiming(t *testing.T) {
	if *sliceDrivers == "" {
		t.Skip("no -slice-drivers")
	}
	files, _ := filepath.Glob(*sliceDrivers)
	for _, f := range files {
		p, err := cfg.BuildFile(f, cfg.Options{})
		if err != nil {
			t.Logf("%s: %v", filepath.Base(f), err)
			continue
		}
		t0 := time.Now()
		res, err := Analyze(context.Background(), p)
		if err != nil {
			t.Logf("%s: %v", filepath.Base(f), err)
			continue
		}
		analysis := time.Since(t0)
		var n, nodes, truncated int
		var total, worst time.Duration
		for _, c := range res.Checks {
			if c.Status != Unproven || (*sliceMax > 0 && n >= *sliceMax) {
				continue
			}
			if *sliceOnly != "" && !strings.Contains(fmt.Sprintf("%s:%d", c.Check.Pos.Filename, c.Check.Pos.Line), *sliceOnly) {
				continue
			}
			t1 := time.Now()
			sl := res.Slice(c)
			d := time.Since(t1)
			if d > time.Second {
				t.Logf("  slow slice: %s:%d %v", c.Check.Pos.Filename, c.Check.Pos.Line, d)
			}
			total += d
			worst = max(worst, d)
			if sl != nil {
				n++
				nodes += len(sl.Nodes)
				if sl.Truncated {
					truncated++
				}
			}
		}
		t.Logf("%-20s analysis %8v  slices %4d in %8v (worst %8v, %.1f statements avg, %d truncated)",
			filepath.Base(f), analysis.Round(time.Millisecond), n, total.Round(time.Millisecond), worst.Round(time.Millisecond),
			float64(nodes)/float64(max(n, 1)), truncated)
	}
}
