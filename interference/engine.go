package interference

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"

	"chorus/cfg"
	"chorus/datalog"
)

// Truth is the value of an observable condition at a location under the
// current invariant.
type Truth uint8

const (
	Unknown Truth = iota // may hold or not
	True                 // holds in every state of the invariant
	False                // holds in none
	Bottom               // the location is unreachable
)

// Cells is what the engine needs from the data flow graph: the variable
// cells (identified by small non-negative integers) that an action
// modifies and those whose incoming edges a location's invariant needs.
type Cells interface {
	// Mod lists the cells act(l) may modify; an assume counts as
	// modifying the cells of the variables it reads.
	Mod(l *cfg.Loc) []int
	// Uses lists the cells whose value at l the invariant of l needs
	// (those an edge into l may carry).
	Uses(l *cfg.Loc) []int
	// CellOf returns the cell of a variable.
	CellOf(v *cfg.Var) int
	// Global reports whether a cell holds global variables (a mixed cell
	// holds one template's locals too; Mod then lists it only where a
	// global of it is written).
	Global(cell int) bool
}

// Invariants evaluates an observable condition at a location under the
// current invariants Φ.
type Invariants interface {
	Truth(l *cfg.Loc, cond cfg.Expr) Truth
}

// StampedInvariants are Invariants that tell when the answers at a
// location may have changed: Round keeps a position's signature Φ̂ while
// its stamp stays, instead of asking every condition there again (on
// aztcd most positions keep theirs in the last rounds).
type StampedInvariants interface {
	Invariants
	// Stamp returns l's stamp. Two equal stamps of l promise that Truth
	// at l answers every condition the same at both times.
	Stamp(l *cfg.Loc) Stamp
}

// CondStampedInvariants are StampedInvariants that also stamp each
// condition alone: where a position's stamp moved, Round asks again only
// the conditions whose own stamp moved (aztcd's second round: new edges
// reach nearly every position, but of few conditions' cells).
type CondStampedInvariants interface {
	StampedInvariants
	// CondStamps sets out[i] to l's stamp for the engine's i-th condition
	// (Conditions) alone: two equal stamps of l promise that Truth at l
	// answers that condition the same at both times.
	CondStamps(l *cfg.Loc, out []Stamp)
}

// Stamp is a StampedInvariants stamp (its meaning is the implementation's).
type Stamp struct{ A, B, C int64 }

// Edge is an interference edge Src —Cell→ Dst for the DFG.
type Edge struct {
	Src  *cfg.Loc
	Cell int
	Dst  *cfg.Loc
}

// RoundStats describes one evaluation of the rules.
type RoundStats struct {
	Pairs, Flows int // facts after the round
	NewFacts     int // edge(W, X, B) facts new in this round
	NewEdges     int // DFG edges they map to
	Z3Queries    int // Z3 queries in this round
	Signatures   int // distinct Φ̂ signatures computed (at positions whose compat row is not yet full)
	// SignaturesKept: positions whose Φ̂ was kept from an earlier
	// evaluation, its stamp unchanged (StampedInvariants).
	SignaturesKept int
	// ConditionsKept: answers of single conditions kept at positions
	// whose signature was evaluated again (CondStampedInvariants).
	ConditionsKept int
	Coarse         bool // the coarse flow rules were used (coarse.go)
	// FlowInsensitive: the pair-free fallback was used (flat.go).
	FlowInsensitive bool
}

// Option configures an Engine.
type Option func(*Engine)

// WithZ3Timeout sets the per-query Z3 timeout in milliseconds (default 500).
func WithZ3Timeout(ms uint) Option { return func(e *Engine) { e.z3Timeout = ms } }

// WithoutZ3 decides compat from literal clashes alone (for comparison and
// tests; coarser but sound).
func WithoutZ3() Option { return func(e *Engine) { e.noZ3 = true } }

// WithDatalog selects the evaluation of the exact rules: on the datalog
// engine (true) or by the built-in worklist (false). By default they are
// evaluated with writer rows on bits (bitgame.go). All three compute the
// same facts (tested); the default is by far the fastest on programs with
// many writers.
func WithDatalog(on bool) Option {
	return func(e *Engine) {
		e.eval = evalWorklist
		if on {
			e.eval = evalDatalog
		}
	}
}

// The evaluations of the exact game.
const (
	evalBits = iota
	evalDatalog
	evalWorklist
)

// WithMaxTuples bounds the derived facts (pairs, flows, ...) of the exact
// game, in either evaluation (default DefaultMaxTuples; n <= 0: no bound).
// Exceeding it switches to the coarse game (bounded by its bit matrices'
// memory, coarseMaxBytes) or, without the fallback, makes Round fail with
// an error wrapping ErrTooManyFacts: the game is then incomplete and no
// result may be drawn from it.
func WithMaxTuples(n int) Option { return func(e *Engine) { e.maxTuples = n } }

// WithMaxCoarseFlows bounds the coarse game's flow facts (default
// DefaultMaxCoarseFlows; n <= 0: no bound). Past it the flow-insensitive
// game takes over (or, without the fallback, Round fails with
// ErrTooManyFacts).
func WithMaxCoarseFlows(n int) Option { return func(e *Engine) { e.maxCoarseFlows = n } }

// DefaultMaxTuples bounds the game's facts unless WithMaxTuples says
// otherwise. Past it, the coarse rules take over (WithCoarseFallback),
// which on the DDVerify drivers find the same edges in a fraction of the
// time (mixcomwd: 30M exact facts in 90 s vs 0.3M coarse in 0.2 s).
const DefaultMaxTuples = 3_000_000

