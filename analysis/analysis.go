// Package analysis runs the outer loop of DESIGN.md §4 on one lowered
// program: build the sequential data flow graph (package dfg), then
// alternate solving the invariants and deducing interference edges
// (package interference) until no new edge appears, and finally decide
// every selected check site from the final invariants.
//
// It owns analysis/ only, does no I/O and prints nothing; the command
// (cmd/chorus) owns files, formats and exit codes.
//
//	DF := sequential edges;  C := observable conditions
//	repeat
//	    Φ  := solve(DF)                       -- domains, widening
//	    Φ̂  := abstract(Φ, C)                  -- Z3
//	    DF' := DF ∪ edges from the rules
//	until DF' = DF
//	check every check site v:  Φ(v) ⊨ c ?  proven : unproven    (Φ(v) = ⊥: unreachable)
//
// Termination: DF only grows, inside the finite set of possible edges; a
// round limit (WithMaxRounds) turns a runaway into an error, never into a
// result. Soundness: the result is read only at the fixpoint, where DF is
// closed under the rules evaluated with the final Φ; an error or a
// cancelled context yields no statuses at all (callers report the file
// as unknown), so a partial run can never make a check proven.
package analysis

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"chorus/cfg"
	"chorus/dfg"
	"chorus/domains"
	"chorus/interference"
)

// Status is a check's result: dfg.Proven, dfg.Unreachable or dfg.Unproven.
type Status = dfg.Status

// The statuses.
const (
	Proven      = dfg.Proven
	Unreachable = dfg.Unreachable
	Unproven    = dfg.Unproven
)

// AllChecks lists every check kind.
var AllChecks = []cfg.CheckKind{cfg.AssertCheck, cfg.BoundsCheck, cfg.OverflowCheck, cfg.DivByZeroCheck, cfg.ShiftCheck}

type config struct {
	domain     string
	checks     map[cfg.CheckKind]bool
	relational *bool
	maxRounds  int
	noFusion   bool
	noHubs     bool
	// edgeLists: the engine's rounds as edge lists, grouped here
	// (withEdgeLists: the computation before RoundTargets, for the test
	// that compares the two).
	edgeLists  bool
	noMonotone bool
	onRound    func(Round)
	forceHubs  bool // tests: a hub for every block of edges
	engineOpts []interference.Option
	solverOpts []dfg.Option
	mutation   mutationHooks // test-only breakages (mutation_test_hooks.go)
	noOwned    bool          // WithOwnedGlobals(false) (dropedges.go)
	// maxPairPositions: WithMaxPairPositions (gamebudget.go).
	maxPairPositions int
}

// Option configures Analyze.
type Option func(*config)

// WithDomain selects the abstract domain: "interval" (default) or "octagon".
func WithDomain(name string) Option { return func(c *config) { c.domain = name } }

// WithChecks selects the check kinds to decide (default: all). Checks of
// other kinds are not reported; like every check they are still assumed
// to hold on the paths that continue past them (cfg's contract).
func WithChecks(kinds ...cfg.CheckKind) Option {
	return func(c *config) {
		c.checks = map[cfg.CheckKind]bool{}
		for _, k := range kinds {
			c.checks[k] = true
		}
	}
}

// WithRelational groups variables into relational cells (DESIGN.md §3).
// Default: relational with octagons, not with intervals.
func WithRelational(on bool) Option { return func(c *config) { c.relational = &on } }

// WithMonotone enables (default, relational mode only) or disables the
// monotone globals of monotone.go.
func WithMonotone(on bool) Option { return func(c *config) { c.noMonotone = !on } }

// WithMaxRounds bounds the rounds of the outer loop (default 200);
// exceeding it is an error.
func WithMaxRounds(n int) Option { return func(c *config) { c.maxRounds = n } }

// WithFusion enables (default) or disables the rewrite of "t := g;
// assume(c(t))" into "skip; assume(c(g))" (see fuse.go). Analyze applies
// it to p in place.
func WithFusion(on bool) Option { return func(c *config) { c.noFusion = !on } }

// WithHubs routes large blocks of interference edges (many writers of a
// cell reaching many readers) through dfg hubs (default on): same
// invariants, far fewer edges on large programs.
func WithHubs(on bool) Option { return func(c *config) { c.noHubs = !on } }

