package interference

import (
	"context"
	"encoding/binary"
	"fmt"
	"math/bits"
	"slices"
)

// bitGame evaluates the exact rules (Rules, game) with the writer
// dimension of flow as bits. flow(W, X, A, B) is, for a fixed cell X, a
// reachability over the pairs (A, B): its steps (the writer moves, the
// reader moves or spawns) do not depend on W, only its seeds do
// (flow(U, X, A2, B) :- pair(U, B), mod(U, X), ...). So per cell X the
// game keeps, for every pair (A, B) it reaches, the set of writers of X
// (positions that modify X) whose value may be there, as a bit row, and
// propagates the rows along the steps, word-parallel. edge(W, X, B) is
// the union of the rows of the pairs (·, B).
//
// Why the exact game needed this: flow is 4-ary. On the small DDVerify
// drivers (ds1286: 637 positions, 92,000 pairs) it has 18 M facts, over
// the datalog engine's bound (3 M), so every round ran 1.5-2 s of datalog
// before falling back to the coarse game; the same facts are some 300,000
// pairs per cell with a writer row each here.
//
// The pairs come from pairMatrix (their rules do not depend on flow).
// The flows are recomputed per round under the current compat (it only
// grows, so the facts of earlier rounds are among them) and only the
// edge facts not returned before are returned: the same facts, round by
// round, as the incremental evaluations (tested against them).
//
// The bound (WithMaxTuples) counts pairs plus, per game played, the pairs
// its flows may reach (the rows this evaluation stores; estimated from
// the pairs before any flow is played, see bound); past it the engine
// falls back to the coarse game like the other evaluations.
type bitGame struct {
	e     *Engine
	limit int
	pm    *pairMatrix

	// The pair index: pair (a, b) is number rank[a*words+b/64] +
	// popcount(rows[a][b/64] below b); pairA/pairB invert it.
	words        int
	rank         []int32
	pairA, pairB []int32

	// cells: the global cells some position modifies, each with its
	// writers (positions, ascending).
	cells   []int32
	writers map[int32][]int32
	// group: cells with the same game (groups), numbered in the order
	// they were formed (kept rows are by this number); order: the group
	// numbers by first cell; grouped: the cells in some group.
	group   [][]int32
	order   []int
	grouped map[int32]bool
	// allWords: allGroupsWords, -1 until computed.
	allWords int
	live     map[int32]bitset // readerUseful per cell

	exec    []bitset            // exec(a, ·) by position a, this round; nil: a cannot run
	emitted map[[2]int32]bitset // (x, b) -> writer indices returned so far

	nFlows int // flow facts of the last round
	nState int // (X, A, B) states played in the last round (one X per group)
	ran    bool
	// compatSeen: compat at the last run; the facts depend on nothing
	// else that changes.
	compatSeen []bool

	// The flows kept from the last run, per group (see run): kept[gi]
	// holds the group's writer rows by pair number (W words per pair,
	// numbered by keptA/keptB, the pair index they were stored under),
	// nil when not kept; keptFlows/keptStates count its writer bits and
	// non-empty rows. noKeep: the rows outgrew bitKeepBytes once, every
	// run plays from scratch since.
	kept                  [][]uint64
	keptFlows, keptStates []int
	keptA, keptB          []int32
	noKeep                bool
}

// bitKeepBytes bounds the flow rows the exact game on bits keeps from one
// run to the next (all groups together); past it every run plays its
// games from scratch. A variable for the tests.
var bitKeepBytes = 64 << 20

// bitMaxBytes bounds the writer rows of bitGame (two per pair).
const bitMaxBytes = 256 << 20

func newBitGame(e *Engine, limit int) *bitGame {
	g := &bitGame{e: e, limit: limit, writers: map[int32][]int32{}, live: map[int32]bitset{}, emitted: map[[2]int32]bitset{}, allWords: -1}
	g.pm = newPairMatrix(e, func() (bitset, error) { return newBitset(len(e.pos.locs)), nil })
	g.words = (len(e.pos.locs) + 63) / 64
	for a := range e.pos.locs {
		for _, x := range e.mod[a] {
			x := int32(x)
			if _, ok := g.writers[x]; !ok {
				g.cells = append(g.cells, x)
			}
			if w := g.writers[x]; len(w) == 0 || w[len(w)-1] != int32(a) {
				g.writers[x] = append(w, int32(a))
			}
		}
	}
	slices.Sort(g.cells)
	return g
}

