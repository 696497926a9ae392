package main

// Exploration proofs (on by default; --explore-proof-states N, 0 = off):
// after the analysis, when some requested check is unproven, the program
// is lowered again and explored exhaustively (confirm.Prove); when the
// search is exact — finite, complete, no input wider than a char, no
// modelling assumption or indeterminate value reached, no spawn bounded,
// no runtime error — every unproven check it never saw fail is proven,
// for the threads the program creates. The check's message and its
// report's proof field say so ("exploration: N states, K threads").
//
// The program is lowered afresh (as for --confirm): the analysis rewrites
// its IR in place, and the explorer must run the program as written.
// The lowering is deterministic, so checks are matched by ID. Programs
// with more than maxProofLocs locations are not tried: their searches
// rarely finish within the budget, and the second lowering would cost
// time and memory on the largest files (a cost rule, not a soundness one:
// not trying never proves anything), nor are programs whose main reads
// an input (or runs another action the search stops at) before anything
// can block it (confirm.EarlyStop, on the analysed program).

import (
	"fmt"
	"time"

	"chorus/analysis"
	"chorus/cfg"
	"chorus/confirm"
)

// defaultProofStates is the default of --explore-proof-states.
const defaultProofStates = 100_000

// proofTimeout bounds one file's exploration proof.
const proofTimeout = 1500 * time.Millisecond

// maxProofLocs is the size above which no exploration proof is tried.
const maxProofLocs = 20_000

// proofText is the provenance of a check proven by exploration.
func proofText(p *confirm.Proof) string {
	return fmt.Sprintf("exploration: %d states, %d threads", p.States, p.Threads)
}

// proveUnproven tries an exploration proof of res's unproven checks and,
// when it succeeds, marks those it proves as proven in res. It returns
// the provenance by check ID (nil when nothing was proven). budget is the
// time left (<= 0: no attempt); an error leaves res unchanged.
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
		return nil, nil // nothing to prove, or main reads a wide input first: no second lowering
	}
	p, err := build()
	if err != nil {
		return nil, err
	}
	var checks []*cfg.Check
	for _, id := range ids {
		// The lowering is deterministic; a check whose ID now names
		// another site (kind or position) would prove the wrong check:
		// then no proof at all.
		if id >= len(p.Checks) || p.Checks[id].Kind != want[id].Kind || p.Checks[id].Pos != want[id].Pos {
			return nil, fmt.Errorf("exploration proof: check %d differs in the second lowering", id)
		}
		checks = append(checks, p.Checks[id])
	}
	proof, err := confirm.Prove(p, checks, kinds, confirm.ProofBudget{MaxStates: maxStates, Timeout: min(budget, proofTimeout)})
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
