package interference

import (
	"context"
	"fmt"
)

// game evaluates the rules of DESIGN.md §4 over game positions with a
// worklist (semi-naive in effect: every fact is processed once when it is
// derived, and re-processed in later rounds only when it was blocked by a
// compat-dependent premise). The rules, with exec as in Engine.exec:
//
//	pair(E, C)   :- spawn(S, E), cf(S, C).
//	pair(A, E)   :- pair(A, S), spawn(S, E), exec(S, A).
//	pair(A2, B)  :- pair(A, B), cf(A, A2), exec(A, B).
//	pair(B, A)   :- pair(A, B).
//	flow(U, X, A2, B) :- pair(U, B), mod(U, X), cf(U, A2), exec(U, B).
//	flow(W, X, A2, B) :- flow(W, X, A, B), cf(A, A2), !mod(A, X), exec(A, B).
//	flow(W, X, A, B2) :- flow(W, X, A, B), cf(B, B2), !mod(B, X), exec(B, A).
//	flow(W, X, A, E)  :- flow(W, X, A, S), spawn(S, E), !mod(S, X), exec(S, A).
//	edge(W, X, B)     :- flow(W, X, _, B).
//
// The fourth flow rule is ours: a thread standing at S with the value of X
// written by w spawns a child, whose entry sees the same X. The DFG's
// sequential edges give the child's entry only the reaching definitions of
// the parent's own template, so without it that value would be lost.
//
// main has exactly one instance and is started, not spawned: no rule seeds
// it, and addPair refuses pairs of two main positions, so code of main
// before its first spawn pairs with nothing.
type game struct {
	e *Engine

	pairs map[uint64]struct{}
	flows map[fact4]struct{}
	edges map[fact3]struct{}

	pairWork []uint64
	flowWork []fact4

	blockedPairs []uint64
	blockedFlows []fact4

	newEdges []fact3
	seeded   bool
	overflow bool // more facts than e.maxTuples

	limit int // bound on pairs+flows (e.maxTuples)

	// live[x] holds the positions b with readerUseful(b, x).
	live map[int32]bitset
}

type fact3 struct{ w, x, b int32 }
type fact4 struct{ w, x, a, b int32 }

func newGame(e *Engine) *game {
	return &game{
		e:     e,
		limit: e.maxTuples,
		pairs: map[uint64]struct{}{},
		flows: map[fact4]struct{}{},
		edges: map[fact3]struct{}{},
		live:  map[int32]bitset{},
	}
}

func pairKey(a, b int32) uint64 { return uint64(uint32(a))<<32 | uint64(uint32(b)) }

func (g *game) addPair(a, b int32) {
	if g.e.inMain[a] && g.e.inMain[b] {
		return
	}
	for _, k := range [2]uint64{pairKey(a, b), pairKey(b, a)} {
		if _, ok := g.pairs[k]; !ok {
			g.count()
			g.pairs[k] = struct{}{}
			g.pairWork = append(g.pairWork, k)
		}
	}
}

func (g *game) addFlow(f fact4) {
	if !g.readerUseful(f.b, f.x) {
		return
	}
	if _, ok := g.flows[f]; !ok {
		g.count()
		g.flows[f] = struct{}{}
		g.flowWork = append(g.flowWork, f)
	}
}

// run derives facts to the fixpoint under the current compat and returns
// the edge facts new since the last run.
func (g *game) run(ctx context.Context) ([]fact3, error) {
	e := g.e
	if !g.seeded {
		g.seeded = true
		for s := range e.pos.locs {
			for _, en := range e.spawn[s] {
				for _, c := range e.pos.cf[s] {
					g.addPair(en, c)
				}
			}
		}
	}
	bp, bf := g.blockedPairs, g.blockedFlows
	g.blockedPairs, g.blockedFlows = nil, nil
	g.pairWork = append(g.pairWork, bp...)
	g.flowWork = append(g.flowWork, bf...)
	steps := 0
	for len(g.pairWork) > 0 || len(g.flowWork) > 0 {
		if steps++; steps%4096 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if g.overflow {
			return nil, fmt.Errorf("%w (more than %d)", ErrTooManyFacts, g.limit)
		}
		if n := len(g.pairWork); n > 0 {
			k := g.pairWork[n-1]
			g.pairWork = g.pairWork[:n-1]
			g.processPair(int32(k>>32), int32(uint32(k)))
			continue
		}
		n := len(g.flowWork)
		f := g.flowWork[n-1]
		g.flowWork = g.flowWork[:n-1]
		g.processFlow(f)
	}
	if g.overflow {
		return nil, fmt.Errorf("%w (more than %d)", ErrTooManyFacts, g.limit)
	}
	out := g.newEdges
	g.newEdges = nil
	return out, nil
}

// processPair moves the thread at a while the other stands at b.
func (g *game) processPair(a, b int32) {
	e := g.e
	if !e.exec(a, b) {
		g.blockedPairs = append(g.blockedPairs, pairKey(a, b))
		return
	}
	for _, a2 := range e.pos.cf[a] {
		g.addPair(a2, b)
	}
	for _, en := range e.spawn[a] {
		g.addPair(b, en)
	}
	for _, x := range e.mod[a] {
		for _, a2 := range e.pos.cf[a] {
			g.addFlow(fact4{a, int32(x), a2, b})
		}
	}
}

func (g *game) processFlow(f fact4) {
	e := g.e
	k := fact3{f.w, f.x, f.b}
	if _, ok := g.edges[k]; !ok {
		g.edges[k] = struct{}{}
		g.newEdges = append(g.newEdges, k)
	}
	x := int(f.x)
	blocked := false
	// The writer moves.
	if !e.modifies(f.a, x) {
		if e.exec(f.a, f.b) {
			for _, a2 := range e.pos.cf[f.a] {
				g.addFlow(fact4{f.w, f.x, a2, f.b})
			}
		} else {
			blocked = true
		}
	}
	// The reader moves (or spawns). A reader kill (readerkill.go) ends
	// the flow on the moves, not on the spawns.
	if !e.modifies(f.b, x) {
		if e.exec(f.b, f.a) {
			if !e.readerKilled(f.b, x) {
				for _, b2 := range e.pos.cf[f.b] {
					g.addFlow(fact4{f.w, f.x, f.a, b2})
				}
			}
			for _, en := range e.spawn[f.b] {
				g.addFlow(fact4{f.w, f.x, f.a, en})
			}
		} else {
			blocked = true
		}
	}
	if blocked {
		g.blockedFlows = append(g.blockedFlows, f)
	}
}

// readerUseful reports whether a thread standing at position b may still
// need the current value of cell x: some location reachable from b
// (b included, within b's template) needs x before an action that
// modifies x, or a spawn (the child inherits x) is reachable first, or a
// location of the run leading to b needs x (mapEdges sends edges there).
// Flows whose reader can never use x produce no edge and enable no other
// fact, so dropping them is exact.
func (g *game) readerUseful(b, x int32) bool {
	live, ok := g.live[x]
	if !ok {
		live = g.e.liveness(int(x))
		g.live[x] = live
	}
	return live.has(int(b))
}

func (g *game) count() {
	if m := g.limit; m > 0 && len(g.pairs)+len(g.flows)+1 > m {
		g.overflow = true
	}
}