// WithRoundHook calls f after every round of the outer loop (progress
// reports, profiling of large programs).
func WithRoundHook(f func(Round)) Option { return func(c *config) { c.onRound = f } }

// WithEngineOptions passes options to the interference engine.
func WithEngineOptions(opts ...interference.Option) Option {
	return func(c *config) { c.engineOpts = append(c.engineOpts, opts...) }
}

// WithSolverOptions passes options to the dfg solver.
func WithSolverOptions(opts ...dfg.Option) Option {
	return func(c *config) { c.solverOpts = append(c.solverOpts, opts...) }
}

// ErrRoundLimit is wrapped by the error of a run that exceeded its rounds.
var ErrRoundLimit = errors.New("analysis: round limit exceeded")

// CheckResult is the verdict on one check site.
type CheckResult struct {
	Check   *cfg.Check
	Status  Status
	Message string // the invariant at the site (variables' intervals), or why it is unreachable
	// Interference lists, for an unproven check, the interference edges
	// into the site for cells the check reads (the cross-thread values the
	// invariant there includes). Analyze leaves it nil: the list is built
	// when asked for (Result.InterferenceOf, Result.Writes), one check at
	// a time, since on the largest drivers the lists of all unproven
	// checks, expanded from hubs, did not fit in memory together.
	Interference []dfg.Edge
}

// InterferenceOf returns c.Interference, or, when it is nil and c is
// unproven, the list interferenceInto builds from the final graph (not
// kept: the caller holds the only copy).
func (r *Result) InterferenceOf(c CheckResult) []dfg.Edge {
	if c.Interference != nil || c.Status != Unproven || c.Check == nil || c.Check.Loc == nil || r.Graph == nil {
		return c.Interference
	}
	return interferenceInto(r.Graph, c.Check.Loc)
}

// Round describes one round of the outer loop.
type Round struct {
	NewEdges     int // interference edges added to the DFG
	Pairs, Flows int // game facts after the round
	Z3Queries    int
	Signatures   int
	// SignaturesKept: positions whose signature the engine kept, their
	// solver stamps unchanged (interference.StampedInvariants).
	SignaturesKept int
	// ConditionsKept: single condition answers kept where a signature was
	// evaluated again (interference.CondStampedInvariants).
	ConditionsKept int
	// TruthByValue, TruthByProjection, TruthEvaluated: how the truth memo
	// answered the value part of the engine's conditions this round (the
	// same value objects, the same projection onto the condition's
	// variables (interval domain), or evaluated; dfg.TruthMemo).
	TruthByValue, TruthByProjection, TruthEvaluated int
	Solve, Engine                                   time.Duration
	// Evaluations, Widenings: the solver's work in this round's Solve.
	Evaluations, Widenings, EdgeVisits int
	Game                               string // "exact", "coarse" or "flow-insensitive" (see package interference)
}

// Stats describes a run.
type Stats struct {
	Locations     int
	GamePositions int
	Conditions    int
	Locks         int
	FusedLoads    int // condition loads fused into their assumes (fuse.go)
	Monotone      int // globals used as monotone (monotone.go)
	// Game is the interference game of the last round: "exact", or a
	// fallback for programs too large for it, "coarse" or
	// "flow-insensitive" (less precise, equally sound).
	Game string
	// Coarsened: how lowering coarsened the program to fit its location
	// budget (cfg.Program.Coarsened; "": it did not).
	Coarsened string
	Hubs      int // dfg hubs (dfg/hub.go)
	Rounds    []Round
	// InterferenceEdges is the number of interference edges in the final DFG.
	InterferenceEdges int
	Edges             int // all DFG edges
	// Time per phase.
	Setup, Solve, Interference, Checks, Total time.Duration
}

// Result is the outcome of Analyze.
type Result struct {
	Program *cfg.Program
	Checks  []CheckResult // selected kinds only, in check order
	Stats   Stats
	Graph   *dfg.Graph
	Solver  *dfg.Solver
	Engine  *interference.Engine // closed; for its static facts only

	oneWayFailed []*cfg.Var // one-way flags whose premise failed (oneway.go)

	writesMu sync.Mutex
	writes   map[*cfg.Check][]Write // Writes, memoized
	wr       *writeNames            // for Writes: interned names and values

	tempDefsMu sync.Mutex
	tempDefsOf map[*cfg.Template]map[*cfg.Var]cfg.Expr // tempDefs, memoized
}

