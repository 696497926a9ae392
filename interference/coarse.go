package interference

import (
	"context"
	"fmt"
	"math/bits"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
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
//
// Cost (the DDVerify drivers): the base flows are counted before any row
// is built, so a game whose base flows alone pass the flow bound falls
// back at once (umem, aztcd: it used to build most of 32 M flows first);
// after the exact game on bits fails its bound, its pair matrix is taken
// over (adoptPairs); a reader step adds its few successors one by one;
// the rows' reader steps run concurrently (deterministic: facts listed in
// row order); and only facts that map to a DFG edge are listed
// (Engine.emits).
type coarseGame struct {
	e     *Engine
	n     int // positions
	words int // words per row

	pm *pairMatrix

	rows    []*flowRow
	rowOf   map[[2]int32]*flowRow
	live    map[int32]bitset // cell -> readerUseful positions
	nFlows  int
	newEdge []fact3

	// ran, compatSeen: a run completed, under this compat (run).
	ran        bool
	compatSeen []bool
	// spawnSorted, succSorted: readerStep's successor lists (stepSuccs).
	spawnSorted, succSorted [][]int32

	limitBytes int
	bytes      int
	scratch    bitset // all zero between uses
	// reachList, reachWork: writerReach's scratch lists (rows are made
	// one at a time).
	reachList, reachWork []int32
	err                  error // set by addFlows past the engine's maxCoarseFlows
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
	// hitWord: the word of wreachBits where readerMay last found a
	// writer position, tried first (only the row's goroutine plays it);
	// hitIdx: the same for wreachList, the index of that position.
	hitWord, hitIdx int
}

// coarseMaxBytes bounds the coarse game's bit matrices. At 4 KiB per row
// (32,768 positions) it leaves room for some 250,000 writer rows.
const coarseMaxBytes = 1 << 30

// DefaultMaxCoarseFlows bounds the coarse game's flow facts unless
// WithMaxCoarseFlows says otherwise. Each fact becomes an entry of the
// round's fact list and then a DFG edge (tens of bytes each); past the
// bound the flow-insensitive game, whose edges of a cell form one hub
// block, is the cheaper sound answer (memcached.c: the first coarse round
// passed 20 GB in its fact list before this bound; with 32M its round
// ends at 1.6 GB of heap). Small drivers need several million flows for
// their precision (ds1286: 113 proven with 32M, 107 with 4M).
const DefaultMaxCoarseFlows = 32_000_000

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
	c.pm = newPairMatrix(e, c.alloc)
	return c
}

// adoptPairs takes over the pair matrix of the exact game on bits
// (bitgame.go), which fell back to this game after deriving its pairs:
// the pair rules are the same in both games and compat has not changed
// since, so its rows are the pairs this game would derive first. Its
// rows are counted against this game's memory bound as if allocated here.
// The flows' base facts come from the row moves of the next run, which,
// with the matrix seeded, moves every row again with all its partners
// (pairMatrix.run) and so hands each row's final mask to addFlows, as
// when the pairs are derived here.
func (c *coarseGame) adoptPairs(pm *pairMatrix) error {
	if pm == nil || !pm.seeded {
		return nil
	}
	for range pm.rows {
		if _, err := c.allocBytes(); err != nil {
			return err
		}
	}
	pm.alloc = c.alloc
	c.pm = pm
	return nil
}

func (c *coarseGame) sizes() (pairs, flows int) { return c.pm.count, c.nFlows }

func (c *coarseGame) alloc() (bitset, error) {
	if _, err := c.allocBytes(); err != nil {
		return nil, err
	}
	return newBitset(c.n), nil
}

// allocBytes counts one row against the memory bound.
func (c *coarseGame) allocBytes() (int, error) {
	c.bytes += 8 * c.words
	if c.bytes > c.limitBytes {
		return 0, fmt.Errorf("%w (coarse game over %d MiB: %d positions, %d writer rows)", ErrTooManyFacts, c.limitBytes>>20, c.n, len(c.rows))
	}
	return c.bytes, nil
}