func (g *bitGame) sizes() (pairs, flows int) { return g.pm.count, g.nFlows }

func (g *bitGame) useful(x int32) bitset {
	b, ok := g.live[x]
	if !ok {
		b = g.e.liveness(int(x))
		g.live[x] = b
	}
	return b
}

func (g *bitGame) overLimit(states int) error {
	if g.limit > 0 && g.pm.count+states > g.limit {
		return fmt.Errorf("%w (more than %d: %d pairs, %d flow states)", ErrTooManyFacts, g.limit, g.pm.count, states)
	}
	return nil
}

// groups partitions the cells into those whose games are the same: the
// game of X reads X only through its writers (mod(·, X)) and the reader
// positions that may use it (useful(·, X)), so cells with the same writers
// and useful positions have the same flows, up to the name of the cell.
// Each group is played once (ds1286: 104 cells, 29 games). It returns
// the group numbers by first cell (cells ascending in a group): the order
// in which run lists the groups' facts.
//
// Only the cells some writer of which can move now are grouped (active):
// a writer u seeds a flow only from a pair (u, B) with exec(u, B), so a
// cell none of whose writers has such a pair has no seed, and its game
// (played from empty rows, or from kept rows that are empty for the same
// reason: pairs and exec only grow) reaches no state and lists no fact.
// Leaving it out changes no fact; it saves its liveness, a backward walk
// over the whole program per cell (cdu31a: thousands of cells, no flow
// at all, a fifth of its run). Activity only grows, and it is a function
// of the writers, which all cells of a group share: a group is formed
// complete, when its cells become active, and its number stays. (New
// cells never join an older group anyway: two groups playing the same
// game would still list the same facts.)
func (g *bitGame) groups() []int {
	if g.grouped == nil {
		g.grouped = map[int32]bool{}
	}
	byKey := map[string]int{}
	var key []byte
	added := false
	for _, x := range g.cells {
		if g.grouped[x] || !bitGroupAll && !g.active(x) {
			continue
		}
		g.grouped[x] = true
		key = g.groupKey(key[:0], x)
		i, ok := byKey[string(key)]
		if !ok {
			i = len(g.group)
			byKey[string(key)] = i
			g.group = append(g.group, nil)
			g.order = append(g.order, i)
			added = true
		}
		g.group[i] = append(g.group[i], x)
	}
	if added {
		slices.SortFunc(g.order, func(i, j int) int { return int(g.group[i][0]) - int(g.group[j][0]) })
	}
	return g.order
}

// bitGroupAll groups every cell, active or not (the old computation, for
// the tests that compare it with the lazy one).
var bitGroupAll = false

// active reports whether some writer u of x has a pair (u, B) with
// exec(u, B) under the current pairs and compat (see groups).
func (g *bitGame) active(x int32) bool {
	for _, u := range g.writers[x] {
		ex := g.pm.execSet(u)
		if ex == nil {
			continue
		}
		for i, w := range g.pm.rows[u] {
			if w&ex[i] != 0 {
				return true
			}
		}
	}
	return false
}

// bound is an upper bound on the states the games of a round reach: per
// group of every cell, active or not (as when every cell was grouped, so
// that the engine falls back to the coarse game exactly when it did), the
// pairs (A, B) whose reader B may use the cell. The engine falls back to
// the coarse game when it exceeds the fact bound before any flow is
// played. The inactive cells' groups are first bounded without their
// liveness (each by all pairs): when that passes, so does the exact sum,
// and their liveness walks are saved (cdu31a). Past the fact bound the
// value is only a lower bound of the exact sum that is over the bound
// too.
func (g *bitGame) bound() int {
	perReader := make([]int, len(g.pm.rows))
	all := 0
	for b, row := range g.pm.rows {
		for _, w := range row {
			perReader[b] += bits.OnesCount64(w) // pair is symmetric
		}
		all += perReader[b]
	}
	sum := func(x int32) int {
		n := 0
		for i, w := range g.useful(x) {
			for w != 0 {
				n += perReader[i*64+bits.TrailingZeros64(w)]
				w &= w - 1
			}
		}
		return n
	}
	n := 0
	for _, gi := range g.groups() {
		n += sum(g.group[gi][0])
	}
	inactive := len(g.cells) - len(g.grouped)
	if inactive == 0 || g.limit <= 0 {
		return n
	}
	if g.pm.count+n+inactive*all <= g.limit {
		return n + inactive*all
	}
	// The exact sum over the groups of every cell, up to where it passes
	// the bound: the partial sums only grow, so the round falls back
	// exactly when the full sum would have made it, and the keys and
	// liveness walks of the cells after that are saved (the drivers that
	// play the coarse game: most of this function).
	seen := map[string]bool{}
	var key []byte
	n = 0
	for _, x := range g.cells {
		key = g.groupKey(key[:0], x)
		if !seen[string(key)] {
			seen[string(key)] = true
			n += sum(x)
			if g.pm.count+n > g.limit {
				return n
			}
		}
	}
	return n
}

