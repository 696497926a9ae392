package oracle

import (
	"context"
	"errors"
	"fmt"
	"go/token"
	"math/big"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"time"

	"chorus/analysis"
	"chorus/cfg"
	"chorus/cfg/interp"
	"chorus/confirm"
	"chorus/dfg"
	"chorus/domains"
	"chorus/explore"
	"chorus/oracle/gen"
)

// Mutation is a deliberate breakage of the analysis, for testing the
// oracle itself.
type Mutation int

const (
	NoMutation             Mutation = iota
	DropInterference                // stop after the sequential solve: no interference edges
	AtomicRMW                       // analyze with every read-modify-write of a global made atomic
	AtomicCriticalSections          // analyze with every critical section made atomic
	NoLockRelays                    // keep protected cells' edges out of critical sections without relaying them
	NoMixedForget                   // join foreign edges into mixed cells without forgetting the other thread's locals
	DropReturns                     // analyze with the edges from shared bodies back to their return sites removed
	DropCallbacks                   // open programs: analyze without the spawns of callbacks and of a library's client (DropUnknownSpawns)
	DropHavocs                      // open programs: analyze with every Havoc made a Skip (DropHavocs: unknown calls write nothing)
)

func (m Mutation) String() string {
	switch m {
	case DropInterference:
		return "drop-interference"
	case AtomicRMW:
		return "atomic-rmw"
	case AtomicCriticalSections:
		return "atomic-critical-sections"
	case NoLockRelays:
		return "no-lock-relays"
	case DropReturns:
		return "drop-returns"
	case NoMixedForget:
		return "no-mixed-forget"
	case DropCallbacks:
		return "drop-callbacks"
	case DropHavocs:
		return "drop-havocs"
	}
	return "none"
}

// Config configures Run.
type Config struct {
	N    int   // programs to generate (default 1)
	Seed int64 // program i uses seed Seed+i
	K    int   // instances per thread template in the explorer (default 2)
	Gen  gen.Options
	// Domains to analyze in (default interval and octagon).
	Domains []string
	// MaxStates and ExploreTimeout bound each exploration (default 100000
	// states, no timeout).
	MaxStates      int
	ExploreTimeout time.Duration
	// AnalysisTimeout bounds each analysis (default 20s); a timeout makes
	// the program incomplete, never a violation.
	AnalysisTimeout time.Duration
	// Shrink shrinks violating programs, each within ShrinkBudget
	// (default 60s).
	Shrink       bool
	ShrinkBudget time.Duration
	// Dir receives one C file per violation ("" : none written).
	Dir      string
	Mutation Mutation
	// Analysis options added to every analysis (e.g. to check an
	// alternative such as analysis.WithEveryHub).
	Analysis []analysis.Option
	// Workers run programs in parallel (default 1).
	Workers int
	// Progress, when set, is called after each program (serialized).
	Progress func(ProgramResult)
}

// Violation is a claim of the analysis that the explorer contradicts, or
// a frontend failure on a generated (valid) program.
type Violation struct {
	Seed     int64
	Domain   string // "" for frontend failures
	Mutation Mutation
	// Kind is "invariant" (a reachable state outside the invariant),
	// "unreachable" (a reachable location the analysis calls unreachable),
	// "check" (a check proven or unreachable that fails) or "frontend".
	Kind   string
	Pos    token.Position // the location or check
	Detail string
	// Schedule reaches the violation (thread, position, action per step);
	// empty when none could be rebuilt.
	Schedule []string
	Source   string // the C program (shrunk when Config.Shrink)
	File     string // where it was written, if Config.Dir

	// For rebuilding the schedule of a state violation: the location and
	// the violated constraint over consVars (nil cons: the location is
	// claimed unreachable).
	prog     *gen.Prog
	loc      *cfg.Loc
	cons     *domains.LinCons
	consVars []*cfg.Var
}

func (v *Violation) String() string {
	return fmt.Sprintf("seed %d [%s %s mutation=%s] %s: %s", v.Seed, v.Kind, v.Domain, v.Mutation, v.Pos, v.Detail)
}

// ProgramResult is the outcome of one program.
type ProgramResult struct {
	Seed          int64
	States        int  // distinct explored states
	Views         int  // thread views compared (per domain)
	Complete      bool // the exploration finished within its budgets
	AnalysisError string
	RuntimeErrors int // runtime errors the explorer hit (not violations)
	Violations    []*Violation
}

// Report sums up a run.
type Report struct {
	Programs       int
	ExploredStates int
	ComparedViews  int
	Incomplete     int // explorations cut by a budget or analyses that did not finish
	RuntimeErrors  int
	Violations     []*Violation
	Elapsed        time.Duration
}

