package dfg

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"chorus/cfg"
)

// hubLoopProgram is a loop over globals, each statement of whose body
// touches one global: some grow by one per iteration, the others are set
// to a constant; checks after the loop read every global. So a body
// location's state keeps changing (the loop counter, the growing globals)
// while the globals it does not touch, among them the constant ones, pass
// through it unchanged: as hub sources of those cells, their
// contributions do not change when their states do.
func hubLoopProgram(r *rand.Rand) *cfg.Program {
	b := newIRB()
	var gs []*cfg.Var
	for k := range 3 + r.IntN(5) {
		gs = append(gs, b.global(fmt.Sprintf("g%d", k), cfg.Int32, k32(0)))
	}
	i := b.local("i", cfg.Int32)
	_, prev := b.seq(b.cur.Entry, asg(ref(i), k32(0)))
	head := b.loc(&cfg.Skip{})
	link(prev, head)
	_, prev = b.seq(head, assume(bin(cfg.Lt, ref(i), k32(int64(5+r.IntN(40))))))
	for range 4 + r.IntN(8) {
		g := gs[r.IntN(len(gs))]
		if r.IntN(2) == 0 {
			_, prev = b.seq(prev, asg(ref(g), bin(cfg.Add, ref(g), k32(1))))
		} else {
			_, prev = b.seq(prev, asg(ref(g), k32(int64(r.IntN(10)))))
		}
	}
	_, prev = b.seq(prev, asg(ref(i), bin(cfg.Add, ref(i), k32(1))))
	link(prev, head)
	_, prev = b.seq(head, assume(bin(cfg.Ge, ref(i), k32(5))))
	for _, g := range gs {
		_, prev = b.seq(prev, b.check(cfg.AssertCheck, bin(cfg.Le, ref(g), k32(100))))
	}
	b.exit(prev)
	return b.fix()
}

// solveWithHubs solves hubLoopProgram(seed), most of whose globals are
// needed everywhere, with hubs (random sources,
// cells and targets) made before the first Solve and in two later
// batches (incremental Solves), and returns the solver.
func solveWithHubs(t *testing.T, seed uint64, dom int) *Solver {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 13))
	p := hubLoopProgram(r)
	part := NewPartition(p, seed%2 == 0)
	g := New(p, part)
	// Globals needed everywhere (as the analysis needs the cells its
	// conditions read): tracked, mostly passed through, at every body
	// location.
	for _, v := range p.Vars {
		if v.Scope == cfg.Global && r.IntN(3) > 0 {
			g.Need(part.CellOf(v))
		}
	}
	s := NewSolver(g, bothDomains[dom])
	locs := p.Locs
	for range 3 {
		for range 6 {
			dst := locs[r.IntN(len(locs))]
			cells := g.In(dst)
			if len(cells) == 0 {
				continue
			}
			c := cells[r.IntN(len(cells))]
			if part.cells[c].Owner != nil {
				continue
			}
			var srcs []*cfg.Loc
			for range 2 + r.IntN(12) {
				srcs = append(srcs, locs[r.IntN(len(locs))])
			}
			g.NewHub(srcs, c, []*cfg.Loc{dst, locs[r.IntN(len(locs))], locs[r.IntN(len(locs))]})
		}
		if err := s.Solve(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// A source whose change leaves its contribution to a hub as it was keeps
// the hub's leaf and cached value (hubLeafMayChange): the invariants must
// be those of dirtying every leaf of a changed source, state for state
// (the kept leaf equals the one it would read, so no join, widening or
// order changes), and with checkIncremental (TestMain) every kept leaf is
// compared with the source's current post. The rule must also fire.
func TestHubLeavesKeptGiveTheSameInvariants(t *testing.T) {
	defer func() { hubLeafRule = hubLeavesKeptWhenUnchanged }()
	kept := 0
	for seed := uint64(1); seed <= 40; seed++ {
		for dom := range bothDomains {
			hubLeafRule = hubLeavesNeverKept
			want := solveWithHubs(t, seed, dom)
			hubLeafRule = hubLeavesKeptWhenUnchanged
			got := solveWithHubs(t, seed, dom)
			kept += got.Stats().HubLeavesKept
			if want.Stats().HubLeavesKept != 0 {
				t.Fatal("hubLeavesNeverKept kept a leaf")
			}
			for _, l := range got.g.prog.Locs {
				if a, b := want.state(int32(l.ID)), got.state(int32(l.ID)); !a.equal(b) {
					t.Fatalf("seed %d %s: location %d: %v with every leaf read, %v with leaves kept", seed, bothDomains[dom].Name(), l.ID, a, b)
				}
			}
		}
	}
	if kept == 0 {
		t.Fatal("no hub leaf kept: the test does not exercise the rule")
	}
	t.Logf("%d hub leaves kept", kept)
}

// The check behind the rule catches a leaf kept though it changed: with
// every leaf kept (a breakage), some program must panic in
// checkHubLeafKept.
func TestHubLeafKeptCheckCatchesAStaleLeaf(t *testing.T) {
	defer func() { hubLeafRule = hubLeavesKeptWhenUnchanged }()
	hubLeafRule = hubLeavesAlwaysKept
	caught := 0
	for seed := uint64(1); seed <= 40; seed++ {
		func() {
			defer func() {
				if r := recover(); r != nil && strings.Contains(fmt.Sprint(r), "kept source") {
					caught++
				}
			}()
			solveWithHubs(t, seed, 0)
		}()
	}
	if caught == 0 {
		t.Fatal("keeping every hub leaf went unnoticed")
	}
	t.Logf("caught in %d of 40 programs", caught)
}
