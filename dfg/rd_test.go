package dfg

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"chorus/cfg"
	"chorus/internal/drivergen"
)

// laterCtx is a context that is done from the (after+1)-th call of Err on:
// a deterministic stand-in for a timeout that strikes in the middle of a
// computation.
type laterCtx struct {
	context.Context
	after int64
	calls atomic.Int64
}

func (c *laterCtx) Err() error {
	if c.calls.Add(1) > c.after {
		return context.Canceled
	}
	return nil
}

// longReader is main reading one global at n locations: the global's
// reaching definitions span a region of n locations.
func longReader(t *testing.T, n int) *cfg.Program {
	var b strings.Builder
	b.WriteString("int g;\nint main(void) {\n  int x = 0;\n  g = 1;\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "  x = g;\n")
	}
	b.WriteString("  return x;\n}\n")
	p, err := cfg.Build("long.c", []byte(b.String()), cfg.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Reaching definitions stop when the context is done, within one cell
// (the per-cell check alone would let a cell of a large driver run for
// minutes), and the graph stays unbuilt: the next use builds it whole.
func TestBuildStopsWhenContextDone(t *testing.T) {
	p := longReader(t, 3*ctxEvery)
	part := NewPartition(p, false)
	var gcell CellID = -1
	for c := CellID(1); int(c) < part.NumCells(); c++ {
		if cl := part.Cell(c); cl.Global && cl.Vars[0].Name == "g" {
			gcell = c
		}
	}
	if gcell < 0 {
		t.Fatal("no cell of g")
	}

	// One cell: the check at the cell's start passes, one inside must stop it.
	g := New(p, part)
	var usedAt []*cfg.Loc
	for _, l := range p.Locs {
		if l.Template == p.Templates[0] {
			usedAt = append(usedAt, l)
		}
	}
	g.stale = false
	g.in = make([][]CellID, len(p.Locs))
	g.edges = make([][]edge, len(p.Locs))
	g.succs = make([][]int32, len(p.Locs))
	g.edgeSet = map[edgeKey]struct{}{}
	r := newRDSolver(g)
	r.ctx = &laterCtx{Context: context.Background(), after: 1}
	if err := r.solve(gcell, usedAt); !errors.Is(err, context.Canceled) {
		t.Fatalf("solve of a %d-location region: %v, want context.Canceled", len(usedAt), err)
	}

	// The whole build, through Build and Solve.
	g = New(p, part)
	if err := g.Build(&laterCtx{Context: context.Background(), after: 1}); !errors.Is(err, context.Canceled) {
		t.Fatalf("Build: %v, want context.Canceled", err)
	}
	if !g.stale {
		t.Fatal("a cancelled build left the graph marked built")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Nanosecond)
	defer cancel()
	<-ctx.Done()
	if err := NewSolver(g, bothDomains[0]).Solve(ctx); err == nil {
		t.Fatal("Solve with an expired context succeeded")
	}
	want := New(p, part).NumEdges()
	if got := g.NumEdges(); got != want {
		t.Errorf("edges after a cancelled build and a full one: %d, want %d", got, want)
	}
}

// The sparse reaching definitions (sets stored at merge points and
// entries only) give exactly the edges of the dense ones, on every C
// program of the repository's test data, in both partitions, with the
// drivergen program (shared bodies, threads, a handler table) added.
func TestSparseReachingDefinitions(t *testing.T) {
	files, _ := filepath.Glob("../testdata/*/*.c")
	if len(files) < 20 {
		t.Fatalf("only %d test programs", len(files))
	}
	type prog struct {
		name string
		src  []byte
	}
	var progs []prog
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		progs = append(progs, prog{f, src})
	}
	progs = append(progs, prog{"drivergen.c", drivergen.Program(6)})
	edgesOf := func(g *Graph) map[Edge]bool {
		out := map[Edge]bool{}
		for _, l := range g.prog.Locs {
			for _, e := range g.Edges(l) {
				out[e] = true
			}
		}
		return out
	}
	compared := 0
	for _, pr := range progs {
		p, err := cfg.Build(filepath.Base(pr.name), pr.src, cfg.Options{DataModel: cfg.ILP32})
		if err != nil {
			continue // (test data for errors)
		}
		for _, rel := range []bool{false, true} {
			part := NewPartition(p, rel)
			denseRD = true
			want := edgesOf(New(p, part))
			denseRD = false
			got := edgesOf(New(p, part))
			compared++
			if len(got) != len(want) {
				t.Errorf("%s (relational %v): %d edges, dense %d", pr.name, rel, len(got), len(want))
				continue
			}
			for e := range want {
				if !got[e] {
					t.Errorf("%s (relational %v): edge %v missing", pr.name, rel, e)
					break
				}
			}
		}
	}
	if compared < 40 {
		t.Errorf("compared only %d graphs", compared)
	}
}

// radixSort sorts like slices.Sort: short and long inputs, positions
// spanning all three digits (up to 2^31-1), reused buffers. Caught: two
// passes only (positions past 2^22 out of order), an odd pass count
// returning the scratch buffer.
func TestRadixSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var buf, tmp []int32
	for _, n := range []int{0, 1, 255, 256, 1000, 70000} {
		for _, max := range []int32{1 << 11, 1 << 22, math.MaxInt32} {
			seen := map[int32]bool{}
			buf = buf[:0]
			for len(buf) < n && len(seen) < int(max) {
				x := rng.Int32N(max)
				if !seen[x] {
					seen[x] = true
					buf = append(buf, x)
				}
			}
			want := slices.Sorted(slices.Values(buf))
			var got []int32
			got, tmp = radixSort(buf, tmp)
			if !slices.Equal(got, want) {
				t.Fatalf("n=%d max=%d: radixSort differs from slices.Sort", n, max)
			}
			buf = got
		}
	}
}
