package analysis

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"chorus/cfg"
	"chorus/domains"
	"chorus/explore"
	"chorus/interference"
)

// The soundness oracle of DESIGN.md §6 on the C fixtures: explore every
// interleaving of up to two instances per template (small havoc range,
// state and time budgets) and require that
//   - no check the analysis proved fails in the exploration, and
//   - every value a thread sees at a location lies in the invariant there
//     (and no thread stands at a location whose invariant is ⊥).
//
// A violation is a soundness bug of the analysis (interference, solver,
// domains or the fusion rewrite, which the exploration runs on too).
func TestSoundnessOracle(t *testing.T) {
	if testing.Short() {
		t.Skip("oracle skipped with -short")
	}
	var files []string
	for _, dir := range []string{"../testdata/check", "../testdata/threads"} {
		fs, _ := filepath.Glob(filepath.Join(dir, "*.c"))
		files = append(files, fs...)
	}
	if len(files) == 0 {
		t.Skip("no fixtures")
	}
	compared, explored := 0, 0
	for _, f := range files {
		name := filepath.Base(f)
		p, err := cfg.BuildFile(f, cfg.Options{})
		if err != nil {
			t.Logf("%s: skipped, does not lower: %v", name, err)
			continue
		}
		explored, compared = oracleCheck(t, name, p, explored, compared)
	}
	t.Logf("%d programs explored, %d values compared with the invariants", explored, compared)
	if explored == 0 {
		// The explorer (cfg/interp) could not run any lowered fixture: a
		// dependency problem, reported above per file; nothing was checked.
		t.Skip("the explorer ran no fixture; the oracle checked nothing")
	}
	if compared == 0 {
		t.Errorf("the oracle compared nothing")
	}
}

// oracleCheck analyzes p with both domains, explores it once and compares;
// it returns the updated counters.
func oracleCheck(t *testing.T, name string, p *cfg.Program, explored, compared int) (int, int) {
	t.Helper()
	errs, ok, n := oracleViolations(t, name, p)
	for _, e := range errs {
		t.Error(e)
	}
	if ok {
		explored++
	}
	return explored, compared + n
}

// oracleViolations analyzes p with both domains (and opts), explores it
// once and compares: it returns the violations (at most five invariant
// violations per domain), whether the exploration ran, and the number of
// values compared.
func oracleViolations(t *testing.T, name string, p *cfg.Program, opts ...Option) (errs []string, explored bool, compared int) {
	t.Helper()
	return oracleViolationsWithin(t, name, p, time.Second, opts...)
}

// oracleViolationsWithin is oracleViolations with the exploration's time
// limit. MaxStates bounds the exploration's work; the time limit only
// guards against a runaway, so a test that must find a failure gives it a
// generous one (a loaded machine must not decide whether it is found).
func oracleViolationsWithin(t *testing.T, name string, p *cfg.Program, exploreLimit time.Duration, opts ...Option) (errs []string, explored bool, compared int) {
	t.Helper()
	results := map[string]*Result{}
	for _, dom := range []string{"interval", "octagon"} {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		res, err := Analyze(ctx, p, append([]Option{WithDomain(dom)}, opts...)...)
		cancel()
		if err != nil {
			return []string{fmt.Sprintf("%s/%s: %v", dom, name, err)}, false, 0
		}
		results[dom] = res
	}
	// p is explored after the analyses: Analyze's fusion rewrite is part
	// of what is checked.
	// The summary object <unknown> has no size, which the interpreter
	// refuses; size 0 makes any access to it a runtime error instead (as
	// package oracle does), restored afterwards.
	var patched []*cfg.Object
	for _, o := range p.Objects {
		if o.Size < 0 && (o.Kind == cfg.GlobalObject || o.Kind == cfg.StringObject) {
			o.Size = 0
			patched = append(patched, o)
		}
	}
	ex, err := explore.Explore(p, explore.Options{MaxInstances: 2, HavocMin: -2, HavocMax: 3, MaxStates: 20000, Timeout: exploreLimit, KeepDeadEnds: true})
	for _, o := range patched {
		o.Size = -1
	}
	if err != nil {
		t.Logf("%s: explorer: %v", name, err)
		return nil, false, 0
	}
	explored = true
	for dom, res := range results {
		name := dom + "/" + name
		proven := map[*cfg.Check]bool{}
		for _, c := range res.Checks {
			if c.Status == Proven || c.Status == Unreachable {
				proven[c.Check] = true
			}
		}
		for _, fl := range ex.Failures {
			if fl.Event.Check != nil && proven[fl.Event.Check] {
				errs = append(errs, fmt.Sprintf("%s: UNSOUND: check %s at line %d proven/unreachable, but fails: %v", name, fl.Event.Check.Msg, fl.Event.Check.Pos.Line, fl.Event))
			}
		}
		bad := 0
		for _, l := range p.Locs {
			views := ex.Views[l.ID]
			if len(views) == 0 {
				continue
			}
			st := res.Solver.At(l)
			if st.IsBottom() {
				errs = append(errs, fmt.Sprintf("%s: UNSOUND: %s (line %d) is ⊥ but reached", name, l, l.Pos.Line))
				continue
			}
			vars := ex.Vars[l.Template.ID]
			for _, v := range views {
				for i, x := range v.Values {
					if i >= len(vars) || !vars[i].Type.IsInt() || x.IsPointer() || x.Big != nil {
						continue
					}
					if vars[i].Type.Bits == 64 && !vars[i].Type.Signed && x.N < 0 {
						continue
					}
					iv := st.Interval(vars[i])
					compared++
					if !contains(iv, x.N) && bad < 5 {
						bad++
						errs = append(errs, fmt.Sprintf("%s: UNSOUND: at %s (line %d) %s = %d outside %v", name, l, l.Pos.Line, vars[i].Name, x.N, iv))
					}
				}
			}
		}
	}
	return errs, explored, compared
}