// Safe reports whether every selected check is proven or unreachable.
func (r *Result) Safe() bool {
	for _, c := range r.Checks {
		if c.Status == Unproven {
			return false
		}
	}
	return true
}

// Count returns the number of checks with each status.
func (r *Result) Count() (proven, unreachable, unproven int) {
	for _, c := range r.Checks {
		switch c.Status {
		case Proven:
			proven++
		case Unreachable:
			unreachable++
		default:
			unproven++
		}
	}
	return
}

// Analyze runs the analysis on p. Unless WithFusion(false), it first
// rewrites condition loads in p in place (fuse.go); p must not be analyzed
// concurrently.
func Analyze(ctx context.Context, p *cfg.Program, opts ...Option) (*Result, error) {
	c := config{domain: "interval", maxRounds: 200, maxPairPositions: DefaultMaxPairPositions}
	for _, o := range opts {
		o(&c)
	}
	if c.checks == nil {
		WithChecks(AllChecks...)(&c)
	}
	dom, err := domains.DomainByName(c.domain)
	if err != nil {
		return nil, err
	}
	if c.mutation.holeJoin {
		domains.SetUnsoundHoleJoin(true)
		defer domains.SetUnsoundHoleJoin(false)
	}
	if c.mutation.diffHoleKeep {
		domains.SetUnsoundDiffHoleKeep(true)
		defer domains.SetUnsoundDiffHoleKeep(false)
	}
	relational := dom.Name() == "octagon"
	if c.relational != nil {
		relational = *c.relational
	}
	start := time.Now()
	fused := 0
	if !c.noFusion {
		fused = fuseConditionLoads(p)
	}
	// Monotone globals (monotone.go): assumed, checked at the fixpoint,
	// and the run redone without those that fail.
	var mono monoSet
	if relational && !c.noMonotone {
		mono = monotoneCandidates(p, dfg.NewPartition(p, relational), c.mutation.monotoneAnyTemplate)
	}
	// One-way flag facts (interference/oneway.go) likewise: assumed,
	// checked at the fixpoint, the run redone without the failing flags
	// (after a second failure without any).
	ow := &oneWayRun{}
	for attempt := 0; ; attempt++ {
		res, err := analyzeOnce(ctx, p, &c, dom, relational, mono, ow)
		if err != nil || (mono.size() == 0 && len(res.oneWayFailed) == 0) {
			if res != nil {
				res.Stats.FusedLoads = fused
				res.Stats.Total = time.Since(start)
			}
			return res, err
		}
		var failed monoFailed
		if mono.size() > 0 && !c.mutation.monotoneUnchecked {
			failed = monotoneFailures(p, res.Solver, mono)
		}
		if len(failed) == 0 && len(res.oneWayFailed) == 0 {
			res.Stats.FusedLoads = fused
			res.Stats.Monotone = mono.size()
			res.Stats.Total = time.Since(start)
			return res, nil
		}
		if len(failed) > 0 {
			next := monoSet{}
			if attempt == 0 {
				next = mono.without(failed)
			}
			mono = next
		}
		ow.failed(res.oneWayFailed)
	}
}

