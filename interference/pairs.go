package interference

import (
	"context"
	"math/bits"
)

// pairMatrix evaluates the pair rules (pairRules) on bit rows, for the
// coarse game (coarse.go) and the exact game on bits (bitgame.go):
//
//	pair(E, C)  :- spawn(S, E), cf(S, C).
//	pair(A, E)  :- pair(A, S), spawn(S, E), exec(S, A).
//	pair(A2, B) :- pair(A, B), cf(A, A2), exec(A, B).
//	pair(B, A)  :- pair(A, B).
//
// with no pair of two positions of the singleton main. pair is one row
// per position (the positions it pairs with). exec(A, B) factors as
// canrun(A) and a set of B that depends only on A's enabled class and
// acquired lock (okOther), so a step of row A moves all its partners at
// once with a word-wise AND.
//
// Rounds: compat only grows, so every row is moved again in full at the
// start of a round, and new facts propagate through a work list (a row is
// moved again as a whole whenever it gains partners: the same word
// operations as a delta row would cost, without a second P×P matrix).
type pairMatrix struct {
	e     *Engine
	n     int
	alloc func() (bitset, error)

	rows    []bitset // by position
	inQueue []bool
	queue   []int32
	mainSet bitset // positions of the singleton main (no main-main pairs)
	count   int    // pair facts
	seeded  bool
	scratch bitset // all zero between uses

	ok map[okKey]bitset // okOther per (class, acquired lock), this round
	// exec/execOK: execSet per position, this round (the okKey lookup
	// per reader step was a fifth of pcwd's coarse game). Filled before
	// the coarse game's concurrent rows, which only read it.
	exec   []bitset
	execOK []bool
	// delta[a]: the partners a gained since it last moved in this run
	// (nil: every move takes the whole row; see run). idx: run's scratch
	// list of a mask's non-zero words.
	delta [][]uint64
	idx   []int
}

// pairDeltaBytes bounds the delta rows (one more bit matrix).
const pairDeltaBytes = 64 << 20

// pairsFullMoves makes every move take the whole row (the computation
// before the delta rows, for the test that compares the two).
var pairsFullMoves = false

type okKey struct{ class, acq int }

func newPairMatrix(e *Engine, alloc func() (bitset, error)) *pairMatrix {
	return &pairMatrix{e: e, n: len(e.pos.locs), alloc: alloc}
}

// okOther returns {B : compat(B, class) ∧ !atomic(B) ∧ lock acq not held at B}:
// the positions the other thread may stand at while a thread whose next
// action has enabled class `class` and acquires `acq` moves.
func (m *pairMatrix) okOther(class, acq int) bitset {
	k := okKey{class, acq}
	if b, ok := m.ok[k]; ok {
		return b
	}
	e := m.e
	nc := len(e.classes)
	b := newBitset(m.n)
	for p := 0; p < m.n; p++ {
		if e.compat[p*nc+class] && !e.atomic[p] && (acq < 0 || !e.holds[p].has(acq)) {
			b.set(p)
		}
	}
	m.ok[k] = b
	return b
}

// execSet returns {B : exec(a, B)}, nil when a cannot run.
func (m *pairMatrix) execSet(a int32) bitset {
	if m.execOK != nil && m.execOK[a] {
		return m.exec[a]
	}
	e := m.e
	cl := e.enClass[a]
	var ex bitset
	if e.compat[int(a)*len(e.classes)+cl] {
		ex = m.okOther(cl, e.acq[a])
	}
	if m.execOK != nil {
		m.exec[a], m.execOK[a] = ex, true
	}
	return ex
}

func (m *pairMatrix) enqueue(a int32) {
	if !m.inQueue[a] {
		m.inQueue[a] = true
		m.queue = append(m.queue, a)
	}
}

// addPairs adds pair(a, b) and pair(b, a) for every b in set.
func (m *pairMatrix) addPairs(a int32, set bitset) {
	added := false
	for i, w := range set {
		if w != 0 && m.addWord(a, i, w) {
			added = true
		}
	}
	if added {
		m.enqueue(a)
	}
}

// addPairsAt is addPairs(a, set) for a set whose non-zero words are
// among idx.
func (m *pairMatrix) addPairsAt(a int32, set bitset, idx []int) {
	added := false
	for _, i := range idx {
		if m.addWord(a, i, set[i]) {
			added = true
		}
	}
	if added {
		m.enqueue(a)
	}
}