func (c *coarseGame) useful(x int32) bitset {
	b, ok := c.live[x]
	if !ok {
		b = c.e.liveness(int(x))
		c.live[x] = b
	}
	return b
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
	// The walk's lists are scratch kept from row to row (growing them
	// anew for every row was 0.07 s of the 23 small drivers' 6.3 s
	// profile, x2); a short list kept as the row's wreach is copied out.
	list := c.reachList[:0]
	work := append(c.reachWork[:0], e.pos.cf[r.w]...)
	defer func() { c.reachList, c.reachWork = list[:0], work[:0] }()
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
		r.wreachList = slices.Clone(list)
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
	em := c.e.emits(r.x)
	// Room for the row's new readers at once (a base mask adds thousands
	// to an empty list: regrowing it was most of this function on pcwd).
	add := 0
	for i, w := range m {
		add += bits.OnesCount64(w & u[i] &^ r.set[i])
	}
	r.todo = slices.Grow(r.todo, add)
	for i, w := range m {
		w &= u[i] &^ r.set[i]
		if w == 0 {
			continue
		}
		r.set[i] |= w
		c.nFlows += bits.OnesCount64(w)
		if c.nFlows > c.e.maxCoarseFlows && c.e.maxCoarseFlows > 0 && c.err == nil {
			c.err = fmt.Errorf("%w (coarse game over %d flow facts: %d positions, %d writer rows)", ErrTooManyFacts, c.e.maxCoarseFlows, c.n, len(c.rows))
		}
		f := w
		if em != nil {
			f &= em[i]
		}
		for w != 0 {
			b := int32(i*64 + bits.TrailingZeros64(w))
			w &= w - 1
			r.todo = append(r.todo, b)
		}
		for f != 0 {
			b := int32(i*64 + bits.TrailingZeros64(f))
			f &= f - 1
			c.newEdge = append(c.newEdge, fact3{r.w, r.x, b})
		}
	}
}

// readerMay: the reader at b may move while the writer of r stands
// somewhere it can: canrun(b) and wreach ∩ pair[b] ∩ okOther(b) ≠ ∅.
func (c *coarseGame) readerMay(r *flowRow, b int32) bool {
	ex := c.pm.execSet(b)
	if ex == nil {
		return false
	}
	pb := c.pm.rows[b]
	if r.wreachBits == nil {
		// The last witness first, as for the bits below (aztcd: the
		// list scans were half of readerMay).
		if h := r.hitIdx; h < len(r.wreachList) {
			if a := int(r.wreachList[h]); pb.has(a) && ex.has(a) {
				return true
			}
		}
		for i, a := range r.wreachList {
			if pb.has(int(a)) && ex.has(int(a)) {
				r.hitIdx = i
				return true
			}
		}
		return false
	}
	// The readers a row moves are successors of each other, mostly
	// paired with the same writer positions: the word of the last witness
	// holds one again for nearly every step (aztcd: 9.44 M of 9.46 M
	// dense steps, which otherwise scanned 38 words each to the first
	// witness). Trying it first changes only where the scan starts: the
	// answer is whether any word has a witness.
	if h := r.hitWord; h < len(r.wreachBits) && r.wreachBits[h]&pb[h]&ex[h] != 0 {
		return true
	}
	for i, w := range r.wreachBits {
		if w&pb[i]&ex[i] != 0 {
			r.hitWord = i
			return true
		}
	}
	return false
}