// ErrTooManyFacts is wrapped by the error of a Round that exceeded the
// fact bound.
var ErrTooManyFacts = errors.New("interference: too many game facts")

// WithCoarseFallback switches the game to the coarse flow rules
// (coarse.go) when the exact game exceeds the fact bound (default on).
// Off, such a Round fails with ErrTooManyFacts.
func WithCoarseFallback(on bool) Option { return func(e *Engine) { e.noFallback = !on } }

// WithCoarse uses the coarse flow rules from the start (for tests and
// comparisons).
func WithCoarse() Option { return func(e *Engine) { e.forceCoarse = true } }

// WithJoinAfterRule turns the second join rule of join.go (main's writes
// where a joined template is finished never reach it) on. Sound, but off
// by default: see join.go for the one corpus label that disagrees.
func WithJoinAfterRule(on bool) Option { return func(e *Engine) { e.joinAfterRule = on } }

// WithLockProtection turns the lock-protected cells rule (protect.go) on
// or off (default on; off for comparisons).
func WithLockProtection(on bool) Option { return func(e *Engine) { e.noProtection = !on } }

// WithUncheckedCustomReleases is UNSOUND, for the oracle's mutation tests
// only: locks built from atomic sections are used even when a thread may
// release one it does not hold (checkedLocksets is skipped).
func WithUncheckedCustomReleases() Option {
	return func(e *Engine) { e.uncheckedCustomReleases = true }
}

// WithFlowInsensitive uses the pair-free rules of flat.go from the start
// (for tests and comparisons).
func WithFlowInsensitive() Option { return func(e *Engine) { e.forceFlat = true } }

// WithSignatureCheck evaluates every signature Round keeps (its stamp
// unchanged) again and makes Round fail when the two differ: tests
// compare the kept signatures with the full evaluation round by round.
func WithSignatureCheck() Option { return func(e *Engine) { e.sigReeval = true } }

// WithoutSignatureKeeping evaluates every signature afresh, stamps or not
// (the computation before stamps, for the tests that compare the two).
func WithoutSignatureKeeping() Option { return func(e *Engine) { e.sigNoKeep = true } }

// Engine holds the static facts of a program and the game state that grows
// across rounds of the outer loop.
type Engine struct {
	prog  *cfg.Program
	cells Cells

	conds   *conditionSet
	sat     *satChecker
	noZ3    bool
	pos     *positions
	locks   *locks
	holds   []bitset // by position index
	acq     []int    // by position index: lock index acquired, -1 if none
	atomic  []bool   // by position index
	inMain  []bool   // by position index
	mod     [][]int  // by position index: global cells modified
	spawn   [][]int32
	enClass []int       // by position index: class of enabled(a)
	classes [][]Literal // enabled-literal classes; classes[0] is empty

	z3Timeout      uint
	eval           int // evalBits, evalDatalog or evalWorklist
	maxTuples      int
	maxCoarseFlows int
	bits           *bitGame
	dl             *datalogGame
	coarse         *coarseGame
	flat           *flatGame
	noFallback     bool
	forceCoarse    bool
	forceFlat      bool

	// pairable: the positions that can stand in a pair (computePairable).
	pairable bitset
	// compat[b*len(classes)+k]: Φ̂(b) ∧ classes[k] may be satisfiable.
	// Kept as the union over rounds (monotone; see Round).
	compat []bool
	// decided[b]: the signature whose compat row Round last decided at
	// position b (nil: none yet); see Round.
	decided []*decidedSig
	// sigAnswers[literalsKey(Φ̂)][c]: the answer to sat(Φ̂ ∧ classes[c])
	// (answerUnknown: not asked yet). satChecker memoizes every answer
	// by its literals for good, so a query asked again gets the same
	// answer: this only saves building its key.
	sigAnswers map[string][]int8
	// sigMemo[b]: the signature Φ̂(b) last evaluated and the stamp of
	// b then (StampedInvariants; see positionSignature).
	sigMemo   []sigMemo
	sigKept   int  // positions whose signature was kept, all rounds
	sigReeval bool // WithSignatureCheck (test only)
	// condStamp[b*C+i], condTruth[b*C+i] (C conditions): condition i's
	// stamp at position b when it was last asked there and its answer
	// (condUnasked: not asked since the conditions were made); nil when
	// the invariants give no condition stamps or the tables would pass
	// maxCondStampEntries (see conditionTruths).
	condStamp    []Stamp
	condTruth    []int8
	condStampBuf []Stamp
	condKept     int  // condition answers kept, all rounds
	sigNoKeep    bool // WithoutSignatureKeeping (test only)

	game *game

	lockAt []bitset // by location ID
	// usesCache/modCache hold Cells.Uses/Mod per location ID, filled
	// lazily: Uses must not change after the first Round (call dfg Need
	// with ConditionCells before).
	usesCache [][]int
	usesDone  []bool
	modCache  [][]int
	// users/spawns: the locations using each cell, the spawn locations
	// (users.go).
	users      map[int][]*cfg.Loc
	spawns     []*cfg.Loc
	spawnsDone bool

	// protectedBy: per global cell, the locks held at all its concurrent
	// writers (protect.go); noProtection turns the rule off.
	protectedBy map[int]bitset
	relays      map[int]map[int]bool // by location ID: the cells it relays
	relayList   []Relay
	mayAt       []bitset // by location ID: locks a thread there may hold

	// Joins (join.go): the joinable templates, the must-joined ones by
	// location ID of main, and the join relays by location ID.
	joinable   []*cfg.Template
	joinedAt   []bitset // dead templates (no instance alive)
	finishedAt []bitset // dead, and no spawn site ahead
	// startedAfter[template]: the joinable templates finished before
	// any thread of it starts (join.go); startedAfterAny: some.
	startedAfter       map[*cfg.Template]bitset
	startedAfterAny    map[*cfg.Template]bool
	noRelayIntoSpawned bool // WithoutRelayIntoSpawned (test only)
	joinRelays         map[int]map[int]bool
	// joinAfterRule: WithJoinAfterRule (join.go's second rule; off by
	// default).
	joinAfterRule bool
	// unsoundJoinAfterAnywhere: WithUnsoundJoinAfterAnywhere (test only).
	unsoundJoinAfterAnywhere bool
	// unsoundJoinClasses: WithUnsoundJoinClasses (test only).
	unsoundJoinClasses bool
	noProtection       bool
	// uncheckedCustomReleases: WithUncheckedCustomReleases (test only).
	uncheckedCustomReleases bool

	// emitAt caches, per global cell x, the positions b at which an
	// edge(·, x, b) fact maps to some DFG edge (emits). allFacts
	// (withAllFacts, tests only) makes the games return every edge fact
	// instead, as the reference evaluations do.
	emitAt   map[int32]bitset
	allFacts bool
	// liveAt caches liveness per cell.
	liveAt map[int]bitset

	// Counter bounds (counter.go): off, and the test-only breakage.
	noCounters, unsoundCounterLocks bool
	// unsoundGlobalFlags: WithUnsoundGlobalFlags (lockset.go, test only).
	unsoundGlobalFlags bool
	// once: the epoch rule of once.go (nil: no candidate flag);
	// noOnce: WithOnceRule(false); onceNoOwnWrite: the test-only mutation.
	once             *onceRule
	noOnce           bool
	onceNoOwnWrite   bool
	onceNoProtection bool
	// Reader kills (readerkill.go): by position, computed on first use;
	// noReaderKills: WithReaderKills(false); unsoundReaderKills: the
	// test-only mutation.
	rkill                             *readerKillInfo
	noReaderKills, unsoundReaderKills bool
	// Handoffs (handoff.go): off, and the test-only breakage.
	noHandoffs, unsoundHandoffs bool
	// unsoundCounterInstances: WithUnsoundCounterInstances (counter.go).
	unsoundCounterInstances bool
	// One-way flag facts (oneway.go): off, flags left out (the rerun),
	// the flags that gave facts, the test-only breakages.
	noOneWay, oneWayUnchecked bool
	oneWayDrop                map[*cfg.Var]bool
	oneWayUsed                []int
	onceReverseNoP1           bool
}

