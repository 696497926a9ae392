package confirm

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"chorus/cfg"
	"chorus/explore"
)

// TestDebugFile explores the file named by CHORUS_CONFIRM_FILE (ILP32)
// and logs every round's statistics; skipped without it.
func TestDebugFile(t *testing.T) {
	file := os.Getenv("CHORUS_CONFIRM_FILE")
	if file == "" {
		t.Skip("set CHORUS_CONFIRM_FILE")
	}
	p, err := cfg.BuildFile(file, cfg.Options{DataModel: cfg.ILP32})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range p.Assumptions {
		t.Logf("assumption %v: %s", a.Pos, a.Msg)
	}
	forbidden, ok := untrustedLocs(p)
	t.Logf("assumptions fenced: %v", ok)
	maxK := 3
	if v, err := strconv.Atoi(os.Getenv("CHORUS_CONFIRM_K")); err == nil {
		maxK = v
	}
	for k := 1; k <= maxK; k++ {
		start := time.Now()
		res, err := Explore(p, explore.Options{DepthFirst: os.Getenv("DFS") != "", LazyStart: os.Getenv("LAZY") != "", Exclusive: doomedLocs(p), Forbidden: forbidden, MaxInstances: k, HavocMin: 0, HavocMax: 1, MaxStates: 5_000_000, Timeout: debugTimeout(), Reduce: os.Getenv("NOPOR") == "", ForgetDead: os.Getenv("NOPOR") == "", Stop: func(explore.Failure) bool { return os.Getenv("CHORUS_STOP") != "" }})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("k=%d reduced=%d states=%d transitions=%d complete=%v failures=%d errors=%d deadlocks=%d (%v)", k, res.Reduced, res.States, res.Transitions, res.Complete, len(res.Failures), len(res.Errors), res.Deadlocks, time.Since(start).Round(time.Millisecond))
		for _, e := range res.Errors {
			t.Logf("  error %v", e.Event)
		}
	}
}

// TestDebugConfirm runs Confirm on CHORUS_CONFIRM_FILE (ILP32) and logs
// every counterexample; skipped without it.
func TestDebugConfirm(t *testing.T) {
	file := os.Getenv("CHORUS_CONFIRM_FILE")
	if file == "" {
		t.Skip("set CHORUS_CONFIRM_FILE")
	}
	p, err := cfg.BuildFile(file, cfg.Options{DataModel: cfg.ILP32})
	if err != nil {
		t.Fatal(err)
	}
	var asserts []*cfg.Check
	for _, c := range p.Checks {
		if c.Kind == cfg.AssertCheck {
			asserts = append(asserts, c)
		}
	}
	cex, err := Confirm(context.Background(), p, asserts, 3, Budget{Timeout: 20 * time.Second})
	t.Logf("violated=%d err=%v", len(cex), err)
	for c, x := range cex {
		t.Logf("check %v (k=%d havoc %d..%d):", c.Pos, x.Instances, x.HavocMin, x.HavocMax)
		if dir := os.Getenv("CHORUS_REPLAY_DIR"); dir != "" {
			code, err := ReplayC(p, x)
			if err != nil {
				t.Logf("replay: %v", err)
			} else {
				os.WriteFile(fmt.Sprintf("%s/%s.%d.c", dir, filepath.Base(file), c.Pos.Line), code, 0o644)
			}
		}
		if os.Getenv("CHORUS_QUIET") != "" {
			continue
		}
		for _, s := range x.Schedule {
			t.Logf("  T%d %d:%d %T %v", s.Thread, s.Pos.Line, s.Pos.Column, s.Loc.Act, s.Value)
		}
	}
}

func debugTimeout() time.Duration {
	if d, err := time.ParseDuration(os.Getenv("CHORUS_CONFIRM_TIMEOUT")); err == nil {
		return d
	}
	return 60 * time.Second
}
