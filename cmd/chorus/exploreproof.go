package main

// Exploration proofs (on by default; --explore-proof-states N, 0 = off):
// after the analysis, when some requested check is unproven, the program
// as lowered is explored exhaustively (confirm.Prove); when the
// search is exact — finite, complete, no input wider than a char, no
// modelling assumption or indeterminate value reached, no spawn bounded,
// no runtime error — every unproven check it never saw fail is proven,
// for the threads the program creates. The check's message and its
// report's proof field say so ("exploration: N states, K threads").
//
// The explorer must run the program as written, but the analysis
// rewrites some of its locations' actions in place (condition-load
// fusion, analysis/fuse.go, replaces Loc.Act pointers and nothing else).
// Rather than lowering the file a second time (the frontend is most of
// the cost of a small file), the actions as lowered are kept before the
// analysis (keepLoweredActions) and put back for the search, then the
// analysis's are restored for the report (loweredActions).
// TestLoweredActionsRestoreProgram checks, on every fixture and SV-COMP
// task, that the program so restored is deeply equal to a fresh
// lowering. Programs with more than maxProofLocs locations are not
// tried: their searches rarely finish within the budget (a cost rule,
// not a soundness one: not trying never proves anything), nor are
// programs whose main reads an input (or runs another action the search
// stops at) before anything can block it (confirm.EarlyStop, on the
// analysed program).

import (
	"fmt"
	"time"

	"chorus/analysis"
	"chorus/cfg"
	"chorus/confirm"
)

// defaultProofStates is the default of --explore-proof-states.
const defaultProofStates = 100_000

// proofCPU bounds the CPU time of one file's exploration proof: a CPU
// budget, so that a proof found on a quiet machine is found on a loaded
// one too (explore.Options.CPUTimeout).
const proofCPU = 1500 * time.Millisecond

// proofWall bounds its wall time: a backstop on a machine so loaded that
// the search gets little of a core (and never past --timeout).
const proofWall = 4 * proofCPU

// maxProofLocs is the size above which no exploration proof is tried.
const maxProofLocs = 20_000

// proofText is the provenance of a check proven by exploration.
func proofText(p *confirm.Proof) string {
	return fmt.Sprintf("exploration: %d states, %d threads", p.States, p.Threads)
}

// loweredActions keeps each location's action as the frontend lowered it,
// so that the explorer can run the program as written after the analysis
// has rewritten some actions in place (see the top of the file).
type loweredActions struct {
	p        *cfg.Program
	lowered  []cfg.Action // by location ID, before the analysis
	analysed []cfg.Action // by location ID, while the lowered ones are in place
}

// keepLoweredActions records p's actions; call it before the analysis.
func keepLoweredActions(p *cfg.Program) *loweredActions {
	k := &loweredActions{p: p, lowered: make([]cfg.Action, len(p.Locs))}
	for i, l := range p.Locs {
		k.lowered[i] = l.Act
	}
	return k
}

// asLowered puts the lowered actions back and returns the program as
// lowered: the build function of proveUnproven and confirmUnproven. The
// analysis adds and removes no location (the test above); a program whose
// location count changed anyway is an error, never explored.
func (k *loweredActions) asLowered() (*cfg.Program, error) {
	if len(k.p.Locs) != len(k.lowered) {
		return nil, fmt.Errorf("the analysis changed the number of locations (%d, lowered %d)", len(k.p.Locs), len(k.lowered))
	}
	if k.analysed == nil {
		k.analysed = make([]cfg.Action, len(k.p.Locs))
		for i, l := range k.p.Locs {
			k.analysed[i], l.Act = l.Act, k.lowered[i]
		}
	}
	return k.p, nil
}

// asAnalysed puts the analysis's actions back (after asLowered), for the
// report, which describes the program the analysis saw.
func (k *loweredActions) asAnalysed() {
	if k.analysed == nil {
		return
	}
	for i, l := range k.p.Locs {
		l.Act = k.analysed[i]
	}
	k.analysed = nil
}

// proveUnproven tries an exploration proof of res's unproven checks and,
// when it succeeds, marks those it proves as proven in res. It returns
// the provenance by check ID (nil when nothing was proven). build returns
// the program as lowered (loweredActions.asLowered, or a fresh lowering);
// its checks are matched to res's by ID. budget is the wall time left
// (<= 0: no attempt); an error leaves res unchanged.
func proveUnproven(maxStates int, build func() (*cfg.Program, error), res *analysis.Result, kinds []cfg.CheckKind, budget time.Duration) (map[int]string, error) {
	if maxStates <= 0 || res == nil || budget <= 0 || res.Program == nil || len(res.Program.Locs) > maxProofLocs {
		return nil, nil
	}
	var ids []int
	want := map[int]*cfg.Check{}
	for _, c := range res.Checks {
		if c.Status == analysis.Unproven {
			ids = append(ids, c.Check.ID)
			want[c.Check.ID] = c.Check
		}
	}
	if len(ids) == 0 || confirm.EarlyStop(res.Program) != nil {
		return nil, nil // nothing to prove, or main reads a wide input first
	}
	p, err := build()
	if err != nil {
		return nil, err
	}
	var checks []*cfg.Check
	for _, id := range ids {
		// With a fresh lowering (deterministic) the IDs match; a check
		// whose ID names another site (kind or position) would prove
		// the wrong check: then no proof at all.
		if id >= len(p.Checks) || p.Checks[id].Kind != want[id].Kind || p.Checks[id].Pos != want[id].Pos {
			return nil, fmt.Errorf("exploration proof: check %d differs in the program as lowered", id)
		}
		checks = append(checks, p.Checks[id])
	}
	proof, err := confirm.Prove(p, checks, kinds, confirm.ProofBudget{MaxStates: maxStates, CPUTimeout: min(budget, proofCPU), Timeout: min(budget, proofWall)})
	if err != nil || len(proof.Proven) == 0 {
		return nil, err
	}
	text := proofText(proof)
	out := map[int]string{}
	for _, c := range proof.Proven {
		out[c.ID] = text
	}
	for i := range res.Checks {
		c := &res.Checks[i]
		if c.Status == analysis.Unproven && out[c.Check.ID] != "" {
			c.Status = analysis.Proven
			c.Message = "proven by " + text
		}
	}
	return out, nil
}