// runParts plays a round and returns its new edge facts, in lists to be
// read one after the other.
func (c *coarseGame) runParts(ctx context.Context) ([][]fact3, error) {
	if c.ran && !coarseReplaySameCompat && slices.Equal(c.compatSeen, c.e.compat) {
		// The last run ended at the fixpoint of the rules under this very
		// compat, and they read nothing else that changes (pairs, exec,
		// the rows and their blocked readers are functions of compat and
		// the static facts): playing again derives no pair, no flow and
		// no fact, and leaves every row as it is (the blocked readers
		// stay blocked). Skipped, as the exact game on bits does. One
		// trace of the replay is kept: it took each row's blocked readers
		// from the end of the list and blocked them again, reversing the
		// list, and the order of a row's blocked readers is the order in
		// which the next run lists their facts (and so the order of the
		// DFG edges): the lists are reversed as the replay left them.
		for _, r := range c.rows {
			slices.Reverse(r.blocked)
		}
		return nil, nil
	}
	// Pairs to their fixpoint, then the base flows of each writer a:
	// flowR(a, X, B) for B in its final step mask pair(a, ·) ∩ exec(a, ·)
	// (the pair rules do not depend on the flows; every mask a row moves
	// with on the way to the fixpoint is within the final one, and the
	// final one is what the base rule asks for).
	if err := c.pm.run(ctx, nil); err != nil {
		return nil, err
	}
	listed, err := c.baseBound()
	if err != nil {
		return nil, err
	}
	// Room for the base facts addFlows lists, at once (aztcd: 23 M
	// flows; regrowing the list was most of addFlows).
	c.newEdge = slices.Grow(c.newEdge, listed)
	mask := newBitset(c.n)
	for a := range c.pm.rows {
		if a%256 == 255 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if !c.stepMask(int32(a), mask) {
			continue
		}
		for _, x := range c.e.mod[a] {
			r, err := c.row(int32(a), int32(x))
			if err != nil {
				return nil, err
			}
			c.addFlows(r, mask)
		}
		if c.err != nil {
			return nil, c.err
		}
	}

	// Flows: the reader's steps, row by row. The rows are independent
	// (a row's steps read the pairs, exec and the static caches, and
	// write only the row), so they are played concurrently, each row by
	// one goroutine from start to end, its new facts kept with the row
	// and listed in row order afterwards: the same facts in the same
	// order as one row after the other. The caches the steps read are
	// filled before (maps are only read concurrently).
	for _, r := range c.rows {
		c.useful(r.x)
		c.e.emits(r.x)
	}
	for b := range c.n {
		c.pm.execSet(int32(b))
	}
	c.stepSuccs()
	facts := make([][]fact3, len(c.rows))
	var (
		next  atomic.Int64 // the next row to play
		total atomic.Int64 // flow facts so far
		over  atomic.Bool  // total passed the bound: stop
	)
	total.Store(int64(c.nFlows))
	limit := int64(c.e.maxCoarseFlows)
	play := func() {
		var sink stepSink
		for !over.Load() {
			i := int(next.Add(1) - 1)
			if i >= len(c.rows) || i%64 == 63 && ctx.Err() != nil {
				return
			}
			r := c.rows[i]
			r.todo = append(r.todo, r.blocked...)
			r.blocked = nil
			// The row's cell is fixed: its liveness and emit rows are
			// looked up once, not per step (two map lookups per step
			// were a third of pcwd's reader steps).
			sink.live = c.live[r.x]
			sink.emit = c.e.emitAt[r.x]
			if c.e.allFacts {
				sink.emit = nil
			}
			for len(r.todo) > 0 {
				b := r.todo[len(r.todo)-1]
				r.todo = r.todo[:len(r.todo)-1]
				c.readerStep(r, int(b), &sink)
			}
			r.todo = nil // release the round's frontier
			if len(sink.facts) > 0 {
				facts[i] = slices.Clone(sink.facts)
				sink.facts = sink.facts[:0]
			}
			if sink.flows > 0 {
				if total.Add(int64(sink.flows)) > limit && limit > 0 {
					over.Store(true)
				}
				sink.flows = 0
			}
		}
	}
	workers := min(runtime.GOMAXPROCS(0), maxGameWorkers, 1+len(c.rows)/rowsPerWorker)
	var wg sync.WaitGroup
	for range workers - 1 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			play()
		}()
	}
	play()
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	c.nFlows = int(total.Load())
	if over.Load() {
		return nil, fmt.Errorf("%w (coarse game over %d flow facts: %d positions, %d writer rows)", ErrTooManyFacts, c.e.maxCoarseFlows, c.n, len(c.rows))
	}
	// A complete run: its fixpoint is that of this compat (run's
	// shortcut). Runs that fail are never resumed (the engine moves to
	// the flow-insensitive game or gives up).
	c.ran, c.compatSeen = true, append(c.compatSeen[:0], c.e.compat...)
	// The base facts, then the rows' facts in row order, as separate
	// lists: joining them copied the base list into a larger one (aztcd:
	// 6 M facts in round 1), and mapEdges reads them in this order.
	parts := append([][]fact3{c.newEdge}, facts...)
	c.newEdge = nil
	return parts, nil
}

// run is runParts with the lists joined (for the tests).
func (c *coarseGame) run(ctx context.Context) ([]fact3, error) {
	parts, err := c.runParts(ctx)
	if err != nil {
		return nil, err
	}
	return slices.Concat(parts...), nil
}

// coarseReplaySameCompat plays a run even when compat did not change
// since the last complete one (the old computation, for the test that
// compares the two).
var coarseReplaySameCompat = false

// maxGameWorkers bounds the goroutines that play the coarse game's rows;
// each has at least rowsPerWorker rows (a variable for tests).
const maxGameWorkers = 8

var rowsPerWorker = 64

