package datalog

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// StratumStats describes the work done on one stratum by one Evaluate.
type StratumStats struct {
	Stratum    int
	Relations  []string
	Recomputed bool // evaluated from scratch (see the package comment) rather than incrementally
	Iterations int  // semi-naive iterations
	Derived    int  // new tuples inserted
	Attempts   int  // head tuples produced, duplicates included
	Time       time.Duration
}

// Result reports what one successful Evaluate changed.
type Result struct {
	added   map[*Relation]Tuples
	removed map[*Relation]Tuples
	Stats   []StratumStats
}

// Added returns the tuples of an IDB relation that were not in it after the
// previous successful Evaluate (all of them on the first call).
func (r *Result) Added(rel *Relation) Tuples {
	if t, ok := r.added[rel]; ok {
		return t
	}
	return Tuples{arity: rel.arity}
}

// Removed returns the tuples of rel that the previous result held and this
// one does not. Non-empty only if a negated relation grew; Evaluate then
// also returns an error wrapping ErrRetracted.
func (r *Result) Removed(rel *Relation) Tuples {
	if t, ok := r.removed[rel]; ok {
		return t
	}
	return Tuples{arity: rel.arity}
}

// Monotone reports whether no tuple was removed.
func (r *Result) Monotone() bool { return len(r.removed) == 0 }

// NumAdded returns the total number of added IDB tuples.
func (r *Result) NumAdded() int {
	n := 0
	for _, t := range r.added {
		n += t.n
	}
	return n
}

// Evaluate brings every IDB relation to the least (stratified) fixpoint of
// the rules over the current EDB facts, continuing from the previous
// fixpoint. It returns the tuples added since the previous successful call.
//
// Errors: an unstratifiable program; ctx cancellation; ErrTupleLimit. After
// such an error the IDB contents are unspecified until a later Evaluate
// succeeds (which redoes the interrupted work). If tuples were retracted
// (see Result.Removed), Evaluate returns the valid Result together with an
// error wrapping ErrRetracted.
func (p *Program) Evaluate(ctx context.Context) (*Result, error) {
	if p.evaluating {
		return nil, errors.New("datalog: Evaluate called recursively")
	}
	if !p.strataOK {
		if err := p.stratify(); err != nil {
			return nil, err
		}
	}
	p.evaluating = true
	defer func() { p.evaluating = false }()
	if len(p.bounds.old) < len(p.rels) {
		p.bounds.old = make([]int, len(p.rels))
		p.bounds.cur = make([]int, len(p.rels))
	}
	res := &Result{added: map[*Relation]Tuples{}, removed: map[*Relation]Tuples{}}
	for _, s := range p.strata {
		full := false
		for _, r := range s.rels {
			full = full || r.stale || r.renumbered
		}
		for _, r := range s.inputs {
			full = full || r.renumbered
		}
		for _, r := range s.negated {
			// A negated relation that grew can falsify earlier derivations:
			// only a recomputation is sound.
			full = full || r.st.n > r.lastLen
		}
		st, err := p.evalStratum(ctx, s, full)
		res.Stats = append(res.Stats, st)
		if err != nil {
			return nil, err
		}
	}
	var retracted []string
	for _, r := range p.rels {
		if r.kind == IDB {
			p.diff(r, res)
			if t, ok := res.removed[r]; ok {
				retracted = append(retracted, fmt.Sprintf("%s (%d)", r.name, t.n))
			}
		}
		r.lastLen = r.st.n
		r.snapshot = nil
		r.renumbered = false
	}
	if len(retracted) > 0 {
		return res, fmt.Errorf("%w: %s", ErrRetracted, strings.Join(retracted, ", "))
	}
	return res, nil
}

// diff records rel's added and removed tuples relative to the last
// successful Evaluate.
func (p *Program) diff(r *Relation, res *Result) {
	if !r.renumbered {
		if r.st.n > r.lastLen {
			res.added[r] = r.st.tuples(r.lastLen, r.st.n)
		}
		return
	}
	old, oldLen := r.snapshot, r.snapshotLen
	inOld := func(t []uint32) bool {
		row := old.find(t)
		return row >= 0 && row < oldLen
	}
	add := Tuples{arity: r.arity}
	for i := 0; i < r.st.n; i++ {
		if t := r.st.row(i); !inOld(t) {
			add.data = append(add.data, t...)
			add.n++
		}
	}
	if add.n > 0 {
		res.added[r] = add
	}
	rem := Tuples{arity: r.arity}
	for i := 0; i < oldLen; i++ {
		if t := old.row(i); !r.st.contains(t) {
			rem.data = append(rem.data, t...)
			rem.n++
		}
	}
	if rem.n > 0 {
		res.removed[r] = rem
	}
}