// analyzeOnce is one run of the analysis on p, with mono as the monotone
// globals (nil: none).
func analyzeOnce(ctx context.Context, p *cfg.Program, c *config, dom domains.Domain, relational bool, mono monoSet, ow *oneWayRun) (*Result, error) {
	start := time.Now()
	res := &Result{Program: p}
	st := &res.Stats
	st.Locations = len(p.Locs)
	st.Coarsened = p.Coarsened

	part := dfg.NewPartition(p, relational)
	g := dfg.New(p, part)
	if c.mutation.flagPathsUnknown {
		g.UnsoundFlagPaths()
	}
	if c.mutation.publishUnchecked {
		g.UnsoundPublish()
	}
	if c.mutation.publishOff {
		g.WithoutPublish()
	}
	if c.mutation.stableAny {
		g.UnsoundStableGlobals()
	}
	cells := &cellsAdapter{g: g, part: part}
	eng, err := newEngine(p, cells, c, ow.engineOpts(c.engineOpts)) // gamebudget.go
	if err != nil {
		return nil, err
	}
	defer eng.Close()
	var need []dfg.CellID
	for _, x := range eng.ConditionCells() {
		need = append(need, dfg.CellID(x))
	}
	if relays := eng.LockRelays(); len(relays) > 0 && !c.mutation.noLockRelays {
		specs := make([]dfg.RelaySpec, len(relays))
		for i, r := range relays {
			cont := r.Continue
			specs[i] = dfg.RelaySpec{At: r.At, Continue: func(l *cfg.Loc, c dfg.CellID) bool { return cont(l, int(c)) }, Reader: r.Reader}
			for _, x := range r.Cells {
				specs[i].Cells = append(specs[i].Cells, dfg.CellID(x))
			}
		}
		g.Relay(specs)
		if c.mutation.readerRelayAnyTemplate {
			g.UnsoundReaderRelays()
		}
	}
	installDrops(g, eng, p, c) // dropedges.go
	flat := eng.FlowInsensitive()
	if !flat {
		g.NeedAt(eng.IsPosition, need...)
	}
	solverOpts := c.solverOpts
	if mono.size() > 0 {
		solverOpts = append(append([]dfg.Option(nil), c.solverOpts...), dfg.WithMonotone(mono.all), dfg.WithMonotoneIn(mono.in))
	}
	facts := counterFacts(eng.CounterFacts())
	addOneWayFacts(facts, eng.OneWayFacts())
	if len(facts) > 0 {
		solverOpts = append(append([]dfg.Option(nil), solverOpts...), dfg.WithFacts(facts))
	}
	solver := dfg.NewSolver(g, dom, solverOpts...)
	if flat {
		// A program too large for the games with pairs (floppy): Φ̂
		// matters only for whether a writer can run, so the condition
		// cells are not tracked at every position, and widening takes the
		// short ladder. Both only lose precision.
		solver.SetFastWidening(true)
	}
	res.Graph, res.Solver, res.Engine = g, solver, eng
	st.GamePositions = eng.NumPositions()
	st.Conditions = len(eng.Conditions())
	st.Locks = eng.NumLocks()
	st.Setup = time.Since(start)

	var condExprs []cfg.Expr
	for _, c := range eng.Conditions() {
		condExprs = append(condExprs, c.Expr)
	}
	inv := invariantsAdapter{s: solver, memo: solver.NewTruthMemo(), stamps: solver.NewTruthStamper(condExprs), buf: &stampBuf{}}
	flatHubs := map[flatKey]*cfg.Loc{} // addBlocks
	for round := 1; ; round++ {
		if round > c.maxRounds {
			return nil, fmt.Errorf("%w (%d rounds)", ErrRoundLimit, c.maxRounds)
		}
		var r Round
		t0 := time.Now()
		before := solver.Stats()
		if err := solver.Solve(ctx); err != nil {
			return nil, err
		}
		r.Solve = time.Since(t0)
		inv.memo.Age() // (only to bound its size: answers never go stale)
		after := solver.Stats()
		r.Evaluations = after.Evaluations - before.Evaluations
		r.Widenings = after.Widenings - before.Widenings
		r.EdgeVisits = after.EdgeVisits - before.EdgeVisits
		if c.mutation.noInterference {
			break
		}
		t1 := time.Now()
		memoBefore := [3]int{inv.memo.Hits, inv.memo.ProjHits, inv.memo.Evals}
		var blocks []interference.Block
		var rs interference.RoundStats
		switch {
		case c.noHubs:
			var edges []interference.Edge
			edges, blocks, rs, err = eng.Round(ctx, inv)
			r.NewEdges = addEdges(g, edges)
		case c.edgeLists:
			var edges []interference.Edge
			edges, blocks, rs, err = eng.Round(ctx, inv)
			r.NewEdges = addInterference(g, interference.GroupEdges(edges), c.forceHubs)
		default:
			var targets []interference.Target
			targets, blocks, rs, err = eng.RoundTargets(ctx, inv)
			r.NewEdges = addInterference(g, targets, c.forceHubs)
		}
		if err != nil {
			return nil, err
		}
		r.NewEdges += addBlocks(g, blocks, flatHubs)
		r.Engine = time.Since(t1)
		r.Pairs, r.Flows, r.Z3Queries, r.Signatures = rs.Pairs, rs.Flows, rs.Z3Queries, rs.Signatures
		r.SignaturesKept, r.ConditionsKept = rs.SignaturesKept, rs.ConditionsKept
		r.TruthByValue, r.TruthByProjection, r.TruthEvaluated = inv.memo.Hits-memoBefore[0], inv.memo.ProjHits-memoBefore[1], inv.memo.Evals-memoBefore[2]
		switch {
		case rs.FlowInsensitive:
			r.Game = "flow-insensitive"
			solver.SetFastWidening(true)
		case rs.Coarse:
			r.Game = "coarse"
		default:
			r.Game = "exact"
		}
		st.Game = r.Game
		if c.onRound != nil {
			c.onRound(r)
		}
		st.Rounds = append(st.Rounds, r)
		st.Solve += r.Solve
		st.Interference += r.Engine
		if r.NewEdges == 0 {
			break
		}
	}

	res.oneWayFailed = eng.OneWayFailures(inv)
	t2 := time.Now()
	for _, chk := range p.Checks {
		if !c.checks[chk.Kind] {
			continue
		}
		status, msg := solver.CheckStatus(chk)
		res.Checks = append(res.Checks, CheckResult{Check: chk, Status: status, Message: msg})
	}
	st.Checks = time.Since(t2)
	st.InterferenceEdges = g.NumInterferenceEdges()
	st.Hubs = g.NumHubs()
	st.Edges = g.NumEdges()
	st.Total = time.Since(start)
	return res, nil
}

