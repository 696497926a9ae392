package interference

import (
	"context"
	"fmt"
)

// coarseGame is the fallback when the exact game has more facts than the
// bound (large programs: flow is cubic in the positions). It forgets the
// writer's position in a flow:
//
//	flowR(U, X, B)  :- pair(U, B), mod(U, X), exec(U, B).
//	flowR(W, X, B2) :- flowR(W, X, B), cf(B, B2), !mod(B, X),
//	                   wreach(W, X, A), pair(A, B), exec(B, A).
//	flowR(W, X, E)  :- flowR(W, X, S), spawn(S, E), !mod(S, X),
//	                   wreach(W, X, A), pair(A, S), exec(S, A).
//	edge(W, X, B)   :- flowR(W, X, B).
//
// wreach(W, X, A): A is reachable from W's successors in W's thread through
// positions that do not modify X (A itself may). Soundness: every exact
// fact flow(W, X, A, B) has A in wreach(W, X) (the writer moves only over
// positions not modifying X) and pair(A, B) (each flow step is a pair step
// with the same exec premise), so by induction flowR(W, X, B) holds for
// it; the reader's moves are the exact ones with the writer's position
// replaced by some position it may have. The pair rules are unchanged, so
// pairs are computed to their fixpoint first and the flows against them.
// The reader's kills are kept (Appendix A needs them); what is lost is the
// correlation between the writer's position and the reader's progress.
type coarseGame struct {
	e    *Engine
	pair *game // the pair rules (its flow part unused)

	flows map[fact3]struct{}
	work  []fact3
	// blocked flows are re-examined after every round's pair fixpoint.
	blocked []fact3
	wreach  map[[2]int32][]int32
	newEdge []fact3
}

// coarseFactor multiplies the fact bound in coarse mode: its facts are
// smaller (pairs and triples) and it is the last resort.
const coarseFactor = 4

func newCoarseGame(e *Engine) *coarseGame {
	g := newGame(e)
	g.pairsOnly = true
	g.limit = e.maxTuples * coarseFactor
	return &coarseGame{e: e, pair: g, flows: map[fact3]struct{}{}, wreach: map[[2]int32][]int32{}}
}

func (c *coarseGame) sizes() (pairs, flows int) { return len(c.pair.pairs), len(c.flows) }

func (c *coarseGame) add(f fact3) {
	if !c.pair.readerUseful(f.b, f.x) {
		return
	}
	if _, ok := c.flows[f]; ok {
		return
	}
	if m := c.pair.limit; m > 0 && len(c.flows)+len(c.pair.pairs) >= m {
		c.pair.overflow = true
		return
	}
	c.flows[f] = struct{}{}
	c.work = append(c.work, f)
	c.newEdge = append(c.newEdge, f)
}

// writerReach returns wreach(w, x).
func (c *coarseGame) writerReach(w, x int32) []int32 {
	k := [2]int32{w, x}
	if r, ok := c.wreach[k]; ok {
		return r
	}
	e := c.e
	seen := map[int32]bool{}
	var out []int32
	work := append([]int32(nil), e.pos.cf[w]...)
	for len(work) > 0 {
		a := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[a] {
			continue
		}
		seen[a] = true
		out = append(out, a)
		if !e.modifies(a, int(x)) {
			work = append(work, e.pos.cf[a]...)
		}
	}
	c.wreach[k] = out
	return out
}

// readerMay reports whether the reader at b may move while the writer of
// w's value of x stands somewhere it can.
func (c *coarseGame) readerMay(w, x, b int32) bool {
	for _, a := range c.writerReach(w, x) {
		if _, ok := c.pair.pairs[pairKey(a, b)]; ok && c.e.exec(b, a) {
			return true
		}
	}
	return false
}

func (c *coarseGame) run(ctx context.Context) ([]fact3, error) {
	// Pairs first (they do not depend on flows); new pairs also feed the
	// base flow rule through onPair.
	c.pair.onPair = func(u, b int32) {
		for _, x := range c.e.mod[u] {
			c.add(fact3{u, int32(x), b})
		}
	}
	if _, err := c.pair.run(ctx); err != nil {
		return nil, err
	}
	c.work = append(c.work, c.blocked...)
	c.blocked = nil
	steps := 0
	for len(c.work) > 0 {
		if steps++; steps%4096 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if c.pair.overflow {
			return nil, fmt.Errorf("%w (more than %d)", ErrTooManyFacts, c.pair.limit)
		}
		f := c.work[len(c.work)-1]
		c.work = c.work[:len(c.work)-1]
		if c.e.modifies(f.b, int(f.x)) {
			continue // the reader overwrites x: w's value ends here
		}
		if !c.readerMay(f.w, f.x, f.b) {
			c.blocked = append(c.blocked, f)
			continue
		}
		for _, b2 := range c.e.pos.cf[f.b] {
			c.add(fact3{f.w, f.x, b2})
		}
		for _, en := range c.e.spawn[f.b] {
			c.add(fact3{f.w, f.x, en})
		}
	}
	if c.pair.overflow {
		return nil, fmt.Errorf("%w (more than %d)", ErrTooManyFacts, c.pair.limit)
	}
	out := c.newEdge
	c.newEdge = nil
	return out, nil
}