// addWord adds pair(a, b) and pair(b, a) for the b of word i of a set
// (main's own positions left out for a main position), records them in
// the delta rows when a run keeps them, and queues each b that gained a;
// it reports whether a's row gained any.
func (m *pairMatrix) addWord(a int32, i int, w uint64) bool {
	row := m.rows[a]
	if m.e.inMain[a] {
		w &^= m.mainSet[i]
	}
	w &^= row[i]
	if w == 0 {
		return false
	}
	row[i] |= w
	if m.delta != nil {
		m.delta[a][i] |= w
	}
	m.count += bits.OnesCount64(w)
	for w != 0 {
		b := int32(i*64 + bits.TrailingZeros64(w))
		w &= w - 1
		if b == a {
			continue // the diagonal is its own transpose
		}
		if !m.rows[b].has(int(a)) {
			m.rows[b].set(int(a))
			if m.delta != nil {
				bitset(m.delta[b]).set(int(a))
			}
			m.count++
			m.enqueue(b)
		}
	}
	return true
}

func (m *pairMatrix) addPair(a, b int32) {
	if m.scratch == nil {
		m.scratch = newBitset(m.n)
	}
	m.scratch.set(int(b))
	m.addPairs(a, m.scratch)
	m.scratch.clear(int(b))
}

// run derives the pairs to their fixpoint under the current compat. moved,
// when not nil, is called for every step of a row: the thread at a moves
// while the other stands at any position of the row mask (pair(a, B) ∧
// exec(a, B); the mask is only valid during the call).
func (m *pairMatrix) run(ctx context.Context, moved func(a int32, mask bitset) error) error {
	e := m.e
	m.ok = map[okKey]bitset{} // compat changed
	m.exec, m.execOK = make([]bitset, m.n), make([]bool, m.n)
	// Delta moves: within a run exec is fixed, so a row that gained
	// partners since it last moved needs to move only with those (the
	// others' steps were taken then, under the same exec, and the rules
	// are monotone): the same least fixpoint, with each pop touching only
	// the words of its new partners (aztcd round 1: 665,000 pops of
	// 5,173 rows, each re-moving all 81 words of its row to every
	// successor). A new run (compat grew) moves every row in full, as
	// before: its delta is its whole row.
	useDelta := moved == nil && !pairsFullMoves && m.n*len(newBitset(m.n))*8 <= pairDeltaBytes
	if useDelta && m.delta == nil {
		m.delta = make([][]uint64, m.n)
		for a := range m.delta {
			m.delta[a] = newBitset(m.n)
		}
	} else if !useDelta {
		m.delta = nil
	}
	if !m.seeded {
		m.seeded = true
		m.rows = make([]bitset, m.n)
		m.inQueue = make([]bool, m.n)
		m.mainSet = newBitset(m.n)
		for p := range m.rows {
			var err error
			if m.rows[p], err = m.alloc(); err != nil {
				return err
			}
			if e.inMain[p] {
				m.mainSet.set(p)
			}
		}
		for s := range e.pos.locs {
			for _, en := range e.spawn[s] {
				for _, a := range e.pos.cf[s] {
					m.addPair(en, a)
				}
			}
		}
	} else {
		// exec may allow more now: every row moves again with all its
		// partners.
		for a := range m.rows {
			if m.delta != nil {
				copy(m.delta[a], m.rows[a])
			}
			m.enqueue(int32(a))
		}
	}
	mask := newBitset(m.n)
	steps := 0
	for len(m.queue) > 0 {
		if steps++; steps%1024 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		a := m.queue[len(m.queue)-1]
		m.queue = m.queue[:len(m.queue)-1]
		m.inQueue[a] = false
		ex := m.execSet(a)
		if m.delta != nil {
			// Only the new partners B move, with exec(a, B); those exec
			// blocks wait for the next run, which moves every row in full.
			d := m.delta[a]
			idx := m.idx[:0]
			for i, w := range d {
				if w == 0 {
					continue
				}
				d[i] = 0
				if ex == nil {
					continue
				}
				if w &= ex[i]; w != 0 {
					mask[i] = w
					idx = append(idx, i)
				}
			}
			m.idx = idx
			if len(idx) == 0 {
				continue
			}
			for _, a2 := range e.pos.cf[a] {
				m.addPairsAt(a2, mask, idx)
			}
			for _, en := range e.spawn[a] {
				m.addPairsAt(en, mask, idx)
			}
			for _, i := range idx {
				mask[i] = 0
			}
			continue
		}
		if ex == nil {
			continue // a cannot move (yet); a later round re-examines it
		}
		pa := m.rows[a]
		any := false
		for i := range mask {
			mask[i] = pa[i] & ex[i]
			any = any || mask[i] != 0
		}
		if !any {
			continue
		}
		for _, a2 := range e.pos.cf[a] {
			m.addPairs(a2, mask)
		}
		for _, en := range e.spawn[a] {
			m.addPairs(en, mask)
		}
		if moved != nil {
			if err := moved(a, mask); err != nil {
				return err
			}
		}
	}
	return nil
}