// withAllFacts makes the coarse and bit games return every edge fact,
// also those that map to no DFG edge (for comparing them with the
// reference evaluations fact by fact).
func withAllFacts() Option { return func(e *Engine) { e.allFacts = true } }

// emits returns the positions b at which an edge(w, x, b) fact can map to
// a DFG edge (mapEdges): b itself or a location of its preceding run uses
// x (usesCell, which is fixed from the first Round on). nil means every
// position (withAllFacts). A fact at any other position yields no edge
// whatever w is, so the games need not list it: the facts still take part
// in the game (the reader moves on from there), only the list of new edge
// facts, which on the drivers was hundreds of times longer than the edges
// it mapped to (pcwd: 24 M facts, 0.1 M edges), leaves them out. The
// edges are the same (TestEmitFilterKeepsEdges).
func (e *Engine) emits(x int32) bitset {
	if e.allFacts {
		return nil
	}
	if b, ok := e.emitAt[x]; ok {
		return b
	}
	out := newBitset(len(e.pos.locs))
	uses := e.usesMark(int(x)) // usesCell(·, x) (users.go)
	for b, l := range e.pos.locs {
		if uses[l.ID] {
			out.set(b)
			continue
		}
		for _, r := range e.pos.preRun[b] {
			if uses[r.ID] {
				out.set(b)
				break
			}
		}
	}
	if e.emitAt == nil {
		e.emitAt = map[int32]bitset{}
	}
	e.emitAt[x] = out
	return out
}