// index numbers the pairs.
func (g *bitGame) index() {
	n, words := len(g.e.pos.locs), g.words
	if len(g.rank) != n*words {
		g.rank = make([]int32, n*words)
	}
	// The ranks first: their total sizes pairA and pairB (grown by
	// append, they were a tenth of run on the small DDVerify drivers).
	next := int32(0)
	for a, row := range g.pm.rows {
		for i, w := range row {
			g.rank[a*words+i] = next
			next += int32(bits.OnesCount64(w))
		}
	}
	g.pairA, g.pairB = make([]int32, 0, next), make([]int32, 0, next)
	for a, row := range g.pm.rows {
		for i, w := range row {
			for w != 0 {
				b := i*64 + bits.TrailingZeros64(w)
				w &= w - 1
				g.pairA = append(g.pairA, int32(a))
				g.pairB = append(g.pairB, int32(b))
			}
		}
	}
}

// allGroupsWords is the writer row width (in words) summed over the
// groups of every cell, active or not (computed once: the groups depend
// only on static facts). keepRows decides by it, as it did when every
// cell was grouped: counting the active groups only made drivers keep
// rows they used to play from scratch (sbc60xxwdt: +40 MB and slower).
func (g *bitGame) allGroupsWords() int {
	if g.allWords >= 0 {
		return g.allWords
	}
	seen := map[string]bool{}
	var key []byte
	g.allWords = 0
	for _, x := range g.cells {
		key = g.groupKey(key[:0], x)
		if !seen[string(key)] {
			seen[string(key)] = true
			g.allWords += (len(g.writers[x]) + 63) / 64
		}
	}
	return g.allWords
}

// groupKey appends the key of x's game (see groups) to key.
func (g *bitGame) groupKey(key []byte, x int32) []byte {
	for _, w := range g.writers[x] {
		key = binary.LittleEndian.AppendUint32(key, uint32(w))
	}
	key = append(key, '|')
	for _, v := range g.useful(x) {
		key = binary.LittleEndian.AppendUint64(key, v)
	}
	key = append(key, '|')
	for _, v := range g.e.readerKillSet(int(x)) { // readerkill.go
		key = binary.LittleEndian.AppendUint64(key, v)
	}
	return key
}

// keepRows reports whether this run keeps its flow rows for the next one
// (bitKeepBytes), and renumbers the rows kept from the last run by the
// current pair index (np pairs; the pairs only grow, so each kept pair
// has a number in it).
func (g *bitGame) keepRows(np int) bool {
	if g.noKeep {
		return false
	}
	g.groups()
	grps := g.group
	if need := 8 * np * g.allGroupsWords(); need > bitKeepBytes {
		g.noKeep, g.kept, g.keptFlows, g.keptStates = true, nil, nil, nil
		return false
	}
	if g.kept == nil {
		g.kept = make([][]uint64, len(grps))
		g.keptFlows, g.keptStates = make([]int, len(grps)), make([]int, len(grps))
		return true
	}
	// Groups formed since the last run start with no rows (nil).
	for len(g.kept) < len(grps) {
		g.kept = append(g.kept, nil)
		g.keptFlows, g.keptStates = append(g.keptFlows, 0), append(g.keptStates, 0)
	}
	if len(g.keptA) == np {
		return true // the same pairs: the same numbers
	}
	// Both indexes list the pairs by (a, b) ascending (index), the old
	// pairs among the new: one merge walk numbers them anew.
	renum := make([]int32, len(g.keptA))
	nj := 0
	for j := range g.keptA {
		for g.pairA[nj] != g.keptA[j] || g.pairB[nj] != g.keptB[j] {
			nj++
		}
		renum[j] = int32(nj)
	}
	for gi, old := range g.kept {
		if old == nil {
			continue
		}
		W := (len(g.writers[grps[gi][0]]) + 63) / 64
		rows := make([]uint64, np*W)
		if W == 1 {
			// One word per pair (most groups): a plain store, not a
			// copy call per pair (mixcomwd: a tenth of the game).
			for j, nj := range renum {
				rows[nj] = old[j]
			}
		} else {
			for j, nj := range renum {
				copy(rows[int(nj)*W:int(nj)*W+W], old[j*W:j*W+W])
			}
		}
		g.kept[gi] = rows
	}
	return true
}

