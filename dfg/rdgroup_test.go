package dfg

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"chorus/cfg"
	"chorus/internal/drivergen"
)

// testPrograms lowers every C program of the repository's test data and
// the drivergen program (shared bodies, threads, a handler table).
func testPrograms(t *testing.T) []*cfg.Program {
	files, _ := filepath.Glob("../testdata/*/*.c")
	if len(files) < 20 {
		t.Fatalf("only %d test programs", len(files))
	}
	var out []*cfg.Program
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p, err := cfg.Build(filepath.Base(f), src, cfg.Options{DataModel: cfg.ILP32})
		if err != nil {
			continue // (test data for errors)
		}
		out = append(out, p)
	}
	p, err := cfg.Build("drivergen.c", drivergen.Program(6), cfg.Options{DataModel: cfg.ILP32})
	if err != nil {
		t.Fatal(err)
	}
	return append(out, p)
}

// Twin cells replaying their representative's edges give exactly the
// graph of solving every cell on its own: the same edges into every
// location in the same order, and the same In (φ locations included), on
// all test programs in both partitions. Grouping is forced down to cells
// used at one location, and the test checks that some cells were twins.
func TestRDGroupsSameGraph(t *testing.T) {
	defer func(m int) { rdTwinMinUses = m; rdTwins = true }(rdTwinMinUses)
	rdTwinMinUses = 1
	defer func(k int) { phiThreshold = k }(phiThreshold)
	twins, compared := 0, 0
	for _, p := range testPrograms(t) {
		for _, rel := range []bool{false, true} {
			for _, phi := range []int{8, 2} { // 2: many φ locations
				phiThreshold = phi
				part := NewPartition(p, rel)
				rdTwins = false
				want := New(p, part)
				want.ensure()
				rdTwins = true
				got := New(p, part)
				got.ensure()
				compared++
				gr := newRDGroups(got, newRDSolver(got), usedAtOf(got))
				for _, r := range gr.rep {
					if r != 0 {
						twins++
					}
				}
				for _, l := range p.Locs {
					if !slices.Equal(got.in[l.ID], want.in[l.ID]) {
						t.Fatalf("%s (relational %v, φ %d): In(%v) = %v, alone %v", p.Templates[0].Entry.Pos.Filename, rel, phi, l.Pos, got.in[l.ID], want.in[l.ID])
					}
					if !slices.Equal(got.edges[l.ID], want.edges[l.ID]) {
						t.Fatalf("%s (relational %v, φ %d): edges into %v differ:\n%v\nalone:\n%v", p.Templates[0].Entry.Pos.Filename, rel, phi, l.Pos, got.edges[l.ID], want.edges[l.ID])
					}
				}
			}
		}
	}
	if compared < 80 || twins < 20 {
		t.Errorf("compared %d graphs with %d twin cells", compared, twins)
	}
}

// usedAtOf lists, by cell, the locations tracking it (as build does).
func usedAtOf(g *Graph) [][]*cfg.Loc {
	out := make([][]*cfg.Loc, g.part.NumCells())
	for _, l := range g.prog.Locs {
		for _, c := range g.in[l.ID] {
			out[c] = append(out[c], l)
		}
	}
	return out
}

// A havoc does not track the old value of a one-variable cell it writes
// (graph.go build, havoc.go), and that changes no state anywhere but at
// the havoc locations themselves (whose state no longer holds those
// cells): on all test programs, in both partitions and both domains, the
// states at every other location are those of tracking the old value.
func TestHavocOldValueNotNeeded(t *testing.T) {
	defer func(old bool) { havocTracksOld = old }(havocTracksOld)
	dropped, compared := 0, 0
	for _, p := range testPrograms(t) {
		for _, rel := range []bool{false, true} {
			for _, dom := range bothDomains {
				part := NewPartition(p, rel)
				havocTracksOld = true
				wg := New(p, part)
				ws := NewSolver(wg, dom)
				if err := ws.Solve(context.Background()); err != nil {
					t.Fatal(err)
				}
				havocTracksOld = false
				gg := New(p, part)
				gs := NewSolver(gg, dom)
				if err := gs.Solve(context.Background()); err != nil {
					t.Fatal(err)
				}
				compared++
				for _, l := range p.Locs {
					if _, ok := l.Act.(*cfg.Havoc); ok {
						if len(gg.In(l)) < len(wg.In(l)) {
							dropped++
						}
						continue
					}
					if a, b := gs.At(l).String(), ws.At(l).String(); a != b {
						t.Fatalf("%s (relational %v, %v): state at %v (%T) is %s, tracking the havocs' old values %s", p.Templates[0].Entry.Pos.Filename, rel, dom, l.Pos, l.Act, a, b)
					}
				}
			}
		}
	}
	if compared < 80 || dropped < 10 {
		t.Errorf("compared %d solutions with %d havocs not tracking an old value", compared, dropped)
	}
}