// New computes the observable conditions, game positions, must-locksets,
// atomic sections and spawn facts of p.
func New(p *cfg.Program, cells Cells, opts ...Option) (*Engine, error) {
	e := &Engine{prog: p, cells: cells, z3Timeout: 500, maxTuples: DefaultMaxTuples, maxCoarseFlows: DefaultMaxCoarseFlows}
	for _, o := range opts {
		o(e)
	}
	e.conds = newConditionSet(p)
	e.locks = findLocks(p)
	e.locks.unsoundGlobalFlags = e.unsoundGlobalFlags
	e.usesCache = make([][]int, len(p.Locs))
	e.usesDone = make([]bool, len(p.Locs))
	e.modCache = make([][]int, len(p.Locs))
	for _, l := range p.Locs {
		e.modCache[l.ID] = cells.Mod(l)
	}

	// Enabled literals per location (and the conditions they introduce).
	enabled := make([][]Literal, len(p.Locs))
	for _, l := range p.Locs {
		switch a := l.Act.(type) {
		case *cfg.Assume:
			enabled[l.ID] = e.conds.literalsOfAssume(a.Cond)
		case *cfg.Acquire:
			if v := lockCell(a.Lock); v != nil {
				var read cfg.Expr = a.Lock
				if d, ok := a.Lock.(*cfg.Deref); ok && exactCell(d) == nil {
					read = nil // not an exact access: no lock condition
				}
				if read != nil && v.Type.Kind == cfg.IntType {
					c := e.conds.intern(&cfg.Binary{Op: cfg.Eq, X: read, Y: &cfg.Const{Type: read.ExprType(), Value: 0}, Type: cfg.Bool}, []*cfg.Var{v}, true)
					enabled[l.ID] = []Literal{{Cond: c.ID}}
				}
			}
		}
	}

	globalMod := func(l *cfg.Loc) bool {
		for _, c := range e.modCache[l.ID] {
			if cells.Global(c) {
				return true
			}
		}
		return false
	}
	e.pos = computePositions(p, globalMod)
	np := len(e.pos.locs)

	if e.uncheckedCustomReleases {
		e.lockAt = mustLocksetsPath(p, e.locks)
	} else {
		e.locks, e.lockAt = checkedLocksets(p, e.locks)
	}
	lockAt := e.lockAt
	e.computeProtection()
	if !e.noProtection {
		e.computeJoins()
	}

	classKey := map[string]int{"": 0}
	e.classes = [][]Literal{nil}
	e.holds = make([]bitset, np)
	e.acq = make([]int, np)
	e.atomic = make([]bool, np)
	e.inMain = make([]bool, np)
	e.mod = make([][]int, np)
	e.spawn = make([][]int32, np)
	e.enClass = make([]int, np)
	mainIsSingleton := len(p.Templates) > 0 && !mainSpawned(p)
	for i, l := range e.pos.locs {
		e.holds[i] = lockAt[l.ID]
		// A thread that finishes inside an atomic section (a location
		// without successors: assume(0) lowered as a dead end, or a
		// return inside the section) no longer stops the others (the
		// reference semantics, cfg/interp, ends the section with the
		// thread). So a dead end never counts as atomic for the other
		// thread's moves: over-approximating, since before its action runs
		// the real thread still excludes them.
		e.atomic[i] = l.Atomic && len(l.Succs) > 0
		e.inMain[i] = mainIsSingleton && l.Template == p.Templates[0]
		e.acq[i] = -1
		if a, ok := l.Act.(*cfg.Acquire); ok {
			if v := lockCell(a.Lock); v != nil {
				if k, ok := e.locks.index[v]; ok {
					e.acq[i] = k
				}
			}
		}
		for _, c := range e.modCache[l.ID] {
			if cells.Global(c) {
				e.mod[i] = append(e.mod[i], c)
			}
		}
		if s, ok := l.Act.(*cfg.Spawn); ok {
			for _, t := range s.Targets {
				if t != nil && t.Entry != nil {
					e.spawn[i] = append(e.spawn[i], e.pos.index[t.Entry.ID])
				}
			}
		}
		lits := normalize(enabled[l.ID])
		k := literalsKey(lits)
		id, ok := classKey[k]
		if !ok {
			id = len(e.classes)
			classKey[k] = id
			e.classes = append(e.classes, lits)
		}
		e.enClass[i] = id
	}
	e.compat = make([]bool, np*len(e.classes))
	e.pairable = e.computePairable()
	e.decided = make([]*decidedSig, np)
	e.sigAnswers = map[string][]int8{}
	e.sigMemo = make([]sigMemo, np)
	e.once = e.newOnceRule()
	if !e.noFallback && !e.forceFlat && e.maxTuples > 0 {
		// Skip games that cannot fit: the exact game when the position
		// pairs alone would be far beyond its bound, the coarse one when
		// its bit matrices would exceed their memory bound. (Only time is
		// saved: each level is sound, see coarse.go and flat.go.)
		if np*np > 64*e.maxTuples {
			e.forceCoarse = true
		}
		if e.forceCoarse && coarseBytes(e) > coarseMaxBytes {
			e.forceFlat = true
		}
	}
	if !e.noZ3 {
		e.sat = newSatChecker(e.conds.conds, e.z3Timeout)
	} else {
		e.sat = &satChecker{memo: map[string]bool{}} // useZ3 false: clashes only
	}
	switch e.eval {
	case evalBits:
		e.bits = newBitGame(e, e.maxTuples)
	case evalDatalog:
		d, err := newDatalogGame(e, e.maxTuples)
		if err != nil {
			e.Close()
			return nil, err
		}
		e.dl = d
	default:
		e.game = newGame(e)
	}
	return e, nil
}

// Close releases the Z3 context.
func (e *Engine) Close() {
	if e.sat != nil {
		e.sat.close()
	}
}

// Z3Unavailable is why the engine could not use Z3 (nil when it could,
// or never needed it). The engine stays sound without it (every query
// counts as satisfiable) but proves less; the command reports it.
func (e *Engine) Z3Unavailable() error {
	if e.sat == nil {
		return nil
	}
	return e.sat.Unavailable
}

// FlowInsensitive reports whether the engine plays (or will play from the
// first round) the flow-insensitive game of flat.go, which reads Φ̂ only
// to tell whether a writer can run: its conditions then need not be
// tracked at every position (analysis skips dfg NeedAt; an untracked
// condition evaluates to Unknown, the weakest answer).
func (e *Engine) FlowInsensitive() bool { return e.forceFlat || e.flat != nil }

// Conditions returns the observable conditions.
func (e *Engine) Conditions() []*Condition { return e.conds.conds }