// TestOracleCatchesMutations: each deliberate breakage of a precision rule
// makes the oracle report a violation on the fixture written for it (the
// unmutated analysis is clean there: TestSoundnessOracle).
func TestOracleCatchesMutations(t *testing.T) {
	if testing.Short() {
		t.Skip("oracle skipped with -short")
	}
	cases := []struct {
		fixture  string
		mutation Option
		build    cfg.Options // a frontend mutation instead
	}{
		{"lock_protected_counter.c", WithoutLockRelays(), cfg.Options{}},
		{"join_sequential.c", WithoutLockRelays(), cfg.Options{}}, // the join relays too
		{"mixed_cell_race.c", WithoutMixedForget(), cfg.Options{}},
		{"monotone_broken.c", WithoutMonotoneCheck(), cfg.Options{}},
		{"prec_bounded_producer_two.c", WithoutMonotoneSingleInstanceCheck(), cfg.Options{}},
		{"atomic_lock_stolen.c", WithoutCustomReleaseCheck(), cfg.Options{}},
		{"prec_tas_lock_thief.c", WithoutCustomReleaseCheck(), cfg.Options{}}, // a test-and-set lock (cfg/taslock.go)
		{"join_site_in_loop.c", WithoutSpawnClassCheck(), cfg.Options{}},
		{"join_then_spawn.c", WithoutJoinRelayIntoThreads(), cfg.Options{}},
		{"join_all_partial.c", nil, cfg.Options{UnsoundJoinAllBounds: true}},
		{"join_after_early_write.c", WithoutJoinAfterFinishedCheck(), cfg.Options{}},
		{"prec_diseq_zero_write.c", WithoutHoleJoinCheck(), cfg.Options{}},
		{"prec_diffhole_race.c", WithoutDiffHoleKill(), cfg.Options{}},                                  // domains/diffholes.go
		{"prec_publish_noset.c", WithoutPublishSetterCheck(), cfg.Options{}},                            // dfg/publish.go
		{"prec_lockpair_double.c", WithoutCounterLockCheck(), cfg.Options{}},                            // counter bounds (interference/counter.go)
		{"prec_lockpair_flag_global.c", WithoutLocalFlagCheck(), cfg.Options{}},                         // trylock flags (interference/lockset.go)
		{"prec_lockpair_mixed_own.c", WithoutReaderRelayCheck(), cfg.Options{}},                         // reader relays (dfg/readrelay.go)
		{"prec_once_reader.c", bothOptions(WithoutOnceOwnWrite(), withoutPublishRule()), cfg.Options{}}, // interference/once.go (dfg/publish.go would mask it)
		{"prec_once_unlocked.c", WithoutOnceLockProtection(), cfg.Options{}},
		{"prec_once_flagpath.c", WithoutFlagPathsUnknownCheck(), cfg.Options{}},                                   // dfg/flagpath.go
		{"prec_readerkill_late.c", bothOptions(WithoutReaderKillDefCheck(), withoutPublishRule()), cfg.Options{}}, // interference/readerkill.go (dfg/publish.go would mask it)
		{"prec_handoff_late.c", WithoutHandoffWriteCheck(), cfg.Options{}},                                        // interference/handoff.go
		{"prec_owned_twice.c", WithoutOwnedInstanceCheck(), cfg.Options{}},                                        // interference/owned.go
		{"prec_counter_loop.c", WithoutCounterInstanceCheck(), cfg.Options{}},                                     // interference/counter.go (instanceBounds)
		{"prec_stable_rogue.c", WithoutStableGlobalsCheck(), cfg.Options{}},                                       // dfg/stable.go
		{"prec_oneway_reset.c", WithoutOneWayCheck(), cfg.Options{}},                                              // interference/oneway.go
		{"prec_once_reverse_reset.c", WithoutOnceReverseP1(), cfg.Options{}},                                      // once.go's reverse rule
	}
	for _, c := range cases {
		p, err := cfg.BuildFile(filepath.Join("..", "testdata", "check", c.fixture), c.build)
		if err != nil {
			t.Fatal(err)
		}
		var opts []Option
		if c.mutation != nil {
			opts = append(opts, c.mutation)
		}
		errs, explored, _ := oracleViolationsWithin(t, c.fixture, p, time.Minute, opts...)
		if !explored {
			t.Fatalf("%s: not explored", c.fixture)
		}
		if len(errs) == 0 {
			t.Errorf("%s: the mutation was not caught", c.fixture)
		} else {
			t.Logf("%s: caught: %s", c.fixture, errs[0])
		}
	}
}