// newlyExec reports whether exec(a, b) holds in now and did not in old
// (execSet rows by position; nil: a cannot run).
func newlyExec(old, now []bitset, a, b int32) bool {
	return now[a] != nil && now[a].has(int(b)) && (old[a] == nil || !old[a].has(int(b)))
}

// newlyExecPairs lists, ascending, the pairs j = (a, b) with exec(a, b)
// or exec(b, a) newly holding this run (old: the last run's execSet rows):
// the pairs a resumed group may have to move again, whatever its writers
// (run tests which of the two it may move). Computed once per run: the
// per-group walks over every pair were a tenth of the game on the small
// drivers.
func (g *bitGame) newlyExecPairs(old []bitset) []int32 {
	out := []int32{}
	for j := range int32(len(g.pairA)) {
		a, b := g.pairA[j], g.pairB[j]
		if newlyExec(old, g.exec, a, b) || newlyExec(old, g.exec, b, a) {
			out = append(out, j)
		}
	}
	return out
}

// idx returns the number of pair (a, b), which must exist.
func (g *bitGame) idx(a, b int32) int32 {
	i := int(a)*g.words + int(b)/64
	return g.rank[i] + int32(bits.OnesCount64(g.pm.rows[a][b/64]&(1<<(uint(b)%64)-1)))
}