// ConditionCells returns the cells of the variables the observable
// conditions read: the DFG must track them at every location (dfg Need) so
// that Φ̂ can be evaluated everywhere.
func (e *Engine) ConditionCells() []int {
	seen := map[int]bool{}
	var out []int
	for _, c := range e.conds.conds {
		for _, v := range c.Vars {
			x := e.cells.CellOf(v)
			if !seen[x] {
				seen[x] = true
				out = append(out, x)
			}
		}
	}
	for _, x := range e.onceCells() {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	sort.Ints(out)
	return out
}

// NumPositions returns the number of game positions.
func (e *Engine) NumPositions() int { return len(e.pos.locs) }

// IsPosition reports whether l is a game position.
func (e *Engine) IsPosition(l *cfg.Loc) bool { return e.pos.isPos[l.ID] }

// NumLocks returns the number of lock words in the must-lockset analysis.
func (e *Engine) NumLocks() int { return len(e.locks.vars) }

// HeldLocks lists the lock words a thread standing at l surely holds.
func (e *Engine) HeldLocks(l *cfg.Loc) []*cfg.Var {
	var out []*cfg.Var
	for i, v := range e.locks.vars {
		if e.lockAt[l.ID].has(i) {
			out = append(out, v)
		}
	}
	return out
}

// Holds reports whether a thread standing at l surely holds lock word v.
func (e *Engine) Holds(l *cfg.Loc, v *cfg.Var) bool {
	i, ok := e.locks.index[v]
	if !ok {
		return false
	}
	return e.lockAt[l.ID].has(i)
}

// Round evaluates Φ̂ at every position under inv, updates compat, runs the
// rules to their fixpoint (incrementally: facts of earlier rounds are
// kept, and only facts blocked by compat are re-examined) and returns the
// DFG edges that the new edge(W, X, B) facts map to, and — once the
// flow-insensitive fallback is in use (flat.go) — blocks of edges (every
// source to every target of one cell) that the caller must add as well.
//
// compat is kept as the union over all rounds. Between rounds the
// invariants only grow in the intended use (more edges, bigger Φ, weaker
// Φ̂), so compat only grows anyway; taking the union makes the facts
// monotone even if widening made some Φ smaller, and is sound because a
// larger compat allows more behaviours.
func (e *Engine) Round(ctx context.Context, inv Invariants) ([]Edge, []Block, RoundStats, error) {
	out, st, err := e.play(ctx, inv)
	if err != nil {
		return nil, nil, st, err
	}
	if out.flat {
		return out.held, out.blocks, st, nil
	}
	edges := e.filterOnce(inv, e.mapEdges(out.parts...))
	st.NewEdges = len(edges)
	return edges, nil, st, nil
}

// played is what one play of the rules found: the games with pairs list
// their new edge facts (parts, read one list after the other); the
// flow-insensitive game (flat) its blocks and the edges the once rule
// held back until then (flatRound).
type played struct {
	parts  [][]fact3
	flat   bool
	held   []Edge
	blocks []Block
}

// play is Round up to the new facts: it decides compat and plays the game
// (falling back as Round says).
func (e *Engine) play(ctx context.Context, inv Invariants) (_ played, rs RoundStats, _ error) {
	var st RoundStats
	q0 := e.sat.Queries - e.sat.Bounded
	kept0 := e.sigKept
	ckept0 := e.condKept
	defer func() { rs.SignaturesKept, rs.ConditionsKept = e.sigKept-kept0, e.condKept-ckept0 }()
	sigs := map[string]bool{}
	// The flow-insensitive game reads compat only as canrun(w) =
	// compat(w, enabled(w)) of the positions w that modify a global cell
	// (flat.go), and once it plays no other game ever does: the rest of
	// compat is then never read, so its entries need not be decided.
	flat := e.flat != nil || e.forceFlat
	if err := e.decideRows(ctx, inv, flat, sigs); err != nil {
		return played{}, st, err
	}
	st.Signatures = len(sigs)
	st.Z3Queries = e.sat.Queries - e.sat.Bounded - q0 // asked of Z3 itself
	var facts []fact3
	var parts [][]fact3 // the coarse game's facts, in lists read in order
	var err error
	if e.forceFlat && e.flat == nil {
		e.flat, e.coarse, e.bits, e.dl, e.game = newFlatGame(e), nil, nil, nil, nil
	}
	if e.forceCoarse && e.coarse == nil && e.flat == nil {
		e.coarse, e.bits, e.dl, e.game = newCoarseGame(e), nil, nil, nil
	}
	if e.flat != nil {
		return e.flatRound(st)
	}
	switch {
	case e.coarse != nil:
		parts, err = e.coarse.runParts(ctx)
		st.Pairs, st.Flows = e.coarse.sizes()
		st.Coarse = true
	case e.bits != nil:
		facts, err = e.bits.run(ctx)
		st.Pairs, st.Flows = e.bits.sizes()
	case e.dl != nil:
		facts, err = e.dl.run(ctx)
		st.Pairs, st.Flows = e.dl.sizes()
	default:
		facts, err = e.game.run(ctx)
		st.Pairs, st.Flows = len(e.game.pairs), len(e.game.flows)
	}
	if err != nil && errors.Is(err, datalog.ErrTupleLimit) {
		err = fmt.Errorf("%w: %v", ErrTooManyFacts, err)
	}
	if err != nil && errors.Is(err, ErrTooManyFacts) && e.coarse == nil && !e.noFallback {
		// Too big for the exact game: start over with the coarse rules
		// (a superset of the exact edges; the edges of earlier rounds
		// stay valid).
		c := newCoarseGame(e)
		err = nil
		if e.bits != nil {
			err = c.adoptPairs(e.bits.pm)
		}
		e.coarse, e.bits, e.dl, e.game = c, nil, nil, nil
		facts = nil // (the failed game's, if any)
		if err == nil {
			parts, err = e.coarse.runParts(ctx)
		}
		st.Pairs, st.Flows = e.coarse.sizes()
		st.Coarse = true
	}
	if err != nil && errors.Is(err, ErrTooManyFacts) && e.flat == nil && !e.noFallback {
		// Too big for the coarse game's bit matrices: no pairs at all.
		// The facts of earlier rounds stay valid; the blocks cover them
		// anyway. The pair round above left the rows of the positions
		// that never stand in a pair undecided (decideRows), and the
		// flow-insensitive game reads canrun(w) of every writer: decided
		// now, as a flat round does.
		if err := e.decideRows(ctx, inv, true, sigs); err != nil {
			return played{}, st, err
		}
		st.Signatures = len(sigs)
		st.Z3Queries = e.sat.Queries - e.sat.Bounded - q0
		e.flat, e.coarse, e.bits, e.dl, e.game = newFlatGame(e), nil, nil, nil, nil
		return e.flatRound(st)
	}
	if err != nil {
		return played{}, st, err
	}
	if facts != nil {
		parts = [][]fact3{facts}
	}
	for _, p := range parts {
		st.NewFacts += len(p)
	}
	return played{parts: parts}, st, nil
}

// decideRows decides the compat rows of this round under inv (see
// Round), adding each signature's key to sigs: in a flat round only
// canrun(w) of the writers w, else every class at every position that can
// stand in a pair (pairable).
func (e *Engine) decideRows(ctx context.Context, inv Invariants, flat bool, sigs map[string]bool) error {
	k := len(e.classes)
	for b, l := range e.pos.locs {
		if flat && (len(e.mod[b]) == 0 || e.compat[b*k+e.enClass[b]]) {
			continue
		}
		if !flat && !decideAllRows && !e.pairable.has(b) {
			continue // its row is never read in a game with pairs (pairable)
		}
		// A position whose compat row is full (compat only grows) needs
		// no signature: evaluating every condition there is most of the
		// round's cost on small programs.
		full := true
		for c := 0; c < k && full; c++ {
			full = e.compat[b*k+c]
		}
		if full {
			continue
		}
		lits, reachable, err := e.positionSignature(b, l, inv)
		if err != nil {
			return err
		}
		if !reachable {
			sigs["⊥"] = true
			continue
		}
		// The same signature as when this row was last decided, with
		// the same classes asked (a flat round asks only enClass[b], and
		// flat rounds never precede pair rounds): each sat query below
		// would get the memoized answer it got then (satChecker.memo
		// never forgets), which is already in the row, so the row
		// cannot change. Skipping only saves the queries' keys and sorts.
		if d := e.decided[b]; d != nil && (!d.flat || flat) && slices.Equal(d.lits, lits) {
			sigs[d.key] = true
			continue
		}
		key := literalsKey(lits)
		sigs[key] = true
		e.decided[b] = &decidedSig{lits: lits, key: key, flat: flat}
		// The answers by signature (sigAnswers): positions with the same
		// signature ask the same queries.
		answers := e.sigAnswers[key]
		if answers == nil {
			answers = make([]int8, k)
			e.sigAnswers[key] = answers
		}
		for c := 0; c < k; c++ {
			if e.compat[b*k+c] || flat && c != e.enClass[b] {
				continue
			}
			if answers[c] == answerUnknown {
				answers[c] = answerUnsat
				if e.sat.sat(append(append([]Literal(nil), lits...), e.classes[c]...)) {
					answers[c] = answerSat
				}
			}
			if answers[c] == answerSat {
				e.compat[b*k+c] = true
			}
		}
		if b%256 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
	}
	return nil
}

// decideAllRows decides the rows of the positions that never stand in a
// pair too (the old computation, for the test that compares the two).
var decideAllRows = false

// computePairable returns the positions that can stand in a pair, a
// static superset of those any game with pairs reaches: the pair rules
// (rules.go) start from pair(E, C) with E a spawn target and C a
// successor of the spawn, and move a pair's positions only along cf and
// into spawn targets, so every position of a pair is reachable from those
// along cf and spawn. Every premise with compat in the games with pairs
// (canrun(A) and compat(B, E) in the rules, exec in the worklist, the bit
// and the coarse games) is joined with a pair holding that position, so
// the compat row of any other position is never read there: Round does
// not decide it (main's code before its first spawn, a handful of
// positions on small programs, thousands on aztcd), which changes no
// pair, flow or fact. The flow-insensitive game reads canrun(w) of every
// writer w, pairs or not: its rounds decide those rows (decideRows).
func (e *Engine) computePairable() bitset {
	out := newBitset(len(e.pos.locs))
	var work []int32
	push := func(p int32) {
		if !out.has(int(p)) {
			out.set(int(p))
			work = append(work, p)
		}
	}
	for s := range e.pos.locs {
		if len(e.spawn[s]) == 0 {
			continue
		}
		for _, en := range e.spawn[s] {
			push(en)
		}
		for _, c := range e.pos.cf[s] {
			push(c)
		}
	}
	for len(work) > 0 {
		a := work[len(work)-1]
		work = work[:len(work)-1]
		for _, a2 := range e.pos.cf[a] {
			push(a2)
		}
		for _, en := range e.spawn[a] {
			push(en)
		}
	}
	return out
}

// flatRound finishes a Round with the flow-insensitive game.
func (e *Engine) flatRound(st RoundStats) (played, RoundStats, error) {
	st.FlowInsensitive = true
	blocks := e.flat.run()
	for _, b := range blocks {
		st.NewEdges += len(b.Srcs) * len(b.Dsts)
	}
	held := e.releaseOnce() // the flat game does not filter (once.go)
	st.NewEdges += len(held)
	return played{flat: true, held: held, blocks: blocks}, st, nil
}

// sigMemo is a position's last evaluated signature (lits, reachable)
// and the stamp of its location then (ok: evaluated with a stamp).
type sigMemo struct {
	stamp     Stamp
	lits      []Literal
	reachable bool
	ok        bool
	conds     int // the conditions then (they are all made in New)
}

// positionSignature is signature(l, inv) at position b. When inv tells
// stamps and b's stamp is the one of b's last evaluation, every Truth
// signature would ask at l answers as then (the StampedInvariants
// promise; the conditions are fixed when the engine is made), so the
// signature is the one evaluated then: the same literals in the same
// order, and nothing else of the round changes. The literals are never
// modified by their users (decideRows copies before appending).
func (e *Engine) positionSignature(b int, l *cfg.Loc, inv Invariants) ([]Literal, bool, error) {
	si, ok := inv.(StampedInvariants)
	if !ok || e.sigNoKeep {
		lits, reachable := e.signature(l, inv)
		return lits, reachable, nil
	}
	stamp := si.Stamp(l)
	m := &e.sigMemo[b]
	if m.ok && m.stamp == stamp && m.conds == len(e.conds.conds) {
		e.sigKept++
		if e.sigReeval {
			lits, reachable := e.signature(l, inv)
			if reachable != m.reachable || !slices.Equal(lits, m.lits) {
				return nil, false, fmt.Errorf("interference: the signature kept at location %d (%v, reachable %v) differs from its evaluation (%v, reachable %v)", l.ID, m.lits, m.reachable, lits, reachable)
			}
		}
		return m.lits, m.reachable, nil
	}
	var lits []Literal
	var reachable bool
	if ci, ok := inv.(CondStampedInvariants); ok && e.condTables() {
		var err error
		if lits, reachable, err = e.conditionTruths(b, l, ci); err != nil {
			return nil, false, err
		}
	} else {
		lits, reachable = e.signature(l, inv)
	}
	*m = sigMemo{stamp: stamp, lits: lits, reachable: reachable, ok: true, conds: len(e.conds.conds)}
	return lits, reachable, nil
}

// condUnasked marks a condition not asked at a position (condTruth).
const condUnasked = -1

// maxCondStampEntries bounds positions × conditions of the per-condition
// tables (25 bytes each).
const maxCondStampEntries = 1 << 21

// condTables makes the per-condition tables at the first use and reports
// whether there are any.
func (e *Engine) condTables() bool {
	if e.condStamp != nil {
		return true
	}
	n := len(e.pos.locs) * len(e.conds.conds)
	if n == 0 || n > maxCondStampEntries {
		return false
	}
	e.condStamp = make([]Stamp, n)
	e.condTruth = make([]int8, n)
	for i := range e.condTruth {
		e.condTruth[i] = condUnasked
	}
	e.condStampBuf = make([]Stamp, len(e.conds.conds))
	return true
}

// conditionTruths is signature(l, inv) at position b, asking Truth only
// of the conditions whose stamp at l (CondStamps) is not the one under
// which they were last asked there: by CondStampedInvariants' promise
// Truth would answer those as then. The literals are made anew, in
// condition order, and, as signature, it stops at the first Bottom
// (the later conditions count as not asked).
func (e *Engine) conditionTruths(b int, l *cfg.Loc, inv CondStampedInvariants) ([]Literal, bool, error) {
	nc := len(e.conds.conds)
	cur := e.condStampBuf
	inv.CondStamps(l, cur)
	stamps, truths := e.condStamp[b*nc:(b+1)*nc], e.condTruth[b*nc:(b+1)*nc]
	var lits []Literal
	for i, c := range e.conds.conds {
		var t Truth
		if truths[i] != condUnasked && stamps[i] == cur[i] {
			t = Truth(truths[i])
			e.condKept++
			if e.sigReeval {
				if got := inv.Truth(l, c.Expr); got != t {
					return nil, false, fmt.Errorf("interference: the answer kept for condition %d at location %d (%v) differs from its evaluation (%v)", c.ID, l.ID, t, got)
				}
			}
		} else {
			t = inv.Truth(l, c.Expr)
		}
		stamps[i], truths[i] = cur[i], int8(t)
		switch t {
		case Bottom:
			for j := i + 1; j < nc; j++ {
				truths[j] = condUnasked
			}
			return nil, false, nil
		case True:
			lits = append(lits, Literal{Cond: c.ID})
		case False:
			lits = append(lits, Literal{Cond: c.ID, Neg: true})
		}
	}
	return lits, true, nil
}

// signature returns Φ̂(l) as literals, and false when Φ(l) is ⊥.
func (e *Engine) signature(l *cfg.Loc, inv Invariants) ([]Literal, bool) {
	var lits []Literal
	for _, c := range e.conds.conds {
		switch inv.Truth(l, c.Expr) {
		case Bottom:
			return nil, false
		case True:
			lits = append(lits, Literal{Cond: c.ID})
		case False:
			lits = append(lits, Literal{Cond: c.ID, Neg: true})
		}
	}
	return lits, true
}

// exec: a thread at position a may run act(a) (with its following local
// run) while the other thread stands at position b.
//
//	exec(A, B) :- compat(A, A), compat(B, A), !atomic(B), !acqHeld(A, B).
func (e *Engine) exec(a, b int32) bool {
	k := len(e.classes)
	c := e.enClass[a]
	if !e.compat[int(a)*k+c] || !e.compat[int(b)*k+c] || e.atomic[b] {
		return false
	}
	if l := e.acq[a]; l >= 0 && e.holds[b].has(l) {
		return false
	}
	return true
}

func (e *Engine) modifies(a int32, x int) bool {
	for _, c := range e.mod[a] {
		if c == x {
			return true
		}
	}
	return false
}

// mapEdges turns edge(W, X, B) facts (lists read one after the other)
// into DFG edges into B and into the non-positions of B's preceding runs,
// wherever the invariant needs X.
func (e *Engine) mapEdges(parts ...[]fact3) []Edge {
	// Room for every edge up front: a first pass adds up the readers of
	// each fact (readersAt's lists, cached per (b, x): the second pass
	// reads them again), a bound that join filtering only lowers. The
	// estimate of 1.25 edges per fact it replaces fell short on aztcd
	// (7.8 M edges from 6 M facts), and regrowing copied 180 MB.
	users := e.readersAt() // (users.go)
	n := 0
	for _, facts := range parts {
		for _, f := range facts {
			n += len(users.of(e, f.b, f.x))
		}
	}
	out := make([]Edge, 0, n)
	for _, facts := range parts {
		for _, f := range facts {
			w := e.pos.locs[f.w]
			x := int(f.x)
			for _, l := range users.of(e, f.b, f.x) {
				if !e.joinFiltered(w, l, x) {
					out = append(out, Edge{Src: w, Cell: x, Dst: l})
				}
			}
		}
	}
	return out
}

func normalize(lits []Literal) []Literal {
	seen := map[Literal]bool{}
	var out []Literal
	for _, l := range lits {
		if !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Cond != out[j].Cond {
			return out[i].Cond < out[j].Cond
		}
		return !out[i].Neg && out[j].Neg
	})
	return out
}