// stepSink collects what one goroutine's reader steps add: new edge
// facts and the count of new flow facts.
type stepSink struct {
	facts []fact3
	flows int
	// live, emit: the current row's cell's liveness (useful) and emit
	// rows (nil emit: every fact is listed), set per row by run.
	live, emit bitset
}

// stepMask sets mask to pair(a, ·) ∩ exec(a, ·) when a modifies a global
// cell and the mask is not empty, and reports whether it did.
func (c *coarseGame) stepMask(a int32, mask bitset) bool {
	if len(c.e.mod[a]) == 0 {
		return false
	}
	ex := c.pm.execSet(a)
	if ex == nil {
		return false
	}
	pa := c.pm.rows[a]
	any := false
	for i := range mask {
		mask[i] = pa[i] & ex[i]
		any = any || mask[i] != 0
	}
	return any
}

// baseBound fails the round, before any flow row is built, when the base
// flows alone take the flow facts past the engine's bound: the facts only
// grow from there (the reader's steps add to them), so the game would
// fail at the bound anyway, after building most of its rows (umem: 32 M
// base flows from 1.2 M pairs, several seconds). The count is exact: per
// writer row, the readers of its final mask that the row does not hold
// yet, on top of the flows of earlier rounds. It also returns how many
// of those base flows addFlows will list as facts (those emits keeps).
func (c *coarseGame) baseBound() (listed int, err error) {
	limit := c.e.maxCoarseFlows
	n := c.nFlows
	mask := newBitset(c.n)
	for a := range c.pm.rows {
		if !c.stepMask(int32(a), mask) {
			continue
		}
		for _, x := range c.e.mod[a] {
			u := c.useful(int32(x))
			em := c.e.emits(int32(x))
			r := c.rowOf[[2]int32{int32(a), int32(x)}]
			for i, w := range mask {
				w &= u[i]
				if r != nil {
					w &^= r.set[i]
				}
				n += bits.OnesCount64(w)
				if em != nil {
					w &= em[i]
				}
				listed += bits.OnesCount64(w)
			}
		}
		if limit > 0 && n > limit {
			return 0, fmt.Errorf("%w (coarse game over %d flow facts: %d positions, %d base flows)", ErrTooManyFacts, limit, c.n, n)
		}
	}
	return listed, nil
}

// readerStep moves the reader of r's value standing at b, if it may,
// into sink.
func (c *coarseGame) readerStep(r *flowRow, b int, sink *stepSink) {
	e := c.e
	if e.modifies(int32(b), int(r.x)) {
		return // the reader overwrites x: w's value ends here
	}
	if !c.readerMay(r, int32(b)) {
		r.blocked = append(r.blocked, int32(b))
		return
	}
	// The successors one by one, ascending (the order addFlows would
	// list them in): a step has a handful of successors, and a row of
	// them costs a pass over all n/64 words (pcwd: most of the game).
	succ := c.spawnSorted[b]
	if !e.readerKilled(int32(b), int(r.x)) { // readerkill.go: the moves end, the spawns do not
		succ = c.succSorted[b]
	}
	u, em := sink.live, sink.emit
	for i, b2 := range succ {
		if i > 0 && succ[i-1] == b2 || !u.has(int(b2)) || r.set.has(int(b2)) {
			continue
		}
		r.set.set(int(b2))
		sink.flows++
		r.todo = append(r.todo, b2)
		if em == nil || em.has(int(b2)) {
			sink.facts = append(sink.facts, fact3{r.w, r.x, b2})
		}
	}
}

// stepSuccs fills, once, the lists readerStep walks: per position b,
// spawn(b, ·) and spawn(b, ·) with cf(b, ·), each sorted ascending (with
// repeats, which readerStep skips). readerStep sorted a fresh copy of the
// same lists at every step (aztcd: 9 M steps, a quarter of them in the
// copy and sort); the lists and so the steps are the same.
func (c *coarseGame) stepSuccs() {
	if c.succSorted != nil {
		return
	}
	e := c.e
	c.spawnSorted = make([][]int32, c.n)
	c.succSorted = make([][]int32, c.n)
	for b := range c.n {
		if len(e.spawn[b]) > 0 {
			c.spawnSorted[b] = slices.Sorted(slices.Values(e.spawn[b]))
		}
		all := append(slices.Clip(e.spawn[b]), e.pos.cf[b]...)
		if len(e.spawn[b]) > 0 || !slices.IsSorted(all) {
			all = slices.Sorted(slices.Values(all))
		}
		c.succSorted[b] = all
	}
}
