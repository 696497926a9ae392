package analysis

import (
	"context"
	"path/filepath"
	"testing"

	"chorus/cfg"
	"chorus/interference"
)

// The owned-globals rule (interference/owned.go, dfg.Graph.DeadPaths) on
// its fixtures, in both domains: with it, the single worker's dead else
// branch carries no value (prec_owned_once.c, prec_owned_busy.c proven);
// without it they are not proven; two workers own nothing
// (prec_owned_twice.c stays unproven).
func TestOwnedGlobals(t *testing.T) {
	for _, c := range []struct {
		file string
		on   bool
		want Status
	}{
		{"prec_owned_once.c", true, Proven},
		{"prec_owned_once.c", false, Unproven},
		{"prec_owned_busy.c", true, Proven},
		{"prec_owned_busy.c", false, Unproven},
		{"prec_owned_twice.c", true, Unproven},
	} {
		for _, dom := range []string{"interval", "octagon"} {
			p, err := cfg.BuildFile(filepath.Join("..", "testdata", "check", c.file), cfg.Options{})
			if err != nil {
				t.Fatal(err)
			}
			// The once rule's reverse epochs (interference/once.go)
			// prove the worker's block == 1 in prec_owned_busy.c too
			// (main writes block = 0 only holding m_busy and seeing
			// busy == 0): off here, so that the test isolates owned.go.
			opts := []Option{WithDomain(dom), WithChecks(cfg.AssertCheck), WithOwnedGlobals(c.on), WithEngineOptions(interference.WithOnceRule(false))}
			res, err := Analyze(context.Background(), p, opts...)
			if err != nil {
				t.Fatal(err)
			}
			for _, chk := range res.Checks {
				if chk.Status != c.want {
					t.Errorf("%s (%s, rule %v): line %d %v, want %v", c.file, dom, c.on, chk.Check.Pos.Line, chk.Status, c.want)
				}
			}
		}
	}
}
