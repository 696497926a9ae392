package interference

import (
	"context"
	"fmt"
	"math/bits"
	"slices"
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
//
// Representation. Both relations are bit matrices: pair as one row per
// position (the positions it pairs with), flowR as one row per writer
// (W, X) over reader positions B. exec(A, B) factors as canrun(A) and a
// set of B that depends only on A's enabled class and acquired lock
// (okOther), so a pair step of row A moves all its partners at once with
// a word-wise AND, and the reader's premise of a flow step is one
// intersection test wreach(W, X) ∩ pair[B] ∩ okOther(B) ≠ ∅. On a driver
// with 13,000 positions this is 8 M pairs in 21 MB instead of hash sets
// of several GB.
//
// Rounds: compat only grows, so every row is re-examined in full at the
// start of a round (pairs: each row's partners under the new exec; flows:
// the readers that were blocked), and new facts propagate through work
// lists (pairs: a row is moved again as a whole whenever it gains
// partners, the same word operations as a delta row would cost, without a
// second P×P matrix; flows: lists of new readers, dropped after each
// round). wreach is a list when short.
type coarseGame struct {
	e     *Engine
	n     int // positions
	words int // words per row

	pairs   []bitset // by position
	inQueue []bool
	queue   []int32
	mainSet bitset // positions of the singleton main (no main-main pairs)
	nPairs  int

	rows    []*flowRow
	rowOf   map[[2]int32]*flowRow
	live    map[int32]bitset // cell -> readerUseful positions
	nFlows  int
	newEdge []fact3

	ok map[okKey]bitset // okOther per (class, acquired lock), this round

	limitBytes int
	bytes      int
	seeded     bool
	scratch    bitset // all zero between uses
}

// flowRow is flowR(w, x, ·).
type flowRow struct {
	w, x    int32
	set     bitset  // readers B with flowR(w, x, B)
	todo    []int32 // readers whose step is still to be taken
	blocked []int32 // readers whose step exec blocked (re-examined next round)
	// wreach(w, x) as a list when short, else as a bit row.
	wreachList []int32
	wreachBits bitset
}

type okKey struct{ class, acq int }

// coarseMaxBytes bounds the coarse game's bit matrices. At 4 KiB per row
// (32,768 positions) it leaves room for some 250,000 writer rows.
const coarseMaxBytes = 1 << 30

// coarseBytes estimates the coarse game's bit matrices: a pair row per
// position and, at most, a flow row per (position, cell it writes).
func coarseBytes(e *Engine) int {
	n := len(e.pos.locs)
	rows := n
	for _, m := range e.mod {
		rows += len(m)
	}
	return rows * 8 * ((n + 63) / 64)
}

func newCoarseGame(e *Engine) *coarseGame {
	n := len(e.pos.locs)
	c := &coarseGame{
		e: e, n: n, words: (n + 63) / 64,
		rowOf: map[[2]int32]*flowRow{}, live: map[int32]bitset{},
		limitBytes: coarseMaxBytes,
	}
	return c
}

func (c *coarseGame) sizes() (pairs, flows int) { return c.nPairs, c.nFlows }

func (c *coarseGame) alloc() (bitset, error) {
	c.bytes += 8 * c.words
	if c.bytes > c.limitBytes {
		return nil, fmt.Errorf("%w (coarse game over %d MiB: %d positions, %d writer rows)", ErrTooManyFacts, c.limitBytes>>20, c.n, len(c.rows))
	}
	return newBitset(c.n), nil
}

// okOther returns {B : compat(B, class) ∧ !atomic(B) ∧ lock acq not held at B}:
// the positions the other thread may stand at while a thread whose next
// action has enabled class `class` and acquires `acq` moves.
func (c *coarseGame) okOther(class, acq int) bitset {
	k := okKey{class, acq}
	if b, ok := c.ok[k]; ok {
		return b
	}
	e := c.e
	nc := len(e.classes)
	b := newBitset(c.n)
	for p := 0; p < c.n; p++ {
		if e.compat[p*nc+class] && !e.atomic[p] && (acq < 0 || !e.holds[p].has(acq)) {
			b.set(p)
		}
	}
	c.ok[k] = b
	return b
}

// execSet returns {B : exec(a, B)}, nil when a cannot run.
func (c *coarseGame) execSet(a int32) bitset {
	e := c.e
	cl := e.enClass[a]
	if !e.compat[int(a)*len(e.classes)+cl] {
		return nil
	}
	return c.okOther(cl, e.acq[a])
}

func (c *coarseGame) useful(x int32) bitset {
	b, ok := c.live[x]
	if !ok {
		b = c.e.liveness(int(x))
		c.live[x] = b
	}
	return b
}

func (c *coarseGame) enqueue(a int32) {
	if !c.inQueue[a] {
		c.inQueue[a] = true
		c.queue = append(c.queue, a)
	}
}

// addPairs adds pair(a, b) and pair(b, a) for every b in m.
func (c *coarseGame) addPairs(a int32, m bitset) {
	row := c.pairs[a]
	isMain := c.e.inMain[a]
	added := false
	for i, w := range m {
		if isMain {
			w &^= c.mainSet[i]
		}
		w &^= row[i]
		if w == 0 {
			continue
		}
		row[i] |= w
		added = true
		c.nPairs += bits.OnesCount64(w)
		for w != 0 {
			b := int32(i*64 + bits.TrailingZeros64(w))
			w &= w - 1
			if b == a {
				continue // the diagonal is its own transpose
			}
			if !c.pairs[b].has(int(a)) {
				c.pairs[b].set(int(a))
				c.nPairs++
				c.enqueue(b)
			}
		}
	}
	if added {
		c.enqueue(a)
	}
}

func (c *coarseGame) addPair(a, b int32) {
	if c.scratch == nil {
		c.scratch = newBitset(c.n)
	}
	c.scratch.set(int(b))
	c.addPairs(a, c.scratch)
	c.scratch.clear(int(b))
}

// row returns flowR(w, x, ·), creating it.
func (c *coarseGame) row(w, x int32) (*flowRow, error) {
	k := [2]int32{w, x}
	if r, ok := c.rowOf[k]; ok {
		return r, nil
	}
	r := &flowRow{w: w, x: x}
	var err error
	if r.set, err = c.alloc(); err != nil {
		return nil, err
	}
	if err := c.writerReach(r); err != nil {
		return nil, err
	}
	c.rowOf[k] = r
	c.rows = append(c.rows, r)
	return r, nil
}

// writerReach fills r's wreach: the positions reachable from w's
// successors through positions that do not modify x (those that do are
// included).
func (c *coarseGame) writerReach(r *flowRow) error {
	e := c.e
	if c.scratch == nil {
		c.scratch = newBitset(c.n)
	}
	seen := c.scratch
	var list []int32
	work := append([]int32(nil), e.pos.cf[r.w]...)
	for len(work) > 0 {
		a := work[len(work)-1]
		work = work[:len(work)-1]
		if seen.has(int(a)) {
			continue
		}
		seen.set(int(a))
		list = append(list, a)
		if !e.modifies(a, int(r.x)) {
			work = append(work, e.pos.cf[a]...)
		}
	}
	if 2*len(list) <= c.words { // 4 bytes per entry vs 8 per word
		r.wreachList = slices.Clip(list)
		c.bytes += 4 * len(list)
	} else {
		bs, err := c.alloc()
		if err != nil {
			return err
		}
		copy(bs, seen)
		r.wreachBits = bs
	}
	for _, a := range list {
		seen.clear(int(a))
	}
	return nil
}

// addFlows adds flowR(r.w, r.x, B) for the B in m that may use the value.
func (c *coarseGame) addFlows(r *flowRow, m bitset) {
	u := c.useful(r.x)
	for i, w := range m {
		w &= u[i] &^ r.set[i]
		if w == 0 {
			continue
		}
		r.set[i] |= w
		c.nFlows += bits.OnesCount64(w)
		for w != 0 {
			b := int32(i*64 + bits.TrailingZeros64(w))
			w &= w - 1
			r.todo = append(r.todo, b)
			c.newEdge = append(c.newEdge, fact3{r.w, r.x, b})
		}
	}
}

// readerMay: the reader at b may move while the writer of r stands
// somewhere it can: canrun(b) and wreach ∩ pair[b] ∩ okOther(b) ≠ ∅.
func (c *coarseGame) readerMay(r *flowRow, b int32) bool {
	ex := c.execSet(b)
	if ex == nil {
		return false
	}
	pb := c.pairs[b]
	if r.wreachBits == nil {
		for _, a := range r.wreachList {
			if pb.has(int(a)) && ex.has(int(a)) {
				return true
			}
		}
		return false
	}
	for i, w := range r.wreachBits {
		if w&pb[i]&ex[i] != 0 {
			return true
		}
	}
	return false
}

func (c *coarseGame) run(ctx context.Context) ([]fact3, error) {
	e := c.e
	c.ok = map[okKey]bitset{} // compat changed
	if !c.seeded {
		c.seeded = true
		c.pairs = make([]bitset, c.n)
		c.inQueue = make([]bool, c.n)
		c.mainSet = newBitset(c.n)
		for p := range c.pairs {
			var err error
			if c.pairs[p], err = c.alloc(); err != nil {
				return nil, err
			}
			if e.inMain[p] {
				c.mainSet.set(p)
			}
		}
		for s := range e.pos.locs {
			for _, en := range e.spawn[s] {
				for _, a := range e.pos.cf[s] {
					c.addPair(en, a)
				}
			}
		}
	} else {
		// exec may allow more now: every row moves again with all its
		// partners.
		for a := range c.pairs {
			c.enqueue(int32(a))
		}
	}

	// Pairs to their fixpoint; each executable step of a thread at a
	// writer position also yields the base flows.
	m := newBitset(c.n)
	steps := 0
	for len(c.queue) > 0 {
		if steps++; steps%1024 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		a := c.queue[len(c.queue)-1]
		c.queue = c.queue[:len(c.queue)-1]
		c.inQueue[a] = false
		ex := c.execSet(a)
		if ex == nil {
			continue // a cannot move (yet); a later round re-examines it
		}
		pa := c.pairs[a]
		any := false
		for i := range m {
			m[i] = pa[i] & ex[i]
			any = any || m[i] != 0
		}
		if !any {
			continue
		}
		for _, a2 := range e.pos.cf[a] {
			c.addPairs(a2, m)
		}
		for _, en := range e.spawn[a] {
			c.addPairs(en, m)
		}
		for _, x := range e.mod[a] {
			r, err := c.row(a, int32(x))
			if err != nil {
				return nil, err
			}
			c.addFlows(r, m)
		}
	}

	// Flows: the reader's steps, row by row.
	succ := newBitset(c.n)
	for _, r := range c.rows {
		if steps++; steps%64 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		r.todo = append(r.todo, r.blocked...)
		r.blocked = nil
		for len(r.todo) > 0 {
			b := r.todo[len(r.todo)-1]
			r.todo = r.todo[:len(r.todo)-1]
			c.readerStep(r, int(b), succ)
		}
		r.todo = nil // release the round's frontier
	}
	out := c.newEdge
	c.newEdge = nil
	return out, nil
}

// readerStep moves the reader of r's value standing at b, if it may.
// succ is an all-zero scratch row, left all-zero.
func (c *coarseGame) readerStep(r *flowRow, b int, succ bitset) {
	e := c.e
	if e.modifies(int32(b), int(r.x)) {
		return // the reader overwrites x: w's value ends here
	}
	if !c.readerMay(r, int32(b)) {
		r.blocked = append(r.blocked, int32(b))
		return
	}
	for _, b2 := range e.pos.cf[b] {
		succ.set(int(b2))
	}
	for _, en := range e.spawn[b] {
		succ.set(int(en))
	}
	c.addFlows(r, succ)
	for _, b2 := range e.pos.cf[b] {
		succ.clear(int(b2))
	}
	for _, en := range e.spawn[b] {
		succ.clear(int(en))
	}
}