// The entries of Engine.sigAnswers.
const (
	answerUnknown int8 = iota
	answerSat
	answerUnsat
)

// decidedSig is the signature Φ̂(b) under which Round last decided the
// compat row of a position b (key: its literalsKey), and whether only
// enClass[b] was asked then (flat).
type decidedSig struct {
	lits []Literal
	key  string
	flat bool
}

func literalsKey(lits []Literal) string {
	b := make([]byte, 0, 8*len(lits))
	for _, l := range lits {
		if l.Neg {
			b = append(b, '!')
		}
		b = appendInt(b, l.Cond)
		b = append(b, ',')
	}
	return string(b)
}

func appendInt(b []byte, v int) []byte {
	if v >= 10 {
		b = appendInt(b, v/10)
	}
	return append(b, byte('0'+v%10))
}

func (e *Engine) usesCell(l *cfg.Loc, x int) bool {
	// (membership first: protectedAt's map lookups only for the few
	// locations that use x)
	found := false
	for _, c := range e.usesOf(l) {
		if c == x {
			found = true
			break
		}
	}
	if !found {
		return false
	}
	if e.protectedBy != nil && e.protectedAt(l, x) {
		return false // a lock protecting x is held: x arrives through the acquire (protect.go)
	}
	return true
}

func (e *Engine) modCell(l *cfg.Loc, x int) bool {
	for _, c := range e.modCache[l.ID] {
		if c == x {
			return true
		}
	}
	return false
}

