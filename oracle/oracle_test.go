package oracle

import (
	"chorus/analysis"
	"chorus/dfg"
	"context"
	"strings"
	"testing"

	"chorus/cfg"
	"chorus/oracle/gen"
)

// The fixed seed range of the package test; cmd/oracle runs any range.
const (
	firstSeed = 100
	nSeeds    = 40
)

func testConfig(m Mutation, n int) Config {
	return Config{N: n, Seed: firstSeed, K: 2, MaxStates: 30_000, Workers: 2, Mutation: m}
}

// TestOracleEveryHub: the oracle also passes with the machinery of large
// programs switched on everywhere: every block of interference edges goes
// through a dfg hub, and the solver iterates in the linear-time DFS order
// instead of Bourdoncle's (by default both only apply to large graphs,
// which the small generated programs never are).
func TestOracleEveryHub(t *testing.T) {
	if testing.Short() {
		t.Skip("oracle run")
	}
	c := testConfig(NoMutation, nSeeds/2)
	c.Analysis = []analysis.Option{analysis.WithEveryHub(), analysis.WithSolverOptions(dfg.WithOrderThreshold(0))}
	rep := Run(context.Background(), c)
	if rep.ComparedViews == 0 {
		t.Fatalf("nothing compared: %s", rep.Summary())
	}
	for _, v := range rep.Violations {
		t.Errorf("%v\n%s", v, v.Source)
	}
}

// TestOracle: the unmutated analysis has no violation on the fixed seeds,
// and the explorer really explored something.
func TestOracle(t *testing.T) {
	if testing.Short() {
		t.Skip("oracle run")
	}
	rep := Run(context.Background(), testConfig(NoMutation, nSeeds))
	t.Logf("%s compared_views=%d runtime_errors=%d", rep.Summary(), rep.ComparedViews, rep.RuntimeErrors)
	if rep.Programs != nSeeds || rep.ExploredStates < 10*nSeeds || rep.ComparedViews == 0 {
		t.Fatalf("too little explored: %s", rep.Summary())
	}
	for _, v := range rep.Violations {
		t.Errorf("%v\n%s", v, v.Source)
	}
}

// TestMutations: each deliberate breakage makes the oracle find a
// violation on a seed where the unmutated analysis has none, and a state
// violation comes with a schedule ending at its location.
func TestMutations(t *testing.T) {
	if testing.Short() {
		t.Skip("oracle run")
	}
	const n = 15
	clean := map[int64]bool{}
	base := testConfig(NoMutation, n)
	base.Progress = func(pr ProgramResult) { clean[pr.Seed] = len(pr.Violations) == 0 }
	Run(context.Background(), base)
	for _, m := range []Mutation{DropInterference, AtomicCriticalSections} {
		c := testConfig(m, n)
		rep := Run(context.Background(), c)
		caught := 0
		var withSchedule *Violation
		for _, v := range rep.Violations {
			if clean[v.Seed] {
				caught++
			}
			if v.Kind == "invariant" && len(v.Schedule) > 0 && withSchedule == nil {
				withSchedule = v
			}
		}
		t.Logf("mutation %s: %s", m, rep.Summary())
		if caught == 0 {
			t.Errorf("mutation %s not caught on seeds %d..%d", m, firstSeed, firstSeed+n-1)
			continue
		}
		if withSchedule == nil {
			t.Errorf("mutation %s: no invariant violation with a schedule", m)
			continue
		}
		last := withSchedule.Schedule[len(withSchedule.Schedule)-1]
		want := strings.TrimSuffix(withSchedule.Pos.String(), ":0")
		if !strings.Contains(last, want[strings.LastIndex(want, "/")+1:]) {
			t.Errorf("mutation %s: schedule ends at %q, violation at %s", m, last, withSchedule.Pos)
		}
	}
}

