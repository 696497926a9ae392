package analysis

import (
	"context"
	"path/filepath"
	"testing"

	"chorus/cfg"
)

// The pair-position budget (gamebudget.go): the small hand-made programs
// stay within the default budget (their games keep pairs), a budget of one
// position makes every round flow-insensitive from the first one, and no
// budget leaves the engine's choice alone. A budget that did not take
// effect, or one that caught small programs, fails here.
func TestMaxPairPositionsPicksTheGame(t *testing.T) {
	progs := map[string]func() *cfg.Program{
		"appendix_a": func() *cfg.Program { p, _ := appendixA(false, false); return p },
		"figure2":    func() *cfg.Program { p, _, _ := figure2(); return p },
	}
	for name, mk := range progs {
		for _, tc := range []struct {
			opts []Option
			flat bool
		}{
			{nil, false},
			{[]Option{WithMaxPairPositions(0)}, false},
			{[]Option{WithMaxPairPositions(1)}, true},
		} {
			res, err := Analyze(context.Background(), mk(), tc.opts...)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Stats.Rounds) == 0 {
				t.Fatalf("%s: no rounds", name)
			}
			for i, r := range res.Stats.Rounds {
				if got := r.Game == "flow-insensitive"; got != tc.flat {
					t.Errorf("%s with %d options: round %d played %q, want flow-insensitive %v", name, len(tc.opts), i+1, r.Game, tc.flat)
				}
			}
		}
	}
}

// The soundness oracle (oracle_test.go) with every program over its
// pair-position budget, so that the flow-insensitive game is played from
// the first round: on the hand-made programs and the thread fixtures no
// proven check fails and every explored value lies in its invariant.
func TestSoundnessOracleFlowInsensitiveStart(t *testing.T) {
	if testing.Short() {
		t.Skip("oracle skipped with -short")
	}
	progs := map[string]*cfg.Program{}
	progs["appendix_a"], _ = appendixA(false, false)
	progs["appendix_a_nolock"], _ = appendixA(true, false)
	progs["figure2"], _, _ = figure2()
	files, _ := filepath.Glob("../testdata/threads/*.c")
	for _, f := range files {
		p, err := cfg.BuildFile(f, cfg.Options{})
		if err != nil {
			t.Logf("%s: skipped, does not lower: %v", f, err)
			continue
		}
		progs[filepath.Base(f)] = p
	}
	explored, compared := 0, 0
	for name, p := range progs {
		errs, ok, n := oracleViolations(t, name, p, WithMaxPairPositions(1))
		for _, e := range errs {
			t.Error(e)
		}
		if ok {
			explored++
		}
		compared += n
	}
	t.Logf("%d programs explored, %d values compared", explored, compared)
	if explored == 0 || compared == 0 {
		t.Errorf("the oracle checked nothing (explored %d, compared %d)", explored, compared)
	}
}