// interferenceInto lists the interference edges that bring other
// threads' values to the check at loc: those into loc for the cells it
// reads, and, one step back, those into the loads (t := g) whose results
// the check reads; ordered by source location ID, stably (the edges of one
// source in the order they are found: the order sort.SliceStable by
// source gave).
//
// On memcached.c the unproven checks get 10 M edges in all, expanded from
// hubs, so the list is built without an unsorted copy and a sort: one walk
// counts the distinct edges per source, a second walk, finding the same
// edges in the same order, writes each at its source's next slot (a
// stable counting sort; interferenceIntoSorted in the tests is the plain
// collect-and-sort it must equal).
func interferenceInto(g *dfg.Graph, loc *cfg.Loc) []dfg.Edge {
	// count is per source ID, taken from a pool and zeroed again only at
	// the sources found: a fresh array of every location per call made
	// the report quadratic in program size (drivergen with 900 handlers:
	// 7,142 unproven checks times 106,617 locations, a third of the run
	// plus the collector's work on 6 GB of such arrays).
	nLocs := len(g.Program().Locs)
	sc := getWalkScratch(nLocs)
	count := sc.count
	var srcs []int // the distinct source IDs
	total := 0
	walkInterferenceInto(g, loc, func(e dfg.Edge) {
		if count[e.Src.ID] == 0 {
			srcs = append(srcs, e.Src.ID)
		}
		count[e.Src.ID]++
		total++
	})
	if total == 0 {
		walkScratchPool.Put(sc)
		return nil
	}
	slices.Sort(srcs)
	at := int32(0)
	for _, id := range srcs {
		c := count[id]
		count[id] = at
		at += c
	}
	out := make([]dfg.Edge, total)
	walkInterferenceInto(g, loc, func(e dfg.Edge) {
		out[count[e.Src.ID]] = e
		count[e.Src.ID]++
	})
	for _, id := range srcs {
		count[id] = 0
	}
	walkScratchPool.Put(sc) // (not deferred: only all zero)
	return out
}

// walkScratch holds the buffers of interferenceInto and
// walkInterferenceInto that are sized by the program's locations. They
// are reused (walkScratchPool) and returned all zero: each user clears
// only the entries it set, so a call costs its edges, not the program.
type walkScratch struct {
	count []int32  // interferenceInto: per source ID
	seen  []uint64 // walkInterferenceInto: its bits
	set   []int    // walkInterferenceInto: the bits set in seen
}

var walkScratchPool sync.Pool