// TestAtomicRMWApplies: the read-modify-write mutation finds and wraps
// x++ on globals and keeps the IR well formed. (On the generated
// programs it is not caught: see the package comment.)
func TestAtomicRMWApplies(t *testing.T) {
	wrapped := 0
	for seed := int64(firstSeed); seed < firstSeed+10; seed++ {
		p, err := lower("x.c", gen.Generate(seed, gen.Options{}).C(), false)
		if err != nil {
			t.Fatal(err)
		}
		n := len(p.Locs)
		k := MakeRMWAtomic(p)
		wrapped += k
		if len(p.Locs) != n+2*k {
			t.Errorf("seed %d: %d wraps added %d locations", seed, k, len(p.Locs)-n)
		}
		if err := cfg.Sanity(p); err != nil {
			t.Errorf("seed %d: mutated IR: %v", seed, err)
		}
		q, _ := lower("x.c", gen.Generate(seed, gen.Options{}).C(), false)
		MakeCriticalSectionsAtomic(q)
		if err := cfg.Sanity(q); err != nil {
			t.Errorf("seed %d: critical sections: %v", seed, err)
		}
	}
	if wrapped == 0 {
		t.Error("no read-modify-write found in 10 programs")
	}
}

// TestOracleCalls: programs whose main and threads call helper functions
// with different arguments (gen.Options.Calls), lowered with shared bodies
// on odd seeds and inlined on even ones, have no violation; and the
// mutation that drops the edges from shared bodies back to their return
// sites is caught on a seed where the unmutated analysis is clean.
func TestOracleCalls(t *testing.T) {
	if testing.Short() {
		t.Skip("oracle run")
	}
	const n = 30
	c := testConfig(NoMutation, n)
	c.Gen.Calls = 2
	clean := map[int64]bool{}
	c.Progress = func(pr ProgramResult) { clean[pr.Seed] = len(pr.Violations) == 0 }
	rep := Run(context.Background(), c)
	t.Logf("%s compared_views=%d", rep.Summary(), rep.ComparedViews)
	if rep.ComparedViews == 0 {
		t.Fatalf("nothing compared: %s", rep.Summary())
	}
	for _, v := range rep.Violations {
		t.Errorf("%v\n%s", v, v.Source)
	}
	shared := 0
	for seed := int64(firstSeed); seed < firstSeed+n; seed++ {
		if !SharesCalls(seed) {
			continue
		}
		p, err := lower("x.c", gen.Generate(seed, c.Gen).C(), true)
		if err != nil {
			t.Fatal(err)
		}
		shared += len(p.Bodies)
	}
	if shared == 0 {
		t.Fatalf("no shared body in the odd seeds")
	}
	m := c
	m.Mutation = DropReturns
	m.Progress = nil
	mrep := Run(context.Background(), m)
	caught := 0
	for _, v := range mrep.Violations {
		if clean[v.Seed] && SharesCalls(v.Seed) {
			caught++
		}
	}
	t.Logf("mutation %s: %s", DropReturns, mrep.Summary())
	if caught == 0 {
		t.Errorf("mutation %s not caught on seeds %d..%d", DropReturns, firstSeed, firstSeed+n-1)
	}
}

// TestOracleJoins: with gen.Options.Joins some join loops stop short of
// their spawn loops. Among seeds 100..199 there are both join loops the
// frontend records as join-alls (cfg/joinall.go) and short ones it
// refuses (it takes them only without the bounds comparison,
// cfg.Options.UnsoundJoinAllBounds); the oracle finds no violation on
// the seeds that have either.
func TestOracleJoins(t *testing.T) {
	if testing.Short() {
		t.Skip("oracle run")
	}
	c := testConfig(NoMutation, 1)
	c.Gen.Joins = true
	full, short := 0, 0
	var seeds []int64
	for seed := int64(firstSeed); seed < firstSeed+100; seed++ {
		src := gen.Generate(seed, c.Gen).C()
		p, err := lowerWith("x.c", src, cfg.Options{})
		if err != nil {
			t.Fatal(err)
		}
		q, err := lowerWith("x.c", src, cfg.Options{UnsoundJoinAllBounds: true})
		if err != nil {
			t.Fatal(err)
		}
		full += len(p.JoinAlls)
		short += len(q.JoinAlls) - len(p.JoinAlls)
		if len(q.JoinAlls) > 0 {
			seeds = append(seeds, seed)
		}
	}
	t.Logf("join-all loops: %d recorded, %d short ones refused, on seeds %v", full, short, seeds)
	if full == 0 || short == 0 {
		t.Fatalf("%d join-all loops, %d short join loops; want both", full, short)
	}
	for _, seed := range seeds {
		c.Seed = seed
		rep := Run(context.Background(), c)
		for _, v := range rep.Violations {
			t.Errorf("%v\n%s", v, v.Source)
		}
	}
}