// bounds holds, per relation id, the semi-naive row ranges of the current
// iteration: old = [0, old), delta = [old, cur), full = [0, cur).
type bounds struct{ old, cur []int }

func (p *Program) evalStratum(ctx context.Context, s *stratum, full bool) (StratumStats, error) {
	start := time.Now()
	stats := StratumStats{Stratum: s.index, Recomputed: full}
	for _, r := range s.rels {
		stats.Relations = append(stats.Relations, r.name)
	}
	own := map[*Relation]bool{}
	for _, r := range s.rels {
		own[r] = true
		if full {
			// Rows [0, lastLen) lose their numbering: keep them to diff
			// against, and mark the relation so that readers recompute.
			// With lastLen == 0 there is nothing to keep or invalidate.
			if !r.renumbered && r.lastLen > 0 {
				r.snapshot, r.snapshotLen = r.st, r.lastLen
				r.renumbered = true
			}
			p.idbTuples -= r.st.n
			r.st = newStore(r.arity)
		}
	}
	rels := append([]*Relation(nil), s.rels...)
	for _, r := range s.inputs {
		if !own[r] {
			rels = append(rels, r)
		}
	}
	b := &p.bounds
	for _, r := range rels {
		b.old[r.id], b.cur[r.id] = r.lastLen, r.st.n
		if full {
			b.old[r.id] = 0
		}
	}
	x := &runner{p: p, ctx: ctx}
	plans := p.planStratum(s)
	for first := true; ; first = false {
		pending := first && full && len(plans.bodiless) > 0
		for _, r := range rels {
			pending = pending || b.old[r.id] < b.cur[r.id]
		}
		if !pending {
			break
		}
		if err := ctx.Err(); err != nil {
			stats.Time = time.Since(start)
			return stats, err
		}
		stats.Iterations++
		for _, r := range rels {
			r.st.syncBtrees()
		}
		if first && full {
			for _, pl := range plans.bodiless {
				if err := x.run(pl); err != nil {
					stats.Derived += x.derived
					stats.Time = time.Since(start)
					return stats, err
				}
			}
		}
		for _, pl := range plans.variants {
			if !pl.runnable(b) {
				continue
			}
			if err := x.run(pl); err != nil {
				stats.Derived += x.derived
				stats.Time = time.Since(start)
				return stats, err
			}
		}
		for _, r := range rels {
			b.old[r.id], b.cur[r.id] = b.cur[r.id], r.st.n
		}
	}
	for _, r := range s.rels {
		r.stale = false
	}
	stats.Derived += x.derived
	stats.Attempts += x.attempts
	stats.Time = time.Since(start)
	return stats, nil
}

// runner executes plans: a nested-loop join over the plan's steps with one
// binding slot per rule variable.
type runner struct {
	p        *Program
	ctx      context.Context
	pl       *plan
	vars     []uint32
	pend     []uint32 // queued head tuples (see emit)
	pendN    int
	pendFP   []uint32
	sink     uint64 // keeps the touching loads of flush alive
	derived  int
	attempts int
	work     uint
}

func (x *runner) run(pl *plan) error {
	x.pl = pl
	b := &x.p.bounds
	for i := range pl.steps {
		st := &pl.steps[i]
		if st.kind != stepPos {
			continue
		}
		id := st.rel.id
		switch st.rng {
		case rangeOld:
			st.lo, st.hi = 0, b.old[id]
		case rangeDelta:
			st.lo, st.hi = b.old[id], b.cur[id]
		case rangeFull:
			st.lo, st.hi = 0, b.cur[id]
		}
		st.st = st.rel.st
		if st.idxMask != 0 && st.hix == nil && st.bix == nil {
			st.hix, st.bix = st.st.indexFor(st.idxMask, x.p.indexKind)
		}
	}
	for i := range pl.steps {
		if st := &pl.steps[i]; st.kind == stepNeg {
			st.st = st.rel.st
			if st.idxMask != 0 && st.hix == nil {
				st.hix, _ = st.st.indexFor(st.idxMask, HashIndexes)
			}
		}
	}
	if cap(x.vars) < pl.rule.nvars {
		x.vars = make([]uint32, pl.rule.nvars)
	}
	x.vars = x.vars[:pl.rule.nvars]
	if err := x.step(0); err != nil {
		x.pend, x.pendN = x.pend[:0], 0
		return err
	}
	return x.flush()
}

func (x *runner) value(a arg) uint32 {
	if a.slot == argConst {
		return a.val
	}
	return x.vars[a.slot]
}

func (x *runner) tick() error {
	x.work++
	if x.work&0xffff == 0 {
		return x.ctx.Err()
	}
	return nil
}