// A spawned template's entry as a φ location of a global cell changes no
// state anywhere but at such entries (which track more cells): on all
// test programs, in both partitions and both domains, at φ threshold 8
// and 2, the states elsewhere are those without it, and some entry did
// become a φ location.
func TestPhiAtSpawnEntrySameStates(t *testing.T) {
	defer func(k int) { phiThreshold = k; phiAtSpawnEntry = true }(phiThreshold)
	grew, compared := 0, 0
	for _, p := range testPrograms(t) {
		entry := map[*cfg.Loc]bool{}
		for _, tm := range p.Templates[1:] {
			entry[tm.Entry] = true
		}
		for _, rel := range []bool{false, true} {
			for _, dom := range bothDomains {
				for _, phi := range []int{8, 2} {
					phiThreshold = phi
					part := NewPartition(p, rel)
					phiAtSpawnEntry = false
					wg := New(p, part)
					ws := NewSolver(wg, dom)
					if err := ws.Solve(context.Background()); err != nil {
						t.Fatal(err)
					}
					phiAtSpawnEntry = true
					gg := New(p, part)
					gs := NewSolver(gg, dom)
					if err := gs.Solve(context.Background()); err != nil {
						t.Fatal(err)
					}
					compared++
					for _, l := range p.Locs {
						if entry[l] {
							if len(gg.In(l)) > len(wg.In(l)) {
								grew++
							}
							continue
						}
						if a, b := gs.At(l).String(), ws.At(l).String(); a != b {
							t.Fatalf("%s (relational %v, %v, φ %d): state at %v is %s, without entry φ %s", p.Templates[0].Entry.Pos.Filename, rel, dom, phi, l.Pos, a, b)
						}
					}
				}
			}
		}
	}
	if compared < 100 || grew < 5 {
		t.Errorf("compared %d solutions, %d entries became φ locations", compared, grew)
	}
}

// Cells computed by several workers and applied in cell order give
// exactly the graph of computing them one after another: the same edges
// into every location in the same order and the same In, on all test
// programs in both partitions, with many φ locations and with twins.
// Caught: applying records in the order the workers finish them.
func TestRDWorkersSameGraph(t *testing.T) {
	defer func(m int) { rdTwinMinUses = m }(rdTwinMinUses)
	rdTwinMinUses = 1
	defer func(k int) { phiThreshold = k }(phiThreshold)
	defer func(w int) { rdWorkers = w }(rdWorkers)
	compared, cells := 0, 0
	for _, p := range testPrograms(t) {
		for _, rel := range []bool{false, true} {
			for _, phi := range []int{8, 2} {
				phiThreshold = phi
				part := NewPartition(p, rel)
				rdWorkers = 1
				want := New(p, part)
				want.ensure()
				rdWorkers = 3
				got := New(p, part)
				got.ensure()
				compared++
				cells += part.NumCells()
				for _, l := range p.Locs {
					if !slices.Equal(got.in[l.ID], want.in[l.ID]) {
						t.Fatalf("%s (relational %v, φ %d): In(%v) = %v, one worker %v", p.Templates[0].Entry.Pos.Filename, rel, phi, l.Pos, got.in[l.ID], want.in[l.ID])
					}
					if !slices.Equal(got.edges[l.ID], want.edges[l.ID]) {
						t.Fatalf("%s (relational %v, φ %d): edges into %v differ:\n%v\none worker:\n%v", p.Templates[0].Entry.Pos.Filename, rel, phi, l.Pos, got.edges[l.ID], want.edges[l.ID])
					}
				}
			}
		}
	}
	if compared < 80 || cells < 1000 {
		t.Errorf("compared %d graphs of %d cells", compared, cells)
	}
}