// getWalkScratch returns a scratch with count of at least nLocs entries,
// all zero.
func getWalkScratch(nLocs int) *walkScratch {
	sc, _ := walkScratchPool.Get().(*walkScratch)
	if sc == nil {
		sc = &walkScratch{}
	}
	if len(sc.count) < nLocs {
		sc.count = make([]int32, nLocs)
	}
	return sc
}

// walkInterferenceInto calls emit for each edge of interferenceInto's
// list, in the order found (deterministic: the graph's edge order).
func walkInterferenceInto(g *dfg.Graph, loc *cfg.Loc, emit func(dfg.Edge)) {
	// (integer keys: on memcached.c hundreds of unproven checks each get
	// thousands of edges expanded from hubs, and hashing whole edges took
	// a sixth of the run). Within one destination every edge has Dst into
	// and Interference set, so (source, cell, AlsoInterference) is the
	// edge.
	nLocs := len(g.Program().Locs)
	sc := getWalkScratch(0)
	defer walkScratchPool.Put(sc)
	// seen: a bit per (cell of uses, AlsoInterference, source) of the
	// current destination; all zero between destinations (only the bits
	// set are cleared: clearing it whole cost every check the program's
	// size).
	var into *cfg.Loc
	clear := func() {
		for _, b := range sc.set {
			sc.seen[b/64] = 0
		}
		sc.set = sc.set[:0]
	}
	defer clear()
	note := func(ci int, e dfg.Edge) {
		k := 2 * ci
		if e.AlsoInterference {
			k++
		}
		b := k*nLocs + e.Src.ID
		if sc.seen[b/64]&(1<<(b%64)) == 0 {
			sc.seen[b/64] |= 1 << (b % 64)
			sc.set = append(sc.set, b)
			emit(e)
		}
	}
	walkInterferenceGroups(g, loc, func(ci int, he dfg.Edge) {
		if he.Dst != into {
			clear()
			into = he.Dst
			if n := (2*len(g.Uses(into))*nLocs + 63) / 64; len(sc.seen) < n {
				sc.seen = make([]uint64, n)
			}
		}
		if srcs := g.HubSources(he.Src); srcs != nil {
			for _, s := range srcs { // (g.Expand(he), without the slice)
				note(ci, dfg.Edge{Src: s, Cell: he.Cell, Dst: he.Dst, Interference: true})
			}
		} else {
			note(ci, he)
		}
	})
}

// walkInterferenceGroups calls stored for each interference edge, as the
// graph stores it (its source may be a hub standing for HubSources), that
// brings a cell read at loc into loc, or into a load (t := g) whose result
// loc reads: the edges interferenceInto expands, in the graph's order,
// the edges of one destination together; ci is the edge's cell's index in
// the sorted uses of its destination.
func walkInterferenceGroups(g *dfg.Graph, loc *cfg.Loc, stored func(ci int, he dfg.Edge)) {
	done := map[*cfg.Loc]bool{} // a second walk of a destination adds nothing new
	add := func(into *cfg.Loc) {
		if done[into] {
			return
		}
		done[into] = true
		uses := g.Uses(into) // sorted
		for _, he := range g.Edges(into) {
			if !he.Interference {
				continue
			}
			if ci, ok := slices.BinarySearch(uses, he.Cell); ok {
				stored(ci, he)
			}
		}
	}
	add(loc)
	used := map[dfg.CellID]bool{}
	for _, c := range g.Uses(loc) {
		used[c] = true
	}
	for _, e := range g.Edges(loc) {
		if e.Interference || e.Src == nil || !used[e.Cell] {
			continue
		}
		if a, ok := e.Src.Act.(*cfg.Assign); ok && cfg.ReadsGlobal(a.Src) {
			add(e.Src)
		}
	}
}

// Explain renders a check's interfering writes (Writes) on one line:
// "counter written by other threads at line 21 (value in [1, +oo]), line
// 25 (value 0)". At most explainWrites writes are listed; the rest are
// counted ("and 12 more writes"), so that a warning stays readable on
// programs with many writers.
func (r *Result) Explain(c CheckResult) string { return ExplainWrites(c, r.Writes(c)) }