// match applies a positive step's column operations to row t.
func (x *runner) match(s *step, t []uint32) bool {
	for _, op := range s.ops {
		switch op.op {
		case opBind:
			x.vars[op.slot] = t[op.col]
		case opCheckSlot:
			if x.vars[op.slot] != t[op.col] {
				return false
			}
		case opCheckConst:
			if op.val != t[op.col] {
				return false
			}
		}
	}
	return true
}

func (x *runner) negOK(s *step) bool {
	if s.probe { // every column bound: a set lookup
		for k, a := range s.key {
			s.keyBuf[k] = x.value(a)
		}
		return !s.st.contains(s.keyBuf)
	}
	if s.hix == nil { // only wildcards
		return s.st.n == 0
	}
	for k, a := range s.key {
		s.keyBuf[k] = x.value(a)
	}
	return s.hix.head(s.st, s.keyBuf) < 0
}

func (x *runner) step(i int) error {
	pl := x.pl
	if i == len(pl.steps) {
		return x.emit()
	}
	s := &pl.steps[i]
	switch s.kind {
	case stepNeq:
		if x.value(s.args[0]) == x.value(s.args[1]) {
			return nil
		}
		return x.step(i + 1)
	case stepNeg:
		if !x.negOK(s) {
			return nil
		}
		return x.step(i + 1)
	}
	st := s.st
	if s.probe { // key == the whole tuple, in column order
		for k, a := range s.key {
			s.keyBuf[k] = x.value(a)
		}
		if s.lo == 0 && s.hi == st.n {
			if st.contains(s.keyBuf) { // may use the bitmap
				return x.step(i + 1)
			}
			return nil
		}
		if r := st.find(s.keyBuf); r >= s.lo && r < s.hi {
			return x.step(i + 1)
		}
		return nil
	}
	if s.hix == nil && s.bix == nil { // scan of a row range
		for r := s.lo; r < s.hi; r++ {
			if err := x.tick(); err != nil {
				return err
			}
			if x.match(s, st.row(r)) {
				if err := x.step(i + 1); err != nil {
					return err
				}
			}
		}
		return nil
	}
	for k, a := range s.key {
		s.keyBuf[k] = x.value(a)
	}
	if s.bix != nil {
		var err error
		k := packKey(s.keyBuf)
		s.bix.tree.AscendRange(bitem{k, int32(s.lo)}, bitem{k, int32(s.hi)}, func(it bitem) bool {
			if err = x.tick(); err != nil {
				return false
			}
			if x.match(s, st.row(int(it.row))) {
				err = x.step(i + 1)
			}
			return err == nil
		})
		return err
	}
	ix := s.hix
	for r := ix.head(st, s.keyBuf); r >= 0; r = ix.nextRow(r) {
		if r >= s.hi {
			continue // appended during this iteration
		}
		if r < s.lo {
			break // chains are newest first
		}
		if err := x.tick(); err != nil {
			return err
		}
		if x.match(s, st.row(r)) {
			if err := x.step(i + 1); err != nil {
				return err
			}
		}
	}
	return nil
}

// emit queues the head tuple; flush inserts queued tuples in batches.
// Delaying inserts within an iteration changes nothing (rows appended
// during an iteration are invisible to it), and batching lets the
// independent hash-table loads of a batch overlap: one pass touches each
// tuple's slot, the second inserts — the probes are cache misses on large
// relations, and this hides most of their latency.
func (x *runner) emit() error {
	ru := x.pl.rule
	for _, a := range ru.head.args {
		x.pend = append(x.pend, x.value(a))
	}
	x.pendN++
	x.attempts++
	if x.pendN >= emitBatch {
		return x.flush()
	}
	return nil
}

const emitBatch = 256

func (x *runner) flush() error {
	if x.pendN == 0 {
		return nil
	}
	head := x.pl.rule.head.rel
	st, ar := head.st, head.arity
	n := x.pendN
	x.pendN = 0
	fps := x.pendFP[:0]
	mask := len(st.set) - 1
	var sink uint64
	for i := 0; i < n; i++ {
		fp := uint32(hashVals(x.pend[i*ar : (i+1)*ar]))
		fps = append(fps, fp)
		sink += st.set[int(fp)&mask]
	}
	x.pendFP = fps
	x.sink += sink
	p := x.p
	for i := 0; i < n; i++ {
		if st.n >= maxRows {
			x.pend = x.pend[:0]
			return fmt.Errorf("%w: relation %s reached %d rows", ErrTupleLimit, head.name, maxRows)
		}
		if !st.insertHashed(x.pend[i*ar:(i+1)*ar], fps[i]) {
			continue
		}
		x.derived++
		p.idbTuples++
		if p.maxTuples > 0 && p.idbTuples > p.maxTuples {
			x.pend = x.pend[:0]
			return fmt.Errorf("%w: more than %d IDB tuples (deriving %s)", ErrTupleLimit, p.maxTuples, head.name)
		}
	}
	x.pend = x.pend[:0]
	return nil
}