// bothOptions applies a then b.
func bothOptions(a, b Option) Option { return func(c *config) { a(c); b(c) } }

func contains(iv domains.Interval, n int64) bool {
	if iv.Lo.Inf > 0 || iv.Hi.Inf < 0 {
		return false
	}
	if iv.Lo.Inf == 0 && n < iv.Lo.V {
		return false
	}
	if iv.Hi.Inf == 0 && n > iv.Hi.V {
		return false
	}
	return true
}

// The oracle on the hand-made IR programs (independent of the frontend).
func TestSoundnessOracleHandMade(t *testing.T) {
	if testing.Short() {
		t.Skip("oracle skipped with -short")
	}
	progs := map[string]func() *cfg.Program{
		"appendix_a":        func() *cfg.Program { p, _ := appendixA(false, false); return p },
		"appendix_a_nolock": func() *cfg.Program { p, _ := appendixA(true, false); return p },
		"appendix_a_nowait": func() *cfg.Program { p, _ := appendixA(false, true); return p },
		"figure2":           func() *cfg.Program { p, _, _ := figure2(); return p },
	}
	explored, compared := 0, 0
	for name, mk := range progs {
		explored, compared = oracleCheck(t, name, mk(), explored, compared)
	}
	t.Logf("%d programs explored, %d values compared", explored, compared)
	if explored != len(progs) || compared == 0 {
		t.Errorf("explored %d of %d programs, compared %d values", explored, len(progs), compared)
	}
}

// The join-after rule (interference.WithJoinAfterRule, off by default):
// on, it proves the worker's read in join_after_write.c (main writes only
// after the worker finished) and keeps the two unsafe variants unproven;
// the oracle finds no violation on any of them with the rule on.
func TestJoinAfterRule(t *testing.T) {
	if testing.Short() {
		t.Skip("oracle skipped with -short")
	}
	want := map[string]Status{
		"join_after_write.c":       Proven,
		"join_after_respawn.c":     Unproven,
		"join_after_early_write.c": Unproven,
	}
	rule := WithEngineOptions(interference.WithJoinAfterRule(true))
	for fixture, status := range want {
		p, err := cfg.BuildFile(filepath.Join("..", "testdata", "check", fixture), cfg.Options{})
		if err != nil {
			t.Fatal(err)
		}
		res, err := Analyze(context.Background(), p, rule)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, c := range res.Checks {
			if c.Check.Func == "worker" {
				found = true
				if c.Status != status {
					t.Errorf("%s: worker's check is %v with the join-after rule, want %v", fixture, c.Status, status)
				}
			}
		}
		if !found {
			t.Errorf("%s: no check in worker", fixture)
		}
		p, err = cfg.BuildFile(filepath.Join("..", "testdata", "check", fixture), cfg.Options{})
		if err != nil {
			t.Fatal(err)
		}
		errs, explored, _ := oracleViolationsWithin(t, fixture, p, time.Minute, rule)
		if !explored || len(errs) > 0 {
			t.Errorf("%s with the join-after rule: explored %v, violations %v", fixture, explored, errs)
		}
	}
}
