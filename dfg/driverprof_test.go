package dfg_test

import (
	"context"
	"os"
	"testing"
	"time"

	"chorus/analysis"
	"chorus/cfg"
)

// TestDriverProfile runs the whole analysis on the driver named by
// CHORUS_PROFILE_DRIVER (a path), for profiling the solver with
// `go test -cpuprofile`; skipped unless the variable is set.
func TestDriverProfile(t *testing.T) {
	path := os.Getenv("CHORUS_PROFILE_DRIVER")
	if path == "" {
		t.Skip("CHORUS_PROFILE_DRIVER not set")
	}
	p, err := cfg.BuildFile(path, cfg.Options{DataModel: cfg.ILP32})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	start := time.Now()
	res, err := analysis.Analyze(ctx, p, analysis.WithChecks(cfg.BoundsCheck, cfg.OverflowCheck))
	t.Logf("locs=%d elapsed=%v err=%v", len(p.Locs), time.Since(start), err)
	if err != nil {
		return
	}
	st := res.Solver.Stats()
	t.Logf("rounds=%d solve=%v interference=%v stats=%+v", len(res.Stats.Rounds), res.Stats.Solve, res.Stats.Interference, st)
}
