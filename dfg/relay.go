package dfg

import (
	"slices"

	"chorus/cfg"
)

// RelaySpec asks for a relay of Cells at At: At tracks the cells and
// leaves them unchanged (an identity definition), and its value of each
// cell c reaches, as a sequential edge, every location of its thread
// reached from At along the CFG through locations l with Continue(l, c),
// without passing a write of c (the writer itself still receives it).
// Unlike a write, a relay kills nothing: the definitions above it reach
// the same locations as without it.
//
// The walk also enters the threads a spawn on the way starts (their
// entries, when Continue allows): a value that has not changed since
// the relay when the spawn ran is the child's too, until a write of it.
// Extra relay edges only add values, so following more paths is always
// sound; Continue decides what precision the walk buys.
//
// The interference engine relays the cells a lock protects right after
// the lock's acquires, for as long as a protecting lock is held
// (interference/protect.go): inside critical sections the relays carry
// the other threads' writes, which no longer land there directly.
type RelaySpec struct {
	At       *cfg.Loc
	Cells    []CellID
	Continue func(l *cfg.Loc, c CellID) bool
	// Reader: the reader-relay equation may apply at At (readrelay.go).
	Reader bool
}

// Relay installs relays. Call it before the first Solve and before any
// AddEdge (the sequential edges are rebuilt on next use; interference
// edges are not kept).
func (g *Graph) Relay(specs []RelaySpec) {
	for _, sp := range specs {
		var cs []CellID
		for _, c := range sp.Cells {
			if c > ControlCell && int(c) < g.part.NumCells() {
				cs = append(cs, c)
			}
		}
		if sp.At != nil && sp.Continue != nil && len(cs) > 0 {
			g.relays = append(g.relays, RelaySpec{At: sp.At, Cells: cs, Continue: sp.Continue, Reader: sp.Reader})
		}
	}
	g.stale = true
}

// relayEdges adds the sequential edges of the relays (after the
// reaching-definition edges).
func (g *Graph) relayEdges() {
	seen := make([]bool, len(g.prog.Locs))
	var work, visited []*cfg.Loc
	for _, sp := range g.relays {
		for _, c := range sp.Cells {
			if _, ok := slices.BinarySearch(g.gen[sp.At.ID], c); ok {
				continue // At writes c: the ordinary definitions carry it on
			}
			work, visited = work[:0], visited[:0]
			next := func(s *cfg.Loc) {
				if !seen[s.ID] && sp.Continue(s, c) {
					seen[s.ID] = true
					work = append(work, s)
					visited = append(visited, s)
				}
			}
			push := func(l *cfg.Loc) {
				for _, s := range l.Succs {
					next(s)
				}
				if sp, ok := l.Act.(*cfg.Spawn); ok {
					for _, t := range sp.Targets {
						if t != nil && t.Entry != nil {
							next(t.Entry)
						}
					}
				}
			}
			push(sp.At)
			for len(work) > 0 {
				l := work[len(work)-1]
				work = work[:len(work)-1]
				if _, ok := slices.BinarySearch(g.in[l.ID], c); ok {
					g.addEdge(l, edge{Src: sp.At, Cell: c})
				}
				if _, ok := slices.BinarySearch(g.gen[l.ID], c); !ok {
					push(l)
				}
			}
			for _, l := range visited {
				seen[l.ID] = false
			}
		}
	}
}
