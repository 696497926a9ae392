package analysis

import (
	"bytes"
	"context"
	"crypto/sha256"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"testing"

	"chorus/cfg"
)

// withEdgeLists makes the analysis take each round's interference edges
// as Round's edge list, grouped here (interference.GroupEdges): the
// computation before the engine handed over targets (RoundTargets).
func withEdgeLists() Option { return func(c *config) { c.edgeLists = true } }

// The engine's targets build the very graph the grouped edge lists built:
// the same hubs (numbered in the order they are made) and edges (the DOT
// dump's lines, sorted: the order of one location's edges is pinned by
// TestGraphDeterministic instead), the same
// invariant at every
// location and the same check statuses, on the fixtures and generated programs (both domains), the
// SV-COMP tasks and two DDVerify drivers (the coarse game, millions of
// edges a round). It would catch targets in another order (other hub
// IDs), a missing or extra writer, or another block; the order of the
// targets themselves is pinned by TestTargetsAsGroupedEdges.
func TestTargetsBuildSameGraph(t *testing.T) {
	type run struct {
		prog testProgram
		opts []Option
	}
	var runs []run
	for _, pr := range fixturesAndGenerated(t, "../testdata/check") {
		for _, dom := range []string{"interval", "octagon"} {
			runs = append(runs, run{pr, []Option{WithDomain(dom)}})
		}
	}
	var files []string
	for _, dir := range []string{"pthread", "pthread-atomic", "pthread-ext"} {
		fs, _ := filepath.Glob(filepath.Join("../../shared/corpus/svcomp", dir, "*.i"))
		files = append(files, fs...)
	}
	sort.Strings(files)
	for _, f := range files {
		if fi, err := os.Stat(f); err != nil || fi.Size() > 60_000 {
			continue
		}
		runs = append(runs, run{testProgram{filepath.Base(f), func() (*cfg.Program, error) { return cfg.BuildFile(f, cfg.Options{}) }}, nil})
	}
	if !testing.Short() {
		for _, d := range []string{"pcwd_pci", "cm206"} {
			f := "../../shared/corpus/ddverify/" + d + ".c"
			if _, err := os.Stat(f); err != nil {
				continue // no corpus
			}
			runs = append(runs, run{testProgram{d, func() (*cfg.Program, error) {
				return cfg.BuildFile(f, cfg.Options{DataModel: cfg.ILP32})
			}}, nil})
		}
	}
	edges, hubs := 0, 0
	for _, r := range runs {
		analyze := func(opts ...Option) (*Result, [32]byte, []string) {
			p, err := r.prog.src()
			if err != nil {
				t.Fatalf("%s: %v", r.prog.name, err)
			}
			res, err := Analyze(context.Background(), p, append(append([]Option(nil), r.opts...), opts...)...)
			if err != nil {
				t.Fatalf("%s: %v", r.prog.name, err)
			}
			var dot bytes.Buffer
			if err := res.Graph.WriteDot(&dot); err != nil {
				t.Fatal(err)
			}
			lines := bytes.Split(dot.Bytes(), []byte("\n"))
			slices.SortFunc(lines, bytes.Compare)
			h := sha256.New()
			for _, l := range lines {
				h.Write(l)
				h.Write([]byte("\n"))
			}
			var inv []string
			for _, l := range p.Locs {
				inv = append(inv, res.Solver.At(l).String())
			}
			var sum [32]byte
			copy(sum[:], h.Sum(nil))
			return res, sum, inv
		}
		want, wantDot, wantInv := analyze(withEdgeLists())
		got, gotDot, gotInv := analyze()
		if gotDot != wantDot {
			t.Errorf("%s %d: the graph differs from the one built from edge lists", r.prog.name, len(r.opts))
			continue
		}
		for i := range wantInv {
			if gotInv[i] != wantInv[i] {
				t.Errorf("%s: location %d: invariant %s, from edge lists %s", r.prog.name, i, gotInv[i], wantInv[i])
				break
			}
		}
		for i, c := range want.Checks {
			if got.Checks[i].Status != c.Status {
				t.Errorf("%s: check %v: %v, from edge lists %v", r.prog.name, c.Check.Pos, got.Checks[i].Status, c.Status)
			}
		}
		edges += got.Graph.NumInterferenceEdges()
		hubs += got.Graph.NumHubs()
	}
	if hubs == 0 {
		t.Error("no hub was made")
	}
	t.Logf("%d runs: %d interference edges, %d hubs, the same graphs", len(runs), edges, hubs)
}

// The data flow graph is the same in every run: the DOT dump, lines in
// their order, is identical over repeated analyses. dfg/publish.go's
// pubRule ranged over a map of cells, so on prec_publish_mixed.c and
// prec_publish_init.c the edges of two cells into one location came in
// either order (statuses did not change); with Go's randomized map order,
// 12 runs see both orders with probability 1 - 2^-11.
func TestGraphDeterministic(t *testing.T) {
	for _, name := range []string{"prec_publish_mixed.c", "prec_publish_init.c"} {
		path := filepath.Join("../testdata/check", name)
		var first []byte
		for run := 0; run < 12; run++ {
			p, err := cfg.BuildFile(path, cfg.Options{})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			res, err := Analyze(context.Background(), p)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			var dot bytes.Buffer
			if err := res.Graph.WriteDot(&dot); err != nil {
				t.Fatal(err)
			}
			if run == 0 {
				first = dot.Bytes()
			} else if !bytes.Equal(first, dot.Bytes()) {
				t.Fatalf("%s: run %d built another graph than run 0", name, run)
			}
		}
	}
}