// Summary is the last line cmd/oracle prints.
func (r *Report) Summary() string {
	return fmt.Sprintf("programs=%d explored_states=%d violations=%d incomplete=%d", r.Programs, r.ExploredStates, len(r.Violations), r.Incomplete)
}

func (c *Config) defaults() {
	if c.N <= 0 {
		c.N = 1
	}
	if c.K <= 0 {
		c.K = 2
	}
	if len(c.Domains) == 0 {
		c.Domains = []string{"interval", "octagon"}
	}
	if c.MaxStates <= 0 {
		c.MaxStates = 100_000
	}
	if c.AnalysisTimeout <= 0 {
		c.AnalysisTimeout = 20 * time.Second
	}
	if c.ShrinkBudget <= 0 {
		c.ShrinkBudget = 60 * time.Second
	}
	if c.Workers <= 0 {
		c.Workers = 1
	}
}

// Run checks cfg.N programs. It stops early (with a partial report) when
// ctx is cancelled.
func Run(ctx context.Context, c Config) *Report {
	c.defaults()
	start := time.Now()
	rep := &Report{}
	seeds := make(chan int64)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for w := 0; w < c.Workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for seed := range seeds {
				pr := c.program(ctx, seed)
				mu.Lock()
				rep.Programs++
				rep.ExploredStates += pr.States
				rep.ComparedViews += pr.Views
				rep.RuntimeErrors += pr.RuntimeErrors
				if !pr.Complete || pr.AnalysisError != "" {
					rep.Incomplete++
				}
				rep.Violations = append(rep.Violations, pr.Violations...)
				if c.Progress != nil {
					c.Progress(pr)
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for i := 0; i < c.N; i++ {
		select {
		case seeds <- c.Seed + int64(i):
		case <-ctx.Done():
			break feed
		}
	}
	close(seeds)
	wg.Wait()
	sort.SliceStable(rep.Violations, func(i, j int) bool { return rep.Violations[i].Seed < rep.Violations[j].Seed })
	rep.Elapsed = time.Since(start)
	return rep
}

// program generates, checks, shrinks and writes one program.
func (c *Config) program(ctx context.Context, seed int64) ProgramResult {
	prog := gen.Generate(seed, c.Gen)
	pr := c.Check(ctx, seed, prog, "")
	// One violation per domain and kind: the others of the same program
	// are most likely the same bug, and each costs a shrink.
	seen := map[string]bool{}
	kept := pr.Violations[:0]
	for _, v := range pr.Violations {
		if key := v.Domain + "/" + v.Kind; !seen[key] {
			seen[key] = true
			kept = append(kept, v)
		}
	}
	pr.Violations = kept
	for _, v := range pr.Violations {
		c.finish(ctx, prog, v)
	}
	return pr
}

// Check compares the analysis with the explorer on one generated
// program; only the given domain when domain != "". It never panics: a
// panic in the pipeline is reported as a violation of kind "frontend" or
// "crash".
func (c *Config) Check(ctx context.Context, seed int64, prog *gen.Prog, domain string) (pr ProgramResult) {
	pr.Seed = seed
	src := prog.C()
	defer func() {
		if r := recover(); r != nil {
			pr.Violations = append(pr.Violations, &Violation{Seed: seed, Mutation: c.Mutation, Kind: "crash",
				Detail: fmt.Sprintf("panic: %v\n%s", r, debug.Stack()), Source: src})
		}
	}()
	name := fmt.Sprintf("oracle_%d.c", seed)
	p, err := lower(name, src, SharesCalls(seed))
	if err != nil {
		pr.Complete = true
		pr.Violations = append(pr.Violations, &Violation{Seed: seed, Mutation: c.Mutation, Kind: "frontend", Detail: err.Error(), Source: src})
		return pr
	}
	lo, hi := prog.NondetRange()
	// Ground truth: with custom locks, the program as written (the
	// analysis gets them rewritten into acquire/release by the frontend,
	// cfg/atomiclock.go, which must only add executions). The rewrite
	// changes actions in place, so locations and variables correspond.
	truth := p
	if prog.CustomLocks {
		q, err := lowerWith(name, src, cfg.Options{ShareAll: SharesCalls(seed), NoAtomicLocks: true})
		if err == nil && (len(q.Locs) != len(p.Locs) || len(q.Vars) != len(p.Vars)) {
			err = fmt.Errorf("the atomic-lock rewrite changed the locations or variables")
		}
		if err != nil {
			pr.Complete = true
			pr.Violations = append(pr.Violations, &Violation{Seed: seed, Mutation: c.Mutation, Kind: "frontend", Detail: err.Error(), Source: src})
			return pr
		}
		truth = q
	}
	ex, err := confirm.Explore(truth, explore.Options{MaxInstances: c.K, HavocMin: lo, HavocMax: hi,
		MaxStates: c.MaxStates, Timeout: c.ExploreTimeout, KeepDeadEnds: true})
	if err != nil {
		pr.Violations = append(pr.Violations, &Violation{Seed: seed, Mutation: c.Mutation, Kind: "frontend", Detail: "explore: " + err.Error(), Source: src})
		return pr
	}
	pr.States, pr.Complete, pr.RuntimeErrors = ex.States, ex.Complete, len(ex.Errors)

	// Mutations of the IR come after the exploration: the ground truth is
	// always the unmutated program.
	opts := append([]analysis.Option(nil), c.Analysis...)
	switch c.Mutation {
	case AtomicRMW, AtomicCriticalSections:
		if c.Mutation == AtomicRMW {
			MakeRMWAtomic(p)
		} else {
			MakeCriticalSectionsAtomic(p)
		}
		if err := cfg.Sanity(p); err != nil {
			pr.AnalysisError = "mutated IR: " + err.Error()
			return pr
		}
	case DropInterference:
		opts = append(opts, analysis.WithoutInterference())
	case DropReturns:
		DropReturnEdges(p)
	case NoLockRelays:
		opts = append(opts, analysis.WithoutLockRelays())
	case NoMixedForget:
		opts = append(opts, analysis.WithoutMixedForget())
	}
	domains := c.Domains
	if domain != "" {
		domains = []string{domain}
	}
	for _, dom := range domains {
		actx, cancel := context.WithTimeout(ctx, c.AnalysisTimeout)
		res, err := analysis.Analyze(actx, p, append([]analysis.Option{analysis.WithDomain(dom)}, opts...)...)
		cancel()
		if err != nil {
			// No result means no claim: never a violation (soundness is
			// about what is claimed).
			pr.AnalysisError = dom + ": " + err.Error()
			continue
		}
		n, vs := Compare(p, ex, res)
		pr.Views += n
		for _, v := range vs {
			v.Seed, v.Domain, v.Mutation, v.Source, v.prog = seed, dom, c.Mutation, src, prog
		}
		pr.Violations = append(pr.Violations, vs...)
	}
	return pr
}

// SharesCalls tells whether the program of a seed is lowered with every
// helper call going to a shared body (odd seeds: cfg.Options.ShareAll) or
// with the default policy (which inlines the small generated helpers), so
// that both kinds of call are compared with the explorer.
func SharesCalls(seed int64) bool { return seed%2 != 0 }

// lower builds and sanity-checks the IR of a generated program.
func lower(name, src string, share bool) (*cfg.Program, error) {
	return lowerWith(name, src, cfg.Options{ShareAll: share})
}

// lowerWith builds and sanity-checks the IR of a generated program with
// the given frontend options.
func lowerWith(name, src string, opts cfg.Options) (*cfg.Program, error) {
	p, err := cfg.Build(name, []byte(src), opts)
	if err != nil {
		return nil, fmt.Errorf("build: %w", err)
	}
	if err := cfg.Sanity(p); err != nil {
		return nil, fmt.Errorf("sanity: %w", err)
	}
	return p, nil
}

// Compare checks the analysis result res against the exploration ex of
// the same program p: it returns the number of views compared and the
// violations (at most one per location and kind, at most one per check).
// Violations carry Kind, Pos and Detail only.
func Compare(p *cfg.Program, ex *explore.Result, res *analysis.Result) (int, []*Violation) {
	var out []*Violation
	compared := 0
	for _, loc := range p.Locs {
		if loc.ID >= len(ex.Views) || len(ex.Views[loc.ID]) == 0 {
			continue
		}
		views := ex.Views[loc.ID]
		st := res.Solver.At(loc)
		if st.IsBottom() {
			out = append(out, &Violation{Kind: "unreachable", Pos: loc.Pos,
				Detail: fmt.Sprintf("%s (%s) is reachable (%d thread views, e.g. %s) but the invariant is ⊥",
					loc, dfg.ActionString(loc.Act), len(views), viewString(ex.Vars[loc.Template.ID], views[0])),
				loc: loc})
			continue
		}
		vars := ex.Vars[loc.Template.ID]
		index := make(map[int]int, len(vars))
		for i, v := range vars {
			index[v.ID] = i
		}
		for _, view := range views {
			compared++
			pt := func(v *cfg.Var) (*big.Int, bool) {
				i, ok := index[v.ID]
				if !ok || vars[i] != v {
					return nil, false
				}
				return IntValue(v.Type, view.Values[i])
			}
			if bad, c := Outside(st, pt); bad {
				_, cvars := st.Constraints()
				out = append(out, &Violation{Kind: "invariant", Pos: loc.Pos,
					Detail: fmt.Sprintf("%s (%s): thread state %s is outside the invariant %s (violates %s)",
						loc, dfg.ActionString(loc.Act), viewString(vars, view), st, consString(c, cvars)),
					loc: loc, cons: &c, consVars: cvars})
				break
			}
		}
	}
	status := map[*cfg.Check]analysis.Status{}
	for _, cr := range res.Checks {
		status[cr.Check] = cr.Status
	}
	for _, f := range ex.Failures {
		chk := f.Event.Check
		st, ok := status[chk]
		if !ok || st == analysis.Unproven {
			continue
		}
		v := &Violation{Kind: "check", Pos: chk.Pos,
			Detail: fmt.Sprintf("%s check %q is reported %s but fails", chk.Kind, chk.Msg, st)}
		v.Schedule = ScheduleStrings(p, f.Schedule, -1)
		out = append(out, v)
	}
	return compared, out
}

func viewString(vars []*cfg.Var, view explore.View) string {
	var parts []string
	for i, v := range vars {
		parts = append(parts, v.Name+"="+view.Values[i].String())
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// ScheduleStrings renders a schedule, one step per line: thread, source
// position, action (with the havoc value). Steps at location skipLoc
// other than the last are left out (the oracle's inserted check).
func ScheduleStrings(p *cfg.Program, sched []interp.Step, skipLoc int) []string {
	var out []string
	for i, s := range sched {
		if s.Loc == skipLoc && i != len(sched)-1 {
			continue
		}
		act := ""
		if s.Loc == skipLoc {
			act = "(the state here is outside the invariant)"
		} else if s.Loc >= 0 && s.Loc < len(p.Locs) {
			loc := p.Locs[s.Loc]
			act = dfg.ActionString(loc.Act)
			if _, ok := loc.Act.(*cfg.Havoc); ok {
				act += fmt.Sprintf(" -> %d", s.Value)
			}
		}
		out = append(out, fmt.Sprintf("thread %d %s:%d:%d %s", s.Thread, filepath.Base(s.Pos.Filename), s.Pos.Line, s.Pos.Column, act))
	}
	return out
}

// finish shrinks v's program, rebuilds its schedule and writes it.
func (c *Config) finish(ctx context.Context, prog *gen.Prog, v *Violation) {
	final := v
	if c.Shrink && v.Kind != "crash" {
		deadline := time.Now().Add(c.ShrinkBudget)
		same := func(q *gen.Prog) *Violation {
			if time.Now().After(deadline) || ctx.Err() != nil {
				return nil
			}
			dom := v.Domain
			if v.Kind == "frontend" {
				dom = c.Domains[0]
			}
			pr := c.Check(ctx, v.Seed, q, dom)
			for _, w := range pr.Violations {
				if w.Kind == v.Kind {
					return w
				}
			}
			return nil
		}
		small := gen.Shrink(prog, func(q *gen.Prog) bool { return same(q) != nil })
		deadline = time.Now().Add(c.ShrinkBudget) // the final re-check gets its own budget
		if w := same(small); w != nil {
			final = w
		}
	}
	if final.loc != nil {
		final.Schedule = c.scheduleTo(final)
	}
	if final != v {
		v.Source, v.Pos, v.Detail, v.Schedule = final.Source, final.Pos, final.Detail, final.Schedule
	}
	if c.Dir != "" {
		v.File, _ = write(c.Dir, v)
	}
}

// write stores the violation as a C file with a leading comment.
func write(dir string, v *Violation) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	dom := v.Domain
	if dom == "" {
		dom = "frontend"
	}
	name := filepath.Join(dir, fmt.Sprintf("seed%d-%s-%s-%s.c", v.Seed, v.Kind, dom, v.Mutation))
	var b strings.Builder
	fmt.Fprintf(&b, "/* chorus soundness oracle: %s violation\n * seed %d, domain %s, mutation %s\n * at %s\n *\n", v.Kind, v.Seed, dom, v.Mutation, v.Pos)
	for _, line := range strings.Split(v.Detail, "\n") {
		fmt.Fprintf(&b, " * %s\n", strings.ReplaceAll(line, "*/", "* /"))
	}
	if len(v.Schedule) > 0 {
		fmt.Fprintf(&b, " *\n * schedule (%d steps):\n", len(v.Schedule))
		for _, s := range v.Schedule {
			fmt.Fprintf(&b, " *   %s\n", strings.ReplaceAll(s, "*/", "* /"))
		}
	}
	b.WriteString(" */\n")
	b.WriteString(v.Source)
	return name, os.WriteFile(name, []byte(b.String()), 0o644)
}

// ErrNoViolation is returned by helpers that expected one.
var ErrNoViolation = errors.New("oracle: no violation")