// ExplainWrites is Explain of c with its Writes already listed.
func ExplainWrites(c CheckResult, writes []Write) string {
	if len(writes) == 0 {
		return ""
	}
	var order []string
	byVar := map[string][]string{}
	listed := 0
	for _, w := range writes {
		if listed == explainWrites {
			break
		}
		listed++
		where := fmt.Sprintf("line %d", w.Pos.Line)
		if w.Pos.Filename != c.Check.Pos.Filename {
			where = fmt.Sprintf("%s:%d", filepath.Base(w.Pos.Filename), w.Pos.Line)
		}
		if w.Value != "" {
			where += " (value " + w.Value + ")"
		}
		if _, ok := byVar[w.Var]; !ok {
			order = append(order, w.Var)
		}
		byVar[w.Var] = append(byVar[w.Var], where)
	}
	var parts []string
	for _, v := range order {
		parts = append(parts, fmt.Sprintf("%s written by other threads at %s", v, strings.Join(byVar[v], ", ")))
	}
	s := strings.Join(parts, "; ")
	if rest := len(writes) - listed; rest > 0 {
		s += fmt.Sprintf(" and %d more writes", rest)
	}
	return s
}

// explainWrites bounds the writes Explain lists.
const explainWrites = 4

// checkSubject recognizes a check "v op k" or "k op v" (casts allowed
// around v) and returns v, the operator with v on the left, and k.
func checkSubject(chk *cfg.Check) (*cfg.Var, cfg.BinOp, int64, bool) {
	if chk == nil || chk.Loc == nil {
		return nil, 0, 0, false
	}
	act, ok := chk.Loc.Act.(*cfg.CheckAct)
	if !ok {
		return nil, 0, 0, false
	}
	b, ok := act.Cond.(*cfg.Binary)
	if !ok {
		return nil, 0, 0, false
	}
	flip := map[cfg.BinOp]cfg.BinOp{cfg.Lt: cfg.Gt, cfg.Le: cfg.Ge, cfg.Gt: cfg.Lt, cfg.Ge: cfg.Le, cfg.Eq: cfg.Eq, cfg.Ne: cfg.Ne}
	if _, ok := flip[b.Op]; !ok {
		return nil, 0, 0, false
	}
	if v := subjectVar(b.X); v != nil {
		if k, ok := b.Y.(*cfg.Const); ok {
			return v, b.Op, k.Value, true
		}
	}
	if v := subjectVar(b.Y); v != nil {
		if k, ok := b.X.(*cfg.Const); ok {
			return v, flip[b.Op], k.Value, true
		}
	}
	return nil, 0, 0, false
}

func subjectVar(e cfg.Expr) *cfg.Var {
	for {
		c, ok := e.(*cfg.Cast)
		if !ok {
			break
		}
		e = c.X
	}
	switch e := e.(type) {
	case *cfg.VarRef:
		return e.Var
	case *cfg.Deref:
		if len(e.Cells) == 1 && !e.Cells[0].Summary {
			return e.Cells[0]
		}
	}
	return nil
}

// carriesSubject reports whether the value written by e's source reaches
// the check's subject unchanged: the edge ends at the check and the
// subject lives in the edge's cell, or it ends at a load "subject := x"
// feeding the check.
func (r *Result) carriesSubject(e dfg.Edge, check *cfg.Loc, subject *cfg.Var) bool {
	part := r.Graph.Partition()
	if e.Dst == check {
		return part.CellOf(subject) == e.Cell && len(part.Cell(e.Cell).Vars) == 1
	}
	a, ok := e.Dst.Act.(*cfg.Assign)
	if !ok {
		return false
	}
	dst, ok := a.Dst.(*cfg.VarRef)
	if !ok || dst.Var != subject || a.Src.ExprType() != subject.Type {
		return false
	}
	src := subjectVar(a.Src)
	if _, cast := a.Src.(*cfg.Cast); cast || src == nil {
		return false
	}
	return part.CellOf(src) == e.Cell && len(part.Cell(e.Cell).Vars) == 1
}