func (g *bitGame) run(ctx context.Context) ([]fact3, error) {
	if g.ran && slices.Equal(g.compatSeen, g.e.compat) {
		return nil, nil // same compat, same facts
	}
	g.ran, g.compatSeen = true, append(g.compatSeen[:0], g.e.compat...)
	if err := g.pm.run(ctx, nil); err != nil {
		return nil, err
	}
	if err := g.overLimit(g.bound()); err != nil {
		return nil, err
	}
	// A fresh index (the kept rows are numbered by the old one).
	g.keptA, g.keptB, g.pairA, g.pairB = g.pairA, g.pairB, nil, nil
	g.index()
	e := g.e
	np := len(g.pairA)
	// exec(a, ·) per position, for this round, and the last run's (a
	// fresh slice: okOther's sets are made anew every run, so the old
	// ones stay as they were).
	oldExec := g.exec
	g.exec = make([]bitset, len(e.pos.locs))
	for a := range g.exec {
		g.exec[a] = g.pm.execSet(int32(a))
	}
	// No active group: nothing to play or keep (and no reason to group
	// every cell for keepRows' decision, which a later run makes as this
	// one would have: it depends only on np, which only grows).
	keep := len(g.order) > 0 && g.keepRows(np)

	// Scratch, sized for the widest writer row: the rows (full and
	// pending) of the pairs, the union per reader, and the work list.
	maxW := 0
	for _, x := range g.cells {
		maxW = max(maxW, (len(g.writers[x])+63)/64)
	}
	if 16*np*maxW+8*len(e.pos.locs)*maxW > bitMaxBytes {
		return nil, fmt.Errorf("%w (exact game rows over %d MiB: %d pairs, %d writers of one cell)", ErrTooManyFacts, bitMaxBytes>>20, np, 64*maxW)
	}
	var full []uint64 // the rows of a group not kept (keep: none)
	if !keep {
		full = make([]uint64, np*maxW)
	}
	fr := &bitRows{pend: make([]uint64, np*maxW), inQ: newBitset(np)}
	pend, inQ := fr.pend, fr.inQ
	acc := make([]uint64, len(e.pos.locs)*maxW)
	var readers []int32
	var newly []int32 // newlyExecPairs, when a group resumes

	var out []fact3
	g.nFlows, g.nState = 0, 0
	isW := newBitset(len(e.pos.locs))
	for k, gi := range g.groups() {
		if k%16 == 15 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		grp := g.group[gi]
		x := grp[0]
		wr := g.writers[x]
		W := (len(wr) + 63) / 64
		use := g.useful(x)
		rk := e.readerKillSet(int(x)) // nil: none (readerkill.go)
		for _, u := range wr {
			isW.set(int(u))
		}
		fr.queue, fr.touched, readers = fr.queue[:0], fr.touched[:0], readers[:0]
		// The group's rows: kept from the last run (then only what is
		// new is played, see resume) or the scratch rows, from empty.
		var rows []uint64
		flows, states := 0, 0
		if !keep {
			rows = full[:np*W]
		} else {
			if g.kept[gi] == nil {
				g.kept[gi] = make([]uint64, np*W)
			} else {
				flows, states = g.keptFlows[gi], g.keptStates[gi]
			}
			rows = g.kept[gi]
		}
		fr.W, fr.rows, fr.flows, fr.states = W, rows, flows, states
		// Seeds: flow(U, X, A2, B) :- pair(U, B), mod(U, X), cf(U, A2),
		// useful(B, X), exec(U, B).
		one := make([]uint64, W)
		for wi, u := range wr {
			ex := g.exec[u]
			if ex == nil {
				continue
			}
			one[wi/64] = 1 << (uint(wi) % 64)
			for i, w := range g.pm.rows[u] {
				w &= ex[i] & use[i]
				for w != 0 {
					b := int32(i*64 + bits.TrailingZeros64(w))
					w &= w - 1
					for _, a2 := range e.pos.cf[u] {
						fr.add(g.idx(a2, b), one)
					}
				}
			}
			one[wi/64] = 0
		}
		if keep && oldExec != nil {
			// Resume from the kept rows, a fixpoint of the last run's
			// steps: every step from them is taken already, except
			// those exec allows now and did not then (exec only grows,
			// the other premises are fixed); those states move again
			// with their whole rows. With the new seeds (add, above,
			// queues only what is new), the queue then reaches the
			// least fixpoint of this run's steps, as played from empty:
			// every rule is monotone, so that fixpoint contains the old
			// one. New facts are only ever in pend, so acc and the
			// edges listed below are those of a run from scratch.
			// The pairs are those of newly (ascending, as the walk over
			// every pair that tested each of them per group).
			if newly == nil {
				newly = g.newlyExecPairs(oldExec)
			}
			for _, j := range newly {
				f := rows[int(j)*W : int(j)*W+W]
				if !slices.ContainsFunc(f, func(v uint64) bool { return v != 0 }) {
					continue
				}
				a, b := g.pairA[j], g.pairB[j]
				if (!isW.has(int(a)) && newlyExec(oldExec, g.exec, a, b)) || (!isW.has(int(b)) && newlyExec(oldExec, g.exec, b, a)) {
					p := pend[int(j)*W : int(j)*W+W]
					for i, v := range f {
						p[i] |= v
					}
					if !inQ.has(int(j)) {
						inQ.set(int(j))
						fr.queue = append(fr.queue, j)
					}
				}
			}
		}
		d := make([]uint64, W)
		for len(fr.queue) > 0 {
			j := fr.queue[len(fr.queue)-1]
			fr.queue = fr.queue[:len(fr.queue)-1]
			inQ.clear(int(j))
			p := pend[int(j)*W : int(j)*W+W]
			copy(d, p)
			clear(p)
			a, b := g.pairA[j], g.pairB[j]
			ab := acc[int(b)*W : int(b)*W+W]
			fresh := true
			for i, v := range d {
				if ab[i] != 0 {
					fresh = false
				}
				ab[i] |= v
			}
			if fresh {
				readers = append(readers, b)
			}
			// The writer moves.
			if !isW.has(int(a)) {
				if ex := g.exec[a]; ex != nil && ex.has(int(b)) {
					for _, a2 := range e.pos.cf[a] {
						if W == 1 {
							fr.add1(g.idx(a2, b), d[0])
						} else {
							fr.addWide(g.idx(a2, b), d)
						}
					}
				}
			}
			// The reader moves (or spawns).
			if !isW.has(int(b)) {
				if ex := g.exec[b]; ex != nil && ex.has(int(a)) {
					if rk == nil || !rk.has(int(b)) {
						for _, b2 := range e.pos.cf[b] {
							if use.has(int(b2)) {
								if W == 1 {
									fr.add1(g.idx(a, b2), d[0])
								} else {
									fr.addWide(g.idx(a, b2), d)
								}
							}
						}
					}
					for _, en := range e.spawn[b] {
						if use.has(int(en)) {
							if W == 1 {
								fr.add1(g.idx(a, en), d[0])
							} else {
								fr.addWide(g.idx(a, en), d)
							}
						}
					}
				}
			}
		}
		// Edges not returned before; clear the scratch.
		slices.Sort(readers)
		for _, x := range grp {
			em := e.emits(x)
			for _, b := range readers {
				if em != nil && !em.has(int(b)) {
					continue // no DFG edge at b (emits)
				}
				ab := acc[int(b)*W : int(b)*W+W]
				key := [2]int32{x, b}
				old := g.emitted[key]
				if old == nil {
					old = make(bitset, W)
					g.emitted[key] = old
				}
				for i, v := range ab {
					v &^= old[i]
					old[i] |= v
					for v != 0 {
						wi := i*64 + bits.TrailingZeros64(v)
						v &= v - 1
						out = append(out, fact3{wr[wi], x, b})
					}
				}
			}
		}
		for _, b := range readers {
			clear(acc[int(b)*W : int(b)*W+W])
		}
		flows, states = fr.flows, fr.states
		if keep {
			g.keptFlows[gi], g.keptStates[gi] = flows, states
		} else {
			for _, j := range fr.touched {
				clear(rows[int(j)*W : int(j)*W+W])
			}
		}
		g.nFlows += len(grp) * flows
		for _, u := range wr {
			isW.clear(int(u))
		}
		g.nState += states
		if err := g.overLimit(g.nState); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// bitRows is one group's flow rows while run plays it, W words per pair:
// rows, the writers found so far; pend, those not moved yet; queue (inQ),
// the pairs with pending writers; touched, the pairs whose row became
// non-empty; flows and states count the writer bits and non-empty rows.
// (A closure over run's locals before: every access went through a
// captured reference, a fifth of run on the small drivers.)
type bitRows struct {
	W              int
	rows, pend     []uint64
	inQ            bitset
	queue, touched []int32
	flows, states  int
}

// add ors the writer row s (W words) into pair j.
func (f *bitRows) add(j int32, s []uint64) {
	if f.W == 1 {
		f.add1(j, s[0])
		return
	}
	f.addWide(j, s)
}

// addWide is add for rows of several words.
func (f *bitRows) addWide(j int32, s []uint64) {
	W := f.W
	r := f.rows[int(j)*W : int(j)*W+W]
	p := f.pend[int(j)*W : int(j)*W+W]
	grew, fresh := false, true
	for i, v := range s {
		if r[i] != 0 {
			fresh = false
		}
		if d := v &^ r[i]; d != 0 {
			r[i] |= d
			p[i] |= d
			grew = true
			f.flows += bits.OnesCount64(d)
		}
	}
	if !grew {
		return
	}
	if fresh {
		f.touched = append(f.touched, j)
		f.states++
	}
	if !f.inQ.has(int(j)) {
		f.inQ.set(int(j))
		f.queue = append(f.queue, j)
	}
}

// add1 is add for one-word rows (at most 64 writers: most groups).
func (f *bitRows) add1(j int32, s uint64) {
	d := s &^ f.rows[j]
	if d == 0 {
		return
	}
	if f.rows[j] == 0 {
		f.touched = append(f.touched, j)
		f.states++
	}
	f.rows[j] |= d
	f.pend[j] |= d
	f.flows += bits.OnesCount64(d)
	if !f.inQ.has(int(j)) {
		f.inQ.set(int(j))
		f.queue = append(f.queue, j)
	}
}
