package confirm

import (
	"os"
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
	for k := 1; k <= 3; k++ {
		start := time.Now()
		res, err := Explore(p, explore.Options{Forbidden: forbidden, MaxInstances: k, HavocMin: 0, HavocMax: 1, MaxStates: 2_000_000, Timeout: 20 * time.Second, Reduce: os.Getenv("NOPOR") == "", ForgetDead: os.Getenv("NOPOR") == ""})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("k=%d reduced=%d states=%d transitions=%d complete=%v failures=%d errors=%d deadlocks=%d (%v)", k, res.Reduced, res.States, res.Transitions, res.Complete, len(res.Failures), len(res.Errors), res.Deadlocks, time.Since(start).Round(time.Millisecond))
		for _, e := range res.Errors {
			t.Logf("  error %v", e.Event)
		}
	}
}