// mainSpawned reports whether some spawn may start main again; then main
// is not a singleton and its positions may pair with each other.
func mainSpawned(p *cfg.Program) bool {
	if len(p.Templates) == 0 {
		return false
	}
	for _, l := range p.Locs {
		if s, ok := l.Act.(*cfg.Spawn); ok {
			for _, t := range s.Targets {
				if t == p.Templates[0] {
					return true
				}
			}
		}
	}
	return false
}

// liveness returns the positions b from which a use of cell x (or a
// spawn) is reachable before a modification of x, or whose preceding run
// uses x: a backward dataflow over all locations,
//
//	live(l) = uses(l, x) || spawn(l) || (!mod(l, x) && some successor is live).
//
// The result depends only on the program and the cells' uses, which are
// fixed from the first Round on, so it is computed once per cell and
// shared by the games (a round that falls back from the exact to the
// coarse and then the flow-insensitive game asks for it in each); callers
// must not modify it.
func (e *Engine) liveness(x int) bitset {
	if b, ok := e.liveAt[x]; ok {
		return b
	}
	if e.liveAt == nil {
		e.liveAt = map[int]bitset{}
	}
	b := e.computeLiveness(x)
	e.liveAt[x] = b
	return b
}

func (e *Engine) computeLiveness(x int) bitset {
	n := len(e.prog.Locs)
	live := make([]bool, n)
	var work []*cfg.Loc
	uses := e.usesMark(x) // usesCell(·, x) (users.go)
	seed := func(l *cfg.Loc) {
		if !live[l.ID] {
			live[l.ID] = true
			work = append(work, l)
		}
	}
	for _, l := range e.spawnLocs() {
		seed(l)
	}
	for _, l := range e.usersOf(x) {
		if uses[l.ID] {
			seed(l)
		}
	}
	for len(work) > 0 {
		l := work[len(work)-1]
		work = work[:len(work)-1]
		for _, p := range l.Preds {
			if !live[p.ID] && !e.modCell(p, x) {
				live[p.ID] = true
				work = append(work, p)
			}
		}
	}
	out := newBitset(len(e.pos.locs))
	for b, l := range e.pos.locs {
		if live[l.ID] {
			out.set(b)
			continue
		}
		for _, r := range e.pos.preRun[b] {
			if uses[r.ID] {
				out.set(b)
				break
			}
		}
	}
	return out
}
