package analysis

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"chorus/cfg"
	"chorus/interference"
)

// TestKeptSignaturesAsEvaluated pins the engine's keeping of a position's
// signature while its solver stamp stays (dfg.TruthStamp,
// interference.StampedInvariants) against evaluating every signature
// afresh: with WithSignatureCheck every kept signature is evaluated again
// next to it and Analyze fails on a difference, and the rounds (edges,
// facts, signatures, Z3 queries, solver work) and the checks' statuses
// must be those of the run that keeps none. On the fixtures, generated
// programs and the SV-COMP tasks of the corpus (when present), in both
// domains. A stamp that missed a change Truth reads (a replaced state, a
// new edge, a source's post, a hub's new source) would keep a stale
// signature: the check fails, or the rounds differ.
func TestKeptSignaturesAsEvaluated(t *testing.T) {
	progs := fixturesAndGenerated(t, "../testdata/check", "../testdata/threads")
	svcomp := 0
	if !testing.Short() {
		root := filepath.Join("..", "..", "shared", "corpus", "svcomp")
		if env := os.Getenv("CHORUS_CORPUS"); env != "" {
			root = filepath.Join(env, "svcomp")
		}
		for _, dir := range []string{"pthread", "pthread-atomic", "pthread-ext"} {
			fs, _ := filepath.Glob(filepath.Join(root, dir, "*.i"))
			for _, f := range fs {
				svcomp++
				progs = append(progs, testProgram{dir + "/" + filepath.Base(f), func() (*cfg.Program, error) {
					return cfg.BuildFile(f, cfg.Options{DataModel: cfg.ILP32}) // (every task of these directories)
				}})
			}
		}
	}
	kept, evaluated, condKept := 0, 0, 0
	for _, pr := range progs {
		for _, dom := range []string{"interval", "octagon"} {
			run := func(opt interference.Option) (rounds []string, statuses []string, nKept, nSigs int, ok bool) {
				p, err := pr.src()
				if err != nil {
					return nil, nil, 0, 0, false // (a fixture that does not lower: not this test's subject)
				}
				hook := func(r Round) {
					rounds = append(rounds, fmt.Sprint(r.NewEdges, r.Pairs, r.Flows, r.Z3Queries, r.Signatures, r.Evaluations, r.Widenings, r.EdgeVisits, r.Game))
					nKept += r.SignaturesKept
					condKept += r.ConditionsKept
					nSigs += r.Signatures
				}
				res, err := Analyze(context.Background(), p, WithDomain(dom), WithRoundHook(hook), WithEngineOptions(opt))
				if err != nil {
					t.Errorf("%s %s: %v", pr.name, dom, err)
					return nil, nil, 0, 0, false
				}
				for _, c := range res.Checks {
					statuses = append(statuses, fmt.Sprint(c.Check.ID, c.Status))
				}
				return rounds, statuses, nKept, nSigs, true
			}
			got, gotStatuses, n, sigs, ok := run(interference.WithSignatureCheck())
			if !ok {
				continue
			}
			want, wantStatuses, none, _, _ := run(interference.WithoutSignatureKeeping())
			if none != 0 {
				t.Fatalf("%s %s: %d signatures kept without keeping", pr.name, dom, none)
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s %s: rounds\n kept      %v\n evaluated %v", pr.name, dom, got, want)
			}
			if fmt.Sprint(gotStatuses) != fmt.Sprint(wantStatuses) {
				t.Errorf("%s %s: statuses\n kept      %v\n evaluated %v", pr.name, dom, gotStatuses, wantStatuses)
			}
			kept += n
			evaluated += sigs
		}
	}
	t.Logf("%d programs (%d SV-COMP tasks): %d signatures kept, %d distinct evaluated, %d condition answers kept", len(progs), svcomp, kept, evaluated, condKept)
	if kept == 0 {
		t.Fatalf("no signature kept: the test does not exercise the stamps")
	}
	if condKept == 0 {
		t.Fatalf("no condition answer kept: the test does not exercise the condition stamps")
	}
}