// canViolate reports whether some x in iv makes "x op k" false.
func canViolate(iv domains.Interval, op cfg.BinOp, k int64) bool {
	lo, hi := iv.Lo, iv.Hi
	if lo.Inf > 0 || hi.Inf < 0 || (lo.Inf == 0 && hi.Inf == 0 && lo.V > hi.V) {
		return false // no value
	}
	geK := hi.Inf > 0 || hi.V >= k // some x >= k
	gtK := hi.Inf > 0 || hi.V > k
	leK := lo.Inf < 0 || lo.V <= k
	ltK := lo.Inf < 0 || lo.V < k
	switch op {
	case cfg.Lt:
		return geK
	case cfg.Le:
		return gtK
	case cfg.Gt:
		return leK
	case cfg.Ge:
		return ltK
	case cfg.Eq:
		return !(lo.Inf == 0 && hi.Inf == 0 && lo.V == k && hi.V == k)
	case cfg.Ne:
		return leK && geK
	}
	return true
}

func boundString(b domains.Bound) string {
	switch {
	case b.Inf < 0:
		return "-oo"
	case b.Inf > 0:
		return "+oo"
	}
	return fmt.Sprint(b.V)
}

func intervalString(iv domains.Interval) string {
	lo, hi := boundString(iv.Lo), boundString(iv.Hi)
	if iv.Lo.Inf == 0 && iv.Hi.Inf == 0 && iv.Lo.V > iv.Hi.V {
		return "none"
	}
	if lo == hi {
		return lo
	}
	return "in [" + lo + ", " + hi + "]"
}

// cellsAdapter shows the DFG to the interference engine. Uses returns
// the cells tracked at a location (dfg In): an interference edge can only
// change the invariant there for those, and dfg rejects the others.
type cellsAdapter struct {
	g    *dfg.Graph
	part *dfg.Partition
}

func toInts(cs []dfg.CellID) []int {
	out := make([]int, len(cs))
	for i, c := range cs {
		out[i] = int(c)
	}
	return out
}

func (a *cellsAdapter) Mod(l *cfg.Loc) []int  { return toInts(a.g.SharedMod(l)) }
func (a *cellsAdapter) Uses(l *cfg.Loc) []int { return toInts(a.g.In(l)) }
func (a *cellsAdapter) CellOf(v *cfg.Var) int { return int(a.part.CellOf(v)) }
func (a *cellsAdapter) Global(c int) bool {
	return c > int(dfg.ControlCell) && c < a.part.NumCells() && a.part.Cell(dfg.CellID(c)).Global
}

// invariantsAdapter evaluates conditions on the solver's states, through
// a memo of their value-dependent part (dfg.TruthMemo: the same answers).
type invariantsAdapter struct {
	s      *dfg.Solver
	memo   *dfg.TruthMemo
	stamps *dfg.TruthStamper // of the engine's conditions
	buf    *stampBuf         // CondStamps' scratch
}

type stampBuf struct{ s []dfg.TruthStamp }

// Stamp is the solver's TruthStamp of l for the engine's conditions (the
// only ones the engine asks): it covers everything Truth reads of them
// (their cells' values at l, their cells' edges into l and the sources'
// posts).
func (a invariantsAdapter) Stamp(l *cfg.Loc) interference.Stamp {
	ts := a.stamps.Stamp(l)
	return interference.Stamp{A: ts.Gen, B: ts.Tick, C: int64(ts.Edges)}
}

// CondStamps is the solver's TruthStamp of l for each of the engine's
// conditions alone (dfg.TruthStamper.CondStamps), in the engine's order.
func (a invariantsAdapter) CondStamps(l *cfg.Loc, out []interference.Stamp) {
	if cap(a.buf.s) < len(out) {
		a.buf.s = make([]dfg.TruthStamp, len(out))
	}
	ts := a.buf.s[:len(out)]
	a.stamps.CondStamps(l, ts)
	for i, t := range ts {
		out[i] = interference.Stamp{A: t.Gen, B: t.Tick, C: int64(t.Edges)}
	}
}

func (a invariantsAdapter) Truth(l *cfg.Loc, cond cfg.Expr) interference.Truth {
	st := a.s.At(l)
	var t dfg.Truth
	if a.memo != nil {
		t = a.memo.Truth(st, cond)
	} else {
		t = st.Truth(cond)
	}
	switch t {
	case dfg.Bottom:
		return interference.Bottom
	case dfg.True:
		return interference.True
	case dfg.False:
		return interference.False
	}
	return interference.Unknown
}
