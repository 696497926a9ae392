package dfg

import (
	"context"
	"fmt"
	"os"
	"slices"

	"chorus/cfg"
	"chorus/domains"
)

// Option configures a Solver.
type Option func(*options)

type options struct {
	thresholds  []int64
	delay       int
	narrowing   int
	maxIter     int
	wtoMaxEdges int
	// unsoundMixedJoin: a test-only breakage (WithUnsoundMixedJoin).
	unsoundMixedJoin bool
	// monotone: globals assumed to move in one direction only
	// (WithMonotone, WithMonotoneIn; monotone.go).
	monotone monoSpec
	// facts: bounds per location ID met into its states (facts.go).
	facts map[int][]Fact
}

// WithThresholds adds widening thresholds to those collected from the
// program (its integer constants c-1, c, c+1, the bounds of its types).
func WithThresholds(ts ...int64) Option {
	return func(o *options) { o.thresholds = append(o.thresholds, ts...) }
}

// WithWideningDelay sets how many joins a cycle head gets before widening
// (default 2).
func WithWideningDelay(n int) Option { return func(o *options) { o.delay = max(n, 0) } }

// WithNarrowing sets the number of narrowing passes after the widening
// iteration (default 2).
func WithNarrowing(passes int) Option { return func(o *options) { o.narrowing = max(passes, 0) } }

// WithOrderThreshold sets the graph size (edges) up to which the solver
// iterates in Bourdoncle's weak topological order; above it, in the
// linear-time order of wto.go's dfsOrder (default 400,000; 0: always the
// latter, as tests do).
func WithOrderThreshold(edges int) Option { return func(o *options) { o.wtoMaxEdges = max(edges, 0) } }

// WithMaxIterations bounds the number of location evaluations of one Solve;
// exceeding it makes Solve return an error (default: 2000 per location
// plus 100000).
func WithMaxIterations(n int) Option { return func(o *options) { o.maxIter = n } }

// Stats counts the solver's work (cumulative over Solve calls).
type Stats struct {
	Solves            int // Solve calls that did work
	IncrementalSolves int // of which incremental
	Evaluations       int // location evaluations (widening phase, narrowing, verification)
	Widenings         int // widening applications at heads
	NarrowingPasses   int
	Heads             int // cycle heads of the last WTO
	Repairs           int // locations re-queued by the post-fixpoint verification of incremental solves
	EdgeVisits        int // edges read by evaluations
	HubLeavesKept     int // hub leaves a source's change provably left as they were (set)
	PostsDerived      int // posts derived from an earlier one (derivePost)
}

// Solver computes the invariants Φ of a Graph in a domain.
type Solver struct {
	g    *Graph
	dom  domains.Domain
	part *Partition
	opt  options
	ths  []int64
	// coarseThs: the thresholds a head widens with after
	// thresholdWidenings widenings: 0, ±1, the extra thresholds and the
	// bounds of the program's types.
	coarseThs []int64

	states []*State // by Loc.ID; nil: not computed yet (⊥)
	posts  []*post  // by Loc.ID; nil: stale
	// basePosts: by Loc.ID, while posts[id] is nil, what derivePost
	// needs of a post computed for an earlier state of id whose cells
	// act(id) touches held the very value objects the current state's
	// do (set keeps it, slimmed by baseOf; nil: none). computePost
	// derives the post from it (derivePost).
	basePosts []*post
	boxes     []domains.Value
	inits     map[CellID]domains.Value
	zeroHp    map[*cfg.Object]bool
	solved    bool
	version   int // graph structVersion the states belong to
	wtoEdge   int // graph edge count the WTO was computed for
	order     []int32
	pos       []int32
	isHead    []bool
	backC     [][]CellID // by head Loc.ID: cells with an edge from inside the head's component
	widenN    []int
	widened   []int // by Loc.ID: widenings applied in this Solve
	// fastWidening: every head widens with the short ladder from its
	// first widening (SetFastWidening).
	fastWidening bool
	// hubVals: by hub index, the value a hub passed on when its targets
	// were last pushed (ascend), within the current Solve.
	hubVals []*post
	// hubTrees: by hub index, the partial joins of its sources' values
	// (hubTree), nil until first needed in a Solve from scratch.
	hubTrees []*hubTree
	// slots: by location ID, per edge into it (Graph.edges order).
	slots [][]edgeSlot
	// Incremental evaluation (evalIncr): tick counts state changes;
	// changed[u] is the tick of u's last change (for a hub: of one of its
	// sources), evalAt[v] the tick at v's last evaluation, whose result
	// is last[v] (nil: evaluate from scratch).
	tick    int64
	changed []int64
	evalAt  []int64
	last    []*State
	// cellTick[u][i]: the tick of the last change of the i-th cell of
	// In(u) when act(u) does not touch it (bump); touch caches touched.
	cellTick [][]int64
	touch    [][]bool
	// idx: by location ID, its edges grouped by target cell (edgeIndex).
	idx []*edgeIndex
	// stateIDs: the last State.id given (derive).
	stateIDs int64
	// Push-based dirtiness (markOut): out[u] lists the edges out of node
	// u (outN[d]: how many of d's edges are listed); when u's post may
	// have changed, set marks each out-edge whose value may have changed
	// in its target: dirtyC[d][i] for a cell, ctrlD[d] for control, and
	// the edge's leaf in the target's join tree of the cell (cellTree).
	// A hub's out-edges are marked when its value really changed
	// (flushHubs, before every evaluation): hubQ lists the hubs whose
	// sources changed since, hubOut the value last compared.
	out    [][]outEdge
	outN   []int32
	dirtyC [][]bool
	dirtyN []int32 // by node: the marks in dirtyC
	ctrlD  []bool
	hubQ   []int32
	hubInQ []bool
	hubOut []*post

	// Truth stamps (TruthStamper): truthClock counts the replacements of
	// states; by location, wholeTick is its value when the state's cells
	// or ⊥-ness may have changed, touchTick when the value object of a
	// cell act(u) touches did, valTick[u][i] when the i-th cell of In(u)'s
	// did; postTick[h] of a hub when one of its sources' states was
	// replaced or it got new sources. solveGen counts the Solves from
	// scratch (every state and edge list new).
	truthClock int64
	wholeTick  []int64
	touchTick  []int64
	valTick    [][]int64
	postTick   []int64
	solveGen   int64

	stats Stats
}

// post is the value of the cells right after act(u): the cells tracked at
// u and those it modifies.
type post struct {
	bottom bool
	cells  []CellID
	vals   []domains.Value
}

func (p *post) get(c CellID) (domains.Value, bool) {
	i, ok := slices.BinarySearch(p.cells, c)
	if !ok {
		return nil, false
	}
	return p.vals[i], true
}

// NewSolver returns a solver for g in dom.
func NewSolver(g *Graph, dom domains.Domain, opts ...Option) *Solver {
	s := &Solver{g: g, dom: dom, part: g.part, opt: options{delay: 2, narrowing: 2, wtoMaxEdges: defaultWTOMaxEdges}}
	for _, o := range opts {
		o(&s.opt)
	}
	n := len(g.prog.Locs)
	if s.opt.maxIter <= 0 {
		s.opt.maxIter = 2000*n + 100000
	}
	s.ths = collectThresholds(g.prog, s.opt.thresholds)
	s.coarseThs = coarseThresholds(g.prog, s.opt.thresholds)
	s.boxes = make([]domains.Value, g.part.NumCells())
	s.zeroHp = map[*cfg.Object]bool{}
	nonZero := map[*cfg.Object]bool{}
	for _, l := range g.prog.Locs {
		if a, ok := l.Act.(*cfg.Alloc); ok && a.Site != nil {
			if a.Zero && !nonZero[a.Site] {
				s.zeroHp[a.Site] = true
			} else {
				nonZero[a.Site] = true
				delete(s.zeroHp, a.Site)
			}
		}
	}
	return s
}

// SetFastWidening makes every widening use the short threshold ladder (0,
// ±1, type bounds, WithThresholds) from the start, for the following
// Solves. Precision is traded for time where it is scarce anyway: package
// analysis sets it once the interference is flow-insensitive, whose giant
// cycles otherwise make thousands of heads climb the ladder of every
// program constant. Sound: any widening stays above the join.
func (s *Solver) SetFastWidening(on bool) { s.fastWidening = on }

// Graph returns the solver's graph.
func (s *Solver) Graph() *Graph { return s.g }

// Domain returns the solver's domain.
func (s *Solver) Domain() domains.Domain { return s.dom }

// Thresholds returns the widening thresholds in use (sorted).
func (s *Solver) Thresholds() []int64 { return s.ths }

// Stats returns the work counters.
func (s *Solver) Stats() Stats { return s.stats }

// box is the value of cell c holding any values of its variables' types.
func (s *Solver) box(c CellID) domains.Value {
	if b := s.boxes[c]; b != nil {
		return b
	}
	cell := s.part.Cell(c)
	v := s.dom.Top(len(cell.Vars))
	for i, x := range cell.Vars {
		r := typeRange(x.Type)
		if r.Hi.Inf == 0 {
			v = v.Assume(domains.LinCons{Expr: domains.LinExpr{Terms: []domains.Term{{Var: i, Coef: 1}}, Const: -r.Hi.V}, Op: domains.LeZero})
		}
		if r.Lo.Inf == 0 && r.Lo.V > -1<<63 {
			v = v.Assume(domains.LinCons{Expr: domains.LinExpr{Terms: []domains.Term{{Var: i, Coef: -1}}, Const: r.Lo.V}, Op: domains.LeZero})
		}
	}
	s.boxes[c] = v
	return v
}

func (s *Solver) initVal(c CellID) domains.Value {
	if v, ok := s.inits[c]; ok {
		return v
	}
	if s.inits == nil {
		s.inits = map[CellID]domains.Value{}
	}
	v := initValue(s.dom, s.g.prog, s.part.Cell(c), s.box(c), s.zeroHp)
	s.inits[c] = v
	return v
}

// Solve computes the invariants: from scratch on the first call (or after
// Graph.Need changed the tracked cells), otherwise incrementally from the
// previous invariants, re-evaluating from the targets of the edges added
// since. It returns an error when the iteration bound is exceeded or ctx
// is done; the invariants are then not sound and must not be used.
func (s *Solver) Solve(ctx context.Context) error {
	g := s.g
	if err := g.Build(ctx); err != nil {
		return err
	}
	n := g.numNodes()
	incremental := s.solved && s.version == g.structVersion
	if incremental && len(g.pending) == 0 {
		return nil
	}
	s.stats.Solves++
	if s.wtoEdge != g.nEdges || s.order == nil || !incremental {
		s.computeWTO()
	}
	var seeds []int32
	if incremental {
		s.stats.IncrementalSolves++
		for _, l := range g.pending {
			seeds = append(seeds, int32(l.ID))
		}
		for len(s.states) < n { // hubs added since
			s.states = append(s.states, nil)
			s.posts = append(s.posts, nil)
			s.basePosts = append(s.basePosts, nil)
		}
		for len(s.postTick) < n {
			s.postTick = append(s.postTick, 0)
			s.wholeTick = append(s.wholeTick, 0)
			s.touchTick = append(s.touchTick, 0)
			s.valTick = append(s.valTick, nil)
		}
	} else {
		s.states = make([]*State, n)
		s.posts = make([]*post, n)
		s.basePosts = make([]*post, n)
		s.postTick = make([]int64, n)
		s.wholeTick = make([]int64, n)
		s.touchTick = make([]int64, n)
		s.valTick = make([][]int64, n)
		s.solveGen++
		s.slots = nil // the edges were rebuilt
		s.hubTrees = nil
		seeds = slices.Clone(s.order)
		s.last = nil
	}
	s.resetIncremental(n, g.reflagged)
	if incremental {
		s.hubsGrown(g.grownHubs)
	}
	g.grownHubs, g.reflagged = nil, nil
	// Narrowing may have lowered what hubs passed on since their targets
	// were last pushed: start every Solve with no memory of it.
	s.hubVals = nil
	g.pending = nil
	s.version = g.structVersion
	s.solved = false
	s.widenN = make([]int, n)
	s.widened = make([]int, n)
	budget := &iterBudget{left: s.opt.maxIter, ctx: ctx}

	if err := s.ascend(seeds, budget); err != nil {
		return err
	}
	if incremental {
		// The previous invariants were a sound solution of the old
		// equations but, after narrowing, not necessarily a
		// post-fixpoint; make sure the new ones are one before narrowing.
		for {
			var bad []int32
			for _, id := range s.order {
				if err := budget.step(); err != nil {
					return err
				}
				if int(id) >= len(g.prog.Locs) {
					continue // a hub (no state)
				}
				s.stats.Evaluations++
				prev := s.last[id]
				nv := s.eval(g.node(id))
				if !nv.leqAfter(s.state(id), prev) {
					bad = append(bad, id)
					// (ascend's joinAfter needs a state above the last
					// evaluation: evaluate this one in full next time)
					s.last[id] = nil
				}
			}
			if len(bad) == 0 {
				break
			}
			s.stats.Repairs += len(bad)
			if err := s.ascend(bad, budget); err != nil {
				return err
			}
		}
	}
	for range s.opt.narrowing {
		s.stats.NarrowingPasses++
		for _, id := range s.order {
			if err := budget.step(); err != nil {
				return err
			}
			if int(id) >= len(g.prog.Locs) {
				continue // a hub (no state)
			}
			s.stats.Evaluations++
			old := s.state(id)
			prev := s.last[id]
			nv := s.eval(g.node(id))
			if s.isHead[id] && nv.leqAfter(old, prev) {
				nv = old.narrow(nv)
			}
			if !nv.equal(old) {
				s.set(id, nv) // (an equal state would only bump changed)
			}
		}
	}
	s.solved = true
	return nil
}

// thresholdWidenings is how many widenings a head gets with thresholds
// (per Solve) before it switches to the short ladder coarseThs.
const thresholdWidenings = 16

type iterBudget struct {
	left int
	ctx  context.Context
	n    int
}

func (b *iterBudget) step() error {
	b.left--
	if b.left < 0 {
		return fmt.Errorf("dfg: fixpoint not reached within the iteration bound (WithMaxIterations)")
	}
	b.n++
	if b.n&1023 == 0 {
		if err := b.ctx.Err(); err != nil {
			return err
		}
	}
	return nil
}

// ascend runs the worklist iteration from seeds until no state changes:
// plain evaluation at ordinary locations, join (then widening after the
// delay) at cycle heads. At the end every location v satisfies
// eval(v) ⊑ Φ(v) (a post-fixpoint), provided the values it started from at
// the heads were below the new ones or are re-joined (they are: heads only
// grow).
func (s *Solver) ascend(seeds []int32, b *iterBudget) error {
	g := s.g
	wl := &posHeap{}
	inWL := make([]bool, g.numNodes())
	push := func(id int32) {
		if !inWL[id] {
			inWL[id] = true
			wl.push([2]int32{s.pos[id], id})
		}
	}
	for _, id := range seeds {
		push(id)
	}
	for wl.Len() > 0 {
		id := wl.pop()[1]
		inWL[id] = false
		if err := b.step(); err != nil {
			return err
		}
		if int(id) >= len(g.prog.Locs) {
			// A hub: a source changed (set dropped its cached post).
			// Its targets re-read it only if the join it passes on
			// changed since they were last pushed: on large programs
			// most source changes are absorbed by the join.
			h := int(id) - len(g.prog.Locs)
			for len(s.hubVals) <= h {
				s.hubVals = append(s.hubVals, nil)
			}
			nv := s.postOf(g.node(id))
			if old := s.hubVals[h]; old != nil && postEqual(old, nv) {
				continue
			}
			s.hubVals[h] = nv
			for _, d := range g.succs[id] {
				push(d)
			}
			continue
		}
		s.stats.Evaluations++
		old := s.state(id)
		prev := s.last[id]
		nv := s.eval(g.node(id))
		if s.isHead[id] {
			j := old.joinAfter(nv, prev)
			s.widenN[id]++
			if s.widenN[id] > s.opt.delay && !j.equal(old) {
				s.stats.Widenings++
				ths := s.ths
				s.widened[id]++
				if s.widened[id] > thresholdWidenings || s.fastWidening {
					// The head kept growing through its threshold
					// widenings: widen with the short ladder (0, ±1,
					// type bounds) only. Sound (any widening result is
					// above the join) and it bounds the ascent, which on
					// large cyclic graphs (interference edges make
					// components with thousands of heads) otherwise
					// climbs the ladder of all program constants one
					// step at a time.
					ths = s.coarseThs
				}
				j = old.widen(j, ths, s.backC[id])
			}
			nv = j
		}
		if nv.equal(old) {
			if !s.isHead[id] {
				// nv equals the state: let the next evaluation derive
				// from the state itself, so that equal compares only
				// what it changed (State.diffFrom).
				s.last[id] = old
			}
			continue
		}
		s.set(id, nv)
		for _, d := range g.succs[id] {
			push(d)
		}
	}
	return nil
}

func (s *Solver) set(id int32, st *State) {
	old, oldPost := s.states[id], s.posts[id]
	s.states[id] = st
	s.posts[id] = nil
	if int(id) < len(s.g.prog.Locs) {
		// (before bump, which may ask for the new post)
		base := s.basePosts[id] // of a state whose touched cells old shares
		s.basePosts[id] = nil
		if (oldPost != nil || base != nil) && s.touchedIdentical(id, old, st) {
			if oldPost != nil {
				base = s.baseOf(id, oldPost)
			}
			s.basePosts[id] = base
		}
	}
	s.tick++
	s.truthClock++
	s.postTick[id] = s.truthClock
	s.stampSet(id, old, st)
	if int(id) < len(s.g.prog.Locs) {
		s.bump(id, old, oldPost, st)
	} else {
		s.changed[id] = s.tick
	}
	s.markOut(id)
	if int(id) < len(s.g.hubsOf) {
		nLocs := len(s.g.prog.Locs)
		for k, h := range s.g.hubsOf[id] {
			s.postTick[h] = s.truthClock
			i := int(h) - nLocs
			if t := s.hubTree(i); t != nil && t.built && !s.hubLeafMayChange(id, i) {
				// The hub's value is unchanged: its tree keeps this
				// source's leaf, and its cached post stays.
				s.stats.HubLeavesKept++
				if checkIncremental {
					s.checkHubLeafKept(i, int(s.g.hubSlot[id][k]))
				}
				continue
			}
			s.posts[h] = nil
			s.changed[h] = s.tick
			if t := s.hubTree(i); t != nil {
				t.dirty(s.g.hubSlot[id][k])
			}
			if !s.hubInQ[h] {
				s.hubInQ[h] = true
				s.hubQ = append(s.hubQ, h)
			}
		}
	}
}

// hubLeafMayChange reports whether location id's contribution to hub i
// (its post's value of the hub's cell, nil when ⊥) may have changed with
// the state set just gave it, by the rule markOut applies to id's direct
// out-edges (bump's ticks): a cell act(id) passes through (tracked at id,
// neither read nor written by it) changed only if its cellTick was
// bumped, which bump does when its value changed (Equal) or the post's
// ⊥-ness may have; any other cell (touched, or not tracked: then the
// leaf is ⊤ or nil with the post's ⊥-ness) only if changed[id] was.
// Conservative as bump is: when it answers no, the leaf's new value
// equals the one the hub's tree holds, so the tree (which keeps a leaf
// that is not dirtied) joins to the value it would join to if the leaf
// were read again. Reading it would compute id's whole post (umem: a
// third of the solver's time went to posts computed for hub leaves).
func (s *Solver) hubLeafMayChange(id int32, i int) bool {
	switch hubLeafRule {
	case hubLeavesNeverKept:
		return true
	case hubLeavesAlwaysKept:
		return false
	}
	if s.changed[id] == s.tick {
		return true
	}
	in := s.g.in[id]
	j, ok := slices.BinarySearch(in, s.g.hubCell[i])
	if !ok || s.touched(id)[j] {
		return false // (changed[id] was not bumped)
	}
	ct := s.cellTick[id]
	return j >= len(ct) || ct[j] == s.tick
}

// hubLeafRule is for tests: hubLeavesNeverKept makes set dirty every
// leaf of a changed source (the computation hubLeafMayChange saves),
// hubLeavesAlwaysKept none (a breakage the checks must catch).
var hubLeafRule = hubLeavesKeptWhenUnchanged

const (
	hubLeavesKeptWhenUnchanged = iota
	hubLeavesNeverKept
	hubLeavesAlwaysKept
)

// hubTree returns hub i's tree of partial joins (nil: none yet).
func (s *Solver) hubTree(i int) *hubTree {
	if i < len(s.hubTrees) {
		return s.hubTrees[i]
	}
	return nil
}

// checkHubLeafKept (checkIncremental) panics unless the k-th leaf of hub
// i's tree equals what the source contributes now: set kept the leaf
// (hubLeafMayChange said it could not have changed).
func (s *Solver) checkHubLeafKept(i, k int) {
	t := s.hubTrees[i]
	kept, now := t.node[t.n+k], s.hubLeaf(i, k)
	if (kept == nil) != (now == nil) || kept != nil && !kept.Equal(now) {
		panic(fmt.Sprintf("dfg: hub %d kept source %d's leaf, which changed", len(s.g.prog.Locs)+i, s.g.hubSrcs[i][k].ID))
	}
}

// stampSet records, for TruthStamper, which value objects of location
// id's state changed from old (nil: ⊥) to st: every one (wholeTick) when
// the state is or was ⊥ or its cells differ, else each cell whose value
// object is another (valTick), and touchTick when that cell is one act(id)
// touches (the post's ⊥-ness and touched cells are functions of those).
// By identity, not Equal: Truth's answers are asked of the objects.
func (s *Solver) stampSet(id int32, old, st *State) {
	if int(id) >= len(s.g.prog.Locs) {
		s.wholeTick[id] = s.truthClock // (a hub has no state)
		return
	}
	in := s.g.in[id]
	if old == nil || old.bottom || st.bottom || len(old.vals) != len(in) || len(st.vals) != len(in) {
		s.wholeTick[id] = s.truthClock
		return
	}
	vt := s.valTick[id]
	if len(vt) != len(in) {
		vt = make([]int64, len(in))
		s.valTick[id] = vt
		s.wholeTick[id] = s.truthClock // (no per-cell ticks before)
	}
	touch := s.touched(id)
	for i := range in {
		if old.vals[i] != st.vals[i] {
			vt[i] = s.truthClock
			if touch[i] {
				s.touchTick[id] = s.truthClock
			}
		}
	}
}

// bump records which parts of location id's post may have changed with its
// state going from old (nil: ⊥) to st. The post's cells that act(id)
// touches (reads or writes), and whether the post is ⊥, are functions of
// the whole state: changed[id] is bumped when one of the touched cells
// changed (or ⊥-ness did). A tracked cell the action does not touch is
// passed through unchanged (computePost) unless the whole post becomes
// ⊥ or stops being ⊥ (the action's refinement of the touched cells): so
// cellTick[id][i] is bumped when that cell's value changed, and all of
// them when the post's ⊥-ness may have changed (oldPost, the post of the
// old state, unknown when nil, is compared with the new one).
// Conservative: any change bumps more than needed, never less.
func (s *Solver) bump(id int32, old *State, oldPost *post, st *State) {
	in := s.g.in[id]
	ct := s.cellTick[id]
	if len(ct) != len(in) {
		ct = make([]int64, len(in))
		s.cellTick[id] = ct
	}
	oldBot := old == nil || old.bottom
	if oldBot != st.bottom || st.bottom || len(old.vals) != len(in) || len(st.vals) != len(in) {
		s.changed[id] = s.tick
		for i := range ct {
			ct[i] = s.tick
		}
		return
	}
	touch := s.touched(id)
	touchedChanged := false
	for i := range in {
		a, b := old.vals[i], st.vals[i]
		if a == b || a.Equal(b) {
			continue
		}
		ct[i] = s.tick
		if touch[i] {
			touchedChanged = true
		}
	}
	if !touchedChanged {
		return
	}
	s.changed[id] = s.tick
	if oldPost == nil || oldPost.bottom != s.postOf(s.g.node(id)).bottom {
		for i := range ct {
			ct[i] = s.tick
		}
	}
}

// touched returns, by index in In(id), whether act(id) reads or writes
// the cell (cached).
func (s *Solver) touched(id int32) []bool {
	if t := s.touch[id]; t != nil {
		return t
	}
	in := s.g.in[id]
	t := make([]bool, len(in))
	for i, c := range in {
		t[i] = has(s.g.uses[id], c) || has(s.g.mod[id], c)
	}
	s.touch[id] = t
	return t
}

// resetIncremental sizes the tables of evalIncr for n nodes and forgets
// the last evaluation of the locations in reflagged (an existing edge's
// AlsoInterference flag changed what it means). A location that only got
// new edges keeps it: registerOut marks the new edges, so the next
// evaluation recomputes the cells they carry (from all their edges) and
// reuses the others, as for a changed source (on umem.c the targets of
// new edges, evaluated afresh, were a quarter of the solver's time).
func (s *Solver) resetIncremental(n int, reflagged []*cfg.Loc) {
	for len(s.changed) < n {
		s.changed = append(s.changed, 0)
	}
	for len(s.evalAt) < n {
		s.evalAt = append(s.evalAt, 0)
	}
	if s.last == nil {
		s.last = make([]*State, n)
		s.idx = nil
		s.cellTick = make([][]int64, n)
		s.touch = make([][]bool, n)
		s.out, s.outN = nil, nil
		s.dirtyC, s.dirtyN, s.ctrlD = nil, nil, nil
		s.hubQ, s.hubInQ, s.hubOut = nil, nil, nil
	}
	for len(s.cellTick) < n {
		s.cellTick = append(s.cellTick, nil)
		s.touch = append(s.touch, nil)
	}
	for len(s.last) < n {
		s.last = append(s.last, nil)
	}
	for _, l := range reflagged {
		s.last[l.ID] = nil
	}
	s.registerOut(n)
}

// outEdge is an edge as its source lists it (Solver.out): the target, the
// edge's index in the target's edges, and srcIdx: controlSlot for a
// control edge, else the index of its cell in the source's In when the
// source passes the cell through (-1: it does not). The index of the
// cell in the target's In is the edge's edgeSlot.dst, which registerOut
// sets (12 bytes an edge instead of 16 with a copy of it here: pigz
// linked lists about ten million).
type outEdge struct{ dst, k, srcIdx int32 }

// registerOut lists the edges added since the last call in their sources'
// out lists (edges are only appended to a node's list between rebuilds,
// which start the tables afresh), and sizes the per-node dirtiness tables
// for n nodes. A new edge into a location with a last evaluation is
// marked (mark) as one whose value changed: evalIncr then recomputes its
// cell (its control reachability for a control edge) from all the
// location's edges of that cell, exactly what evalFull computes for it;
// a cell with no new and no marked edge has the same edges carrying the
// same values as at the last evaluation, whose value evalIncr reuses.
// (A new edge rebuilds the location's edgeIndex, dropping its cells'
// trees of partial joins: they are built again over all edges.)
func (s *Solver) registerOut(n int) {
	g := s.g
	for len(s.out) < n {
		s.out = append(s.out, nil)
	}
	for len(s.outN) < n {
		s.outN = append(s.outN, 0)
	}
	for len(s.dirtyC) < n {
		s.dirtyC = append(s.dirtyC, nil)
	}
	for len(s.dirtyN) < n {
		s.dirtyN = append(s.dirtyN, 0)
	}
	for len(s.ctrlD) < n {
		s.ctrlD = append(s.ctrlD, false)
	}
	for len(s.hubInQ) < n {
		s.hubInQ = append(s.hubInQ, false)
	}
	for len(s.hubOut) < n {
		s.hubOut = append(s.hubOut, nil)
	}
	nLocs := len(g.prog.Locs)
	// Room for the new entries first (an upper bound per source): the
	// lists grew by appending, which on memcached.c left half their
	// capacity unused and copied them repeatedly.
	grow := make([]int32, n)
	for d := range min(n, nLocs) {
		edges := g.edges[d]
		for k := int(s.outN[d]); k < len(edges); k++ {
			if e := edges[k]; e.Src != nil && e.Src.ID < n {
				grow[e.Src.ID]++
			}
		}
	}
	for u, k := range grow {
		if o := s.out[u]; k > 0 && cap(o)-len(o) < int(k) {
			// (exactly: slices.Grow would add a quarter more to a
			// long list, unused when it gets no edges in a later round)
			s.out[u] = append(make([]outEdge, 0, len(o)+int(k)), o...)
		}
	}
	for d := range n {
		if d >= nLocs {
			break // a hub's inputs are its tree's leaves (set marks them)
		}
		edges := g.edges[d]
		if int(s.outN[d]) >= len(edges) {
			continue
		}
		in := g.in[d]
		sl := s.edgeSlots(d, len(edges))
		for k := int(s.outN[d]); k < len(edges); k++ {
			e := edges[k]
			if e.Src == nil {
				continue // ⊥ never changes
			}
			o := outEdge{dst: int32(d), k: int32(k), srcIdx: -1}
			if e.Cell == ControlCell {
				o.srcIdx = controlSlot
			} else if j, ok := slices.BinarySearch(in, e.Cell); ok {
				sl[k].dst = int32(j) // (mark reads it; nothing changes it while out lists the edge)
			} else {
				continue // a cell d does not track
			}
			u := e.Src.ID
			if u < nLocs && e.Cell != ControlCell {
				if j, ok := slices.BinarySearch(g.in[u], e.Cell); ok && !s.touched(int32(u))[j] {
					o.srcIdx = int32(j)
				}
			}
			s.out[u] = append(s.out[u], o)
			if s.last[d] != nil {
				s.mark(o)
			}
		}
		s.outN[d] = int32(len(edges))
	}
}

// markOut marks the out-edges of node u whose value may have changed at
// the current tick: those whose cell u passes through when that cell's
// tick was bumped, the others when changed[u] was (for a hub: all).
func (s *Solver) markOut(u int32) {
	ct := s.cellTick[u]
	all := s.changed[u] == s.tick
	for _, o := range s.out[u] {
		if o.srcIdx >= 0 {
			if int(o.srcIdx) >= len(ct) || ct[o.srcIdx] != s.tick {
				continue
			}
		} else if !all {
			continue
		}
		s.mark(o)
	}
}

// mark records that edge o may carry a new value to its target.
func (s *Solver) mark(o outEdge) {
	d := o.dst
	if o.srcIdx == controlSlot {
		s.ctrlD[d] = true
		return
	}
	slot := s.slots[d][o.k].dst
	dc := s.dirtyC[d]
	if dc == nil {
		dc = make([]bool, len(s.g.in[d]))
		s.dirtyC[d] = dc
	}
	if !dc[slot] {
		dc[slot] = true
		s.dirtyN[d]++
	}
	if int(d) < len(s.idx) {
		if x := s.idx[d]; x != nil && x.trees != nil && int(o.k) < x.n {
			if t := x.trees[slot]; t != nil {
				t.dirty(x.leaf[o.k])
			}
		}
	}
}

// hubsGrown forgets the cached value and partial joins of hubs that got
// new sources (Graph.ExtendHub) and queues them for flushHubs, which marks
// their out-edges when the join they pass on changed: what set does for a
// source whose state changed, for every leaf at once.
func (s *Solver) hubsGrown(hubs []*cfg.Loc) {
	nLocs := len(s.g.prog.Locs)
	for _, hub := range hubs {
		h := int32(hub.ID)
		s.posts[h] = nil
		s.changed[h] = s.tick
		s.truthClock++
		s.postTick[h] = s.truthClock
		if i := int(h) - nLocs; i < len(s.hubTrees) {
			s.hubTrees[i] = nil
		}
		if !s.hubInQ[h] {
			s.hubInQ[h] = true
			s.hubQ = append(s.hubQ, h)
		}
	}
}

// flushHubs marks the out-edges of every hub whose sources changed since
// the last flush and whose value did change (exact: an edge out of a hub
// carries the hub's value, a function of its sources' states).
func (s *Solver) flushHubs() {
	for len(s.hubQ) > 0 {
		q := s.hubQ
		s.hubQ = nil
		for _, h := range q {
			s.hubInQ[h] = false
			p := s.postOf(s.g.node(h))
			if old := s.hubOut[h]; old != nil && postEqual(old, p) {
				continue
			}
			s.hubOut[h] = p
			for _, o := range s.out[h] {
				s.mark(o)
			}
		}
	}
}

// joinInto returns cur ⊔ v (v when cur is nil). When v ⊑ cur it returns
// cur itself: cur is then an upper bound of both and, the join being the
// least upper bound, cur ⊔ v = cur, so skipping the join (which
// allocates) changes nothing. Many edges into one location often carry
// the very same value.
func joinInto(cur, v domains.Value) domains.Value {
	if a, ok := cur.(*domains.IntervalValue); ok {
		if b, ok := v.(*domains.IntervalValue); ok {
			return domains.JoinBoxes(a, b) // the same, without dynamic dispatch
		}
	}
	switch {
	case cur == nil:
		return v
	case cur == v || v.Leq(cur):
		return cur
	default:
		return cur.Join(v)
	}
}

// postEqual reports whether two posts hold the same values.
func postEqual(a, b *post) bool {
	if a.bottom || b.bottom {
		return a.bottom == b.bottom
	}
	if !slices.Equal(a.cells, b.cells) {
		return false
	}
	for i, v := range a.vals {
		if v != b.vals[i] && !v.Equal(b.vals[i]) {
			return false
		}
	}
	return true
}

// hubPost is the value a hub passes on: the join of its sources' values
// of its cell, taken from their current posts exactly as direct edges
// would (so a hub changes no invariant), cached until a source changes
// its contribution (set, hubLeafMayChange). A hub has no state of its own and is never widened or narrowed.
// The join is kept in a tree of partial joins (hubTree): set marks the
// changed sources, and only their paths to the root are joined again. On
// memcached.c hubs of hundreds of sources were re-joined whole at every
// change of one source (a third of the solver's time). The join is
// associative and commutative (a least upper bound), so the root equals
// the join in source order; CHORUS_CHECK_INCREMENTAL compares the two.
func (s *Solver) hubPost(h *cfg.Loc) *post {
	g := s.g
	i := h.ID - len(g.prog.Locs)
	for len(s.hubTrees) <= i {
		s.hubTrees = append(s.hubTrees, nil)
	}
	t := s.hubTrees[i]
	if t == nil {
		t = newHubTree(len(g.hubSrcs[i]))
		s.hubTrees[i] = t
	}
	val := t.root(func(k int) domains.Value { return s.hubLeaf(i, k) })
	if checkIncremental {
		var lin domains.Value
		for k := range g.hubSrcs[i] {
			lin = joinOpt(lin, s.hubLeaf(i, k))
		}
		if (lin == nil) != (val == nil) || lin != nil && !lin.Equal(val) {
			panic(fmt.Sprintf("dfg: hub %d: the tree of partial joins differs from the join of its sources", h.ID))
		}
	}
	if val == nil {
		return &post{bottom: true}
	}
	return &post{cells: []CellID{g.hubCell[i]}, vals: []domains.Value{val}}
}

// hubLeaf is what the k-th source of hub i contributes: its post's value
// of the hub's cell (nil when the post is ⊥).
func (s *Solver) hubLeaf(i, k int) domains.Value {
	c := s.g.hubCell[i]
	p := s.postOf(s.g.hubSrcs[i][k])
	if p.bottom {
		return nil
	}
	v, ok := p.get(c)
	if !ok {
		v = s.box(c) // the source does not track the cell: any value
	}
	return v
}

// joinOpt is a ⊔ b where nil stands for ⊥ (no contribution).
func joinOpt(a, b domains.Value) domains.Value {
	if b == nil {
		return a
	}
	return joinInto(a, b)
}

// hubTree is a tree of partial joins over n leaves (a hub's sources): node
// j of 1..n-1 joins nodes 2j and 2j+1, leaf k is node n+k, node 1 is the
// join of all (for n = 1, the leaf itself). nil is ⊥. Leaves marked dirty
// are read again, and their ancestors joined again, at the next root.
type hubTree struct {
	n       int
	node    []domains.Value
	built   bool
	isDirty []bool
	todo    []int32
}

func newHubTree(n int) *hubTree {
	return &hubTree{n: n, node: make([]domains.Value, 2*n), isDirty: make([]bool, n)}
}

// dirty marks leaf k as changed.
func (t *hubTree) dirty(k int32) {
	if t.built && !t.isDirty[k] {
		t.isDirty[k] = true
		t.todo = append(t.todo, k)
	}
}

// root returns the join of all leaves, reading the dirty ones (all the
// first time) with leaf.
func (t *hubTree) root(leaf func(int) domains.Value) domains.Value {
	n := t.n
	if n == 0 {
		return nil
	}
	if !t.built {
		for k := range n {
			t.node[n+k] = leaf(k)
		}
		for j := n - 1; j >= 1; j-- {
			t.node[j] = joinOpt(t.node[2*j], t.node[2*j+1])
		}
		t.built = true
	} else if len(t.todo) > 0 {
		// Read the dirty leaves, then rejoin their ancestors level by
		// level (a parent shared by several dirty leaves once). A node
		// whose value did not change (the same object, or an equal one,
		// whose old object is kept) leaves its parent's inputs as they
		// were: its ancestors are rejoined only if another child changed.
		// A source's post changes mostly in other cells than the hub's,
		// and a changed leaf is mostly absorbed by its sibling's join.
		var up []int32
		for _, k := range t.todo {
			t.isDirty[k] = false
			v := leaf(int(k))
			if v == t.node[n+int(k)] {
				continue
			}
			t.node[n+int(k)] = v
			up = append(up, int32(n+int(k))/2)
		}
		t.todo = t.todo[:0]
		for len(up) > 0 {
			slices.Sort(up)
			up = slices.Compact(up)
			next := up[:0]
			for _, j := range up {
				if j < 1 {
					continue
				}
				v := joinOpt(t.node[2*j], t.node[2*j+1])
				if old := t.node[j]; v == old || v != nil && old != nil && v.Equal(old) {
					continue
				}
				t.node[j] = v
				if j > 1 {
					next = append(next, j/2)
				}
			}
			up = next
		}
	}
	return t.node[1]
}

// state returns Φ(loc) by ID (⊥ when not computed).
func (s *Solver) state(id int32) *State {
	if st := s.states[id]; st != nil {
		return st
	}
	return &State{s: s, loc: s.g.node(id), bottom: true}
}

func (s *Solver) computeWTO() {
	g := s.g
	roots := make([]int32, 0, len(g.rpo))
	for _, l := range g.rpo {
		roots = append(roots, int32(l.ID))
	}
	if g.nEdges > s.opt.wtoMaxEdges {
		s.order, s.isHead = dfsOrder(g.succs, roots)
	} else {
		s.order, s.isHead = weakTopoOrderChecked(g.succs, roots)
	}
	s.pos = make([]int32, g.numNodes())
	for i, id := range s.order {
		s.pos[id] = int32(i)
	}
	s.wtoEdge = g.nEdges
	s.stats.Heads = 0
	s.backC = make([][]CellID, g.numNodes())
	// A hub never widens: its component's cycles all leave it through its
	// targets, which widen instead, with the cells that come back from
	// anywhere in the hub's component. So widening happens at program
	// locations, as with direct edges.
	from := make([]int32, g.numNodes()) // component start for the back-cell test
	for id := range from {
		from[id] = s.pos[id]
	}
	for i := len(g.prog.Locs); i < g.numNodes(); i++ {
		if !s.isHead[i] {
			continue
		}
		s.isHead[i] = false
		for _, d := range g.succs[i] {
			s.isHead[d] = true
			from[d] = min(from[d], s.pos[i])
		}
	}
	var back []CellID // scratch: a head's back cells, with repeats
	for id, h := range s.isHead {
		if !h {
			continue
		}
		s.stats.Heads++
		// Only cells that flow back into the head from its own component
		// need widening: the others come from outside, where the
		// enclosing components' heads ensure termination.
		back = back[:0]
		for _, e := range g.edges[id] {
			if e.Src != nil && e.Cell != ControlCell && s.pos[e.Src.ID] >= from[id] {
				back = append(back, e.Cell)
			}
		}
		if set := sortedSet(back); len(set) > 0 {
			s.backC[id] = slices.Clone(set)
		}
	}
}

// posHeap is the worklist of ascend: (WTO position, node) pairs, least
// position first. It is container/heap's algorithm (the same sift-up and
// sift-down, so the same pop order, ties included) on the concrete type:
// container/heap's interface boxed every pushed pair (an allocation per
// push; memcached.c pushes millions).
type posHeap [][2]int32

func (h posHeap) Len() int { return len(h) }

func (h *posHeap) push(x [2]int32) {
	*h = append(*h, x)
	a := *h
	j := len(a) - 1
	for {
		i := (j - 1) / 2 // parent
		if i == j || !(a[j][0] < a[i][0]) {
			break
		}
		a[i], a[j] = a[j], a[i]
		j = i
	}
}

func (h *posHeap) pop() [2]int32 {
	a := *h
	n := len(a) - 1
	a[0], a[n] = a[n], a[0]
	i := 0
	for {
		j1 := 2*i + 1
		if j1 >= n || j1 < 0 { // j1 < 0 after int overflow
			break
		}
		j := j1 // left child
		if j2 := j1 + 1; j2 < n && a[j2][0] < a[j1][0] {
			j = j2 // = 2*i + 2  // right child
		}
		if !(a[j][0] < a[i][0]) {
			break
		}
		a[i], a[j] = a[j], a[i]
		i = j
	}
	x := a[n]
	*h = a[:n]
	return x
}

// postOf returns (cached) the value after act(u).
func (s *Solver) postOf(u *cfg.Loc) *post {
	if p := s.posts[u.ID]; p != nil {
		return p
	}
	p := s.computePost(u)
	s.posts[u.ID] = p
	return p
}

func (s *Solver) computePost(u *cfg.Loc) *post {
	if u.ID >= len(s.g.prog.Locs) {
		return s.hubPost(u)
	}
	st := s.state(int32(u.ID))
	if st.bottom {
		return &post{bottom: true}
	}
	if base := s.basePosts[u.ID]; base != nil {
		s.basePosts[u.ID] = nil
		p := s.derivePost(u, st, base)
		s.stats.PostsDerived++
		if checkIncremental {
			if full := s.fullPost(u, st); !postEqual(full, p) || !slices.Equal(full.cells, p.cells) {
				panic(fmt.Sprintf("dfg: the post of location %d derived from an earlier one differs from the one computed", u.ID))
			}
		}
		return p
	}
	return s.fullPost(u, st)
}

// touchedIdentical reports whether the states old and st of location id
// (neither ⊥, both over In(id)) hold the very same value objects in every
// cell act(id) touches (reads or writes: touched).
func (s *Solver) touchedIdentical(id int32, old, st *State) bool {
	in := s.g.in[id]
	if old == nil || old.bottom || st.bottom || len(old.vals) != len(in) || len(st.vals) != len(in) ||
		len(old.cells) != len(in) || len(st.cells) != len(in) {
		return false
	}
	if len(in) > 0 && &old.cells[0] != &st.cells[0] && !slices.Equal(old.cells, st.cells) {
		return false
	}
	if _, ok := s.g.node(id).Act.(*cfg.InitGlobals); ok {
		return false // (its post never shares the state's values: keep computePost's)
	}
	for i, t := range s.touched(id) {
		if t && old.vals[i] != st.vals[i] {
			return false
		}
	}
	return true
}

// derivePost is computePost's result for location u in state st, given
// base, its post in an earlier state whose touched cells held the very
// objects st's do (touchedIdentical, checked by set at each replacement
// since). Exact: fullPost evaluates act(u) on a frame over the touched
// cells only (uses ∪ mod; those outside In(u) get their type's box),
// and the action is a function of the frame's value (frame holds no
// other state), so the post's ⊥-ness, its values of touched cells
// (keepIdentical compares with the same objects) and its cells (In(u) ∪
// mod) are base's; every other cell of the post is passed through from
// the state unchanged (it is in In(u), not in mod). CHORUS_CHECK_INCREMENTAL
// compares with fullPost. (umem.c: most states change in cells their
// location only passes through, yet the whole action was evaluated again.)
func (s *Solver) derivePost(u *cfg.Loc, st *State, base *post) *post {
	if base.bottom {
		return &post{bottom: true}
	}
	touch := s.touched(int32(u.ID))
	cells := base.cells
	if len(cells) == len(st.cells) {
		cells = st.cells // (fullPost shares the state's list then)
	}
	p := &post{cells: cells, vals: make([]domains.Value, len(cells))}
	j, n := 0, 0
	for i, c := range cells {
		for j < len(st.cells) && st.cells[j] < c {
			j++
		}
		if j < len(st.cells) && st.cells[j] == c && !touch[j] {
			p.vals[i] = st.vals[j]
		} else {
			p.vals[i] = base.vals[n] // (baseOf kept exactly these, in order)
			n++
		}
	}
	if len(cells) == len(st.cells) && (len(cells) == 0 || &cells[0] == &st.cells[0]) && slices.Equal(p.vals, st.vals) {
		p.vals = st.vals // as fullPost
	}
	return p
}

// baseOf slims p, a post of location id's state (over In(id): set calls
// it only when touchedIdentical held), to what derivePost reads of it: its
// ⊥-ness, its cells and the values of the cells it does not pass through
// from the state (touched by act(id), or not in In(id)), in order. The
// passed-through values are the old state's: a kept full post held them
// (and its value array) alive for nothing, a location at a time until its
// post was asked again (floppy: hundreds of cells a location, one or two
// touched).
func (s *Solver) baseOf(id int32, p *post) *post {
	if p.bottom {
		return p
	}
	in := s.g.in[id]
	touch := s.touched(id)
	var kept []domains.Value
	j := 0
	for i, c := range p.cells {
		for j < len(in) && in[j] < c {
			j++
		}
		if j < len(in) && in[j] == c && !touch[j] {
			continue
		}
		kept = append(kept, p.vals[i])
	}
	return &post{cells: p.cells, vals: kept}
}

// fullPost computes the post of location u (not a hub) in state st (not ⊥).
func (s *Solver) fullPost(u *cfg.Loc, st *State) *post {
	g := s.g
	mod := g.mod[u.ID]
	cells := st.cells // (shared when it has every cell of mod: read only)
	if !subsetSorted(mod, cells) {
		cells = sortedSet(append(append(make([]CellID, 0, len(st.cells)+len(mod)), st.cells...), mod...))
	}
	p := &post{cells: cells, vals: make([]domains.Value, len(cells))}
	if _, ok := u.Act.(*cfg.InitGlobals); ok {
		for i, c := range cells {
			if has(mod, c) {
				p.vals[i] = s.initVal(c)
			} else {
				p.vals[i], _ = st.value(c)
			}
		}
		return p
	}
	touch := sortedSet(append(slices.Clone(g.uses[u.ID]), mod...))
	f, v := s.frameOf(touch, func(c CellID) domains.Value {
		if x, ok := st.value(c); ok {
			return x
		}
		return s.box(c) // a fresh cell (a spawned thread's parameter)
	})
	f.clamp = true
	v = f.post(u, v)
	if v.IsBottom() {
		return &post{bottom: true}
	}
	for i, c := range cells {
		if k := f.index(c); k >= 0 {
			p.vals[i] = keepIdentical(f.project(v, k), st, c)
		} else if x, ok := st.value(c); ok && !has(mod, c) {
			p.vals[i] = x
		} else {
			p.vals[i] = s.box(c) // a cell without integer variables: ⊤
		}
	}
	if len(cells) == len(st.cells) && (len(cells) == 0 || &cells[0] == &st.cells[0]) && slices.Equal(p.vals, st.vals) {
		// The post is the state, value object for value object (an
		// action that writes no cell and refines none): it shares the
		// state's list instead of holding a copy. Neither is written
		// once built, and set drops the post with the state.
		p.vals = st.vals
	}
	return p
}

// keepIdentical returns the value of cell c in st instead of the box pv
// the action computed for it when they are identical (the action only
// reads the cell, or writes back what it held: most cells of a post). The
// post then holds no copy of it, and the joins and comparisons downstream
// find one object where they would compare two. Exact: identical boxes give the same result to
// every operation (IntervalValue.Identical); for other domains, whose
// Equal may hold between different representations, pv is kept.
func keepIdentical(pv domains.Value, st *State, c CellID) domains.Value {
	b, ok := pv.(*domains.IntervalValue)
	if !ok {
		return pv
	}
	if x, ok := st.value(c); ok {
		if a, ok := x.(*domains.IntervalValue); ok && a.Identical(b) {
			return x
		}
	}
	return pv
}

// subsetSorted reports whether every element of the sorted a is in the
// sorted b.
func subsetSorted(a, b []CellID) bool {
	j := 0
	for _, c := range a {
		for j < len(b) && b[j] < c {
			j++
		}
		if j == len(b) || b[j] != c {
			return false
		}
	}
	return true
}

// frameOf builds the frame over cells with their values from get.
// Cells without integer variables (pointers, floats) are left out: they
// are always ⊤.
func (s *Solver) frameOf(cells []CellID, get func(CellID) domains.Value) (*frame, domains.Value) {
	f := &frame{part: s.part, sorted: slices.IsSorted(cells)}
	var vals []domains.Value
	off := 0
	for _, c := range cells {
		if !s.part.hasInt[c] {
			continue
		}
		f.cells = append(f.cells, c)
		f.offs = append(f.offs, off)
		vals = append(vals, get(c))
		off += len(s.part.Cell(c).Vars)
	}
	return f, combine(s.dom, vals)
}

// combine lays values side by side (their product).
func combine(dom domains.Domain, vals []domains.Value) domains.Value {
	if len(vals) == 0 {
		return dom.Top(0)
	}
	if boxes, ok := allBoxes(vals); ok {
		// Boxes: the product is the concatenation (one allocation
		// instead of a copy of the growing frame per cell).
		return domains.ConcatIntervals(boxes)
	}
	acc := vals[0]
	for _, x := range vals[1:] {
		d0, k := acc.Dim(), x.Dim()
		if k == 0 {
			if x.IsBottom() {
				acc = acc.Meet(bottomLike(acc))
			}
			continue
		}
		if d0 == 0 {
			if acc.IsBottom() {
				x = x.Meet(bottomLike(x))
			}
			acc = x
			continue
		}
		if x.IsBottom() {
			acc = acc.AddDims(k)
			acc = acc.Meet(bottomLike(acc))
			continue
		}
		if k <= 2 {
			// Few constraints: assuming them is cheaper than a meet
			// (which closes the whole value).
			acc = acc.AddDims(k)
			for _, c := range x.Constraints() {
				e := domains.LinExpr{Const: c.Expr.Const, Terms: make([]domains.Term, len(c.Expr.Terms))}
				for j, t := range c.Expr.Terms {
					e.Terms[j] = domains.Term{Var: t.Var + d0, Coef: t.Coef}
				}
				acc = acc.Assume(domains.LinCons{Expr: e, Op: c.Op})
			}
			continue
		}
		emb := x.AddDims(d0)
		keep := make([]int, d0+k)
		for j := range d0 {
			keep[j] = k + j
		}
		for j := range k {
			keep[d0+j] = j
		}
		acc = acc.AddDims(k).Meet(emb.Project(keep))
	}
	return acc
}

// allBoxes returns vals as boxes when they all are.
func allBoxes(vals []domains.Value) ([]*domains.IntervalValue, bool) {
	out := make([]*domains.IntervalValue, len(vals))
	for i, v := range vals {
		b, ok := v.(*domains.IntervalValue)
		if !ok {
			return nil, false
		}
		out[i] = b
	}
	return out, true
}

// project extracts the value of the frame's k-th cell from v.
func (f *frame) project(v domains.Value, k int) domains.Value {
	n := len(f.part.Cell(f.cells[k]).Vars)
	if len(f.cells) == 1 {
		return v
	}
	if b, ok := v.(*domains.IntervalValue); ok {
		return b.Slice(f.offs[k], n)
	}
	keep := make([]int, n)
	for i := range keep {
		keep[i] = f.offs[k] + i
	}
	return v.Project(keep)
}

// eval computes the right-hand side of the equation of loc from the
// current states of its sources: from scratch (evalFull) the first time,
// then by evalIncr.
func (s *Solver) eval(loc *cfg.Loc) *State {
	id := loc.ID
	s.flushHubs()
	var st *State
	if prev := s.last[id]; prev != nil {
		st = s.evalIncr(loc, prev)
		if checkIncremental {
			if full := s.evalFull(loc); !full.equal(st) {
				panic(fmt.Sprintf("dfg: incremental evaluation of location %d differs from the full one", id))
			}
		}
	} else {
		st = s.evalFull(loc)
	}
	s.last[id] = st
	s.evalAt[id] = s.tick
	if s.dirtyN[id] > 0 {
		clear(s.dirtyC[id])
		s.dirtyN[id] = 0
	}
	s.ctrlD[id] = false

	return st
}

// checkIncremental (CHORUS_CHECK_INCREMENTAL=1, and this package's tests)
// makes eval compare every incremental evaluation with a full one and
// panic on a difference (and reaching definitions check that their bit
// buffer is all zero where takeBits assumes it is).
var checkIncremental = os.Getenv("CHORUS_CHECK_INCREMENTAL") != ""

// evalIncr is evalFull given prev, the result of loc's last evaluation
// (with the same edges: resetIncremental forgets it when they change): a
// cell none of whose edges was marked since then (mark: set marks the
// out-edges of a location whose state changed, flushHubs those of a hub
// whose value changed) has the value it had, which is reused; the others
// are recomputed as evalFull does, a cell with many edges from its tree
// of partial joins (cellTree). A source's post, and so what its edges
// carry, is a function of its state alone (set marks whenever a state is
// replaced; a hub's post is a function of its sources' states), so the
// result equals evalFull's. On memcached.c a location's 1,700 edges on
// average were joined at each evaluation though one or two sources had
// changed; then every edge was still scanned at each evaluation to find
// the changed ones (now they are pushed).
func (s *Solver) evalIncr(loc *cfg.Loc, prev *State) *State {
	g := s.g
	id := loc.ID
	in := g.in[id]
	if !prev.bottom && len(prev.cells) != len(in) {
		return s.evalFull(loc)
	}
	dirty := s.dirtyC[id]
	if s.dirtyN[id] == 0 && !s.ctrlD[id] {
		return prev // no edge into loc carries a new value
	}
	if prev.bottom {
		if prev.unreach && !s.ctrlD[id] {
			// ⊥ for want of a reachable control source, and no control
			// edge changed: still ⊥, whatever the cells.
			return prev
		}
		return s.evalFull(loc)
	}
	x := s.edgeIndex(id)
	if s.ctrlD[id] {
		// A control source changed: prev was reachable, loc still is
		// if some control source's post is not ⊥ (posts only grow
		// while the solver ascends; narrowing can make one ⊥).
		reach := false
		edges := g.edges[id]
		for _, k := range x.ctrl {
			src := edges[k].Src
			if src == nil || !s.postOf(src).bottom {
				reach = true
				break
			}
		}
		if !reach {
			return s.evalFull(loc) // ⊥
		}
	}
	if s.dirtyN[id] == 0 {
		return prev
	}
	return s.evalCells(loc, dirty, prev)
}

// controlSlot is edgeIndex.slot of a control edge.
const controlSlot = -2

// edgeIndex is a location's edges in a form evalIncr scans fast: the edges
// grouped by the index of their cell in In (by[at[i]:at[i+1]] for cell
// i). (The index of an edge's cell is its edgeSlot.dst, its source is in
// Graph.edges, and whether it passes its cell through in outEdge.srcIdx:
// per-edge copies of them here were 12 of the index's 20 bytes an edge.)
type edgeIndex struct {
	n int // edges indexed
	// ctrl: the control edges (indexes).
	ctrl []int32
	// leaf: by edge, its position among the edges of its cell (its leaf
	// in the cell's tree); trees: by cell index, the tree of partial
	// joins of the cell's edges (cellTree; nil: none yet or not used).
	leaf  []int32
	trees []*hubTree
	at    []int32
	by    []int32
}

// edgeIndex returns location id's edge index, rebuilt when edges were
// added since.
func (s *Solver) edgeIndex(id int) *edgeIndex {
	for len(s.idx) <= id {
		s.idx = append(s.idx, nil)
	}
	edges := s.g.edges[id]
	old := s.idx[id]
	if old != nil && old.n == len(edges) {
		return old
	}
	in := s.g.in[id]
	x := &edgeIndex{n: len(edges), at: make([]int32, len(in)+2)}
	// The slot of each edge's cell in In: edgeSlots remembers it (-1:
	// not known yet; set here; an edge of a cell In lacks keeps -1 and
	// is in no group). Edges are only appended between rebuilds (which
	// drop s.idx and s.slots), and In does not change then: the slots
	// known are those of the same edges now, so only the new edges are
	// looked up (memcached.c: each round re-searched millions of old
	// edges). The grouping by cell is laid out afresh from them below.
	sl := s.edgeSlots(id, len(edges))
	slot := func(k int) int32 {
		e := edges[k]
		if e.Cell == ControlCell {
			return controlSlot
		}
		if j := sl[k].dst; j >= 0 && int(j) < len(in) && in[j] == e.Cell {
			return j
		}
		if j, ok := slices.BinarySearch(in, e.Cell); ok {
			sl[k].dst = int32(j)
			return int32(j)
		}
		return -1
	}
	start := 0
	if old != nil && old.n < len(edges) && len(old.at) == len(in)+1 {
		start = old.n
		x.ctrl = slices.Clone(old.ctrl)
	}
	for k := start; k < len(edges); k++ {
		if edges[k].Cell == ControlCell {
			x.ctrl = append(x.ctrl, int32(k))
		}
	}
	for k := range edges {
		if j := slot(k); j >= 0 {
			x.at[j+2]++
		}
	}
	for i := 2; i < len(x.at); i++ {
		x.at[i] += x.at[i-1]
	}
	x.by = make([]int32, x.at[len(x.at)-1])
	x.leaf = make([]int32, len(edges))
	placed := make([]int32, len(in))
	for k := range edges {
		if j := slot(k); j >= 0 {
			x.leaf[k] = placed[j]
			placed[j]++
			x.by[x.at[j+1]] = int32(k)
			x.at[j+1]++
		}
	}
	x.at = x.at[:len(in)+1]
	s.idx[id] = x
	return x
}

// evalFull evaluates loc from all its edges.
func (s *Solver) evalFull(loc *cfg.Loc) *State { return s.evalCells(loc, nil, nil) }

// evalCells computes the right-hand side of loc's equation; with dirty
// non-nil, only the cells i with dirty[i], the others taken from prev.
func (s *Solver) evalCells(loc *cfg.Loc, dirty []bool, prev *State) *State {
	g := s.g
	in := g.in[loc.ID]
	st := &State{s: s, loc: loc, cells: in, vals: make([]domains.Value, len(in))}
	reach := false
	var frn []domains.Value // foreign sources of mixed cells (mixed.go)
	edges := g.edges[loc.ID]
	sl := s.edgeSlots(loc.ID, len(edges))
	todo := edges
	var ks []int32 // with dirty: the edges of the dirty cells
	if dirty != nil {
		reach = true // prev was not ⊥ and loc is still reachable (evalIncr)
		x := s.edgeIndex(loc.ID)
		for i := range st.vals {
			switch {
			case !dirty[i]:
				st.vals[i] = prev.vals[i]
			case x.at[i+1]-x.at[i] >= cellTreeMin && s.part.cells[in[i]].Owner == nil:
				st.vals[i] = s.cellTree(loc.ID, x, i, edges, sl)
			default:
				ks = append(ks, x.by[x.at[i]:x.at[i+1]]...)
			}
		}
		todo = nil
	}
	s.stats.EdgeVisits += len(todo) + len(ks)
	for n := range len(todo) + len(ks) {
		k := n
		if dirty != nil {
			k = int(ks[n])
		}
		e := edges[k]
		var val domains.Value
		if e.Src == nil {
			if e.Cell == ControlCell {
				reach = true
				continue
			}
			val = s.box(e.Cell)
		} else {
			p := s.postOf(e.Src)
			if p.bottom {
				continue
			}
			if e.Cell == ControlCell {
				reach = true
				continue
			}
			// The cell's slot in the source's post, remembered per
			// edge (a post's cells do not change within a graph
			// version; checked anyway).
			if j := sl[k].src; j >= 0 && int(j) < len(p.cells) && p.cells[j] == e.Cell {
				val = p.vals[j]
			} else if j, ok := slices.BinarySearch(p.cells, e.Cell); ok {
				sl[k].src = int32(j)
				val = p.vals[j]
			} else {
				val = s.box(e.Cell) // the source does not track the cell: any value
			}
		}
		i := int(sl[k].dst)
		if i < 0 || i >= len(in) || in[i] != e.Cell {
			j, ok := slices.BinarySearch(in, e.Cell)
			if !ok {
				continue
			}
			i = j
			sl[k].dst = int32(j)
		}
		if c := s.part.cells[e.Cell]; c.Owner != nil {
			// Mixed cells (mixed.go): interference sources apart.
			switch {
			case e.Interference:
			case g.foreign(e, loc):
				// The thread's path from its entry: its locals are
				// not yet written.
				st.vals[i] = joinInto(st.vals[i], forgetLocals(c, val))
				continue
			default:
				st.vals[i] = joinInto(st.vals[i], val)
				if !e.AlsoInterference {
					continue
				}
			}
			if frn == nil {
				frn = make([]domains.Value, len(in))
			}
			frn[i] = joinInto(frn[i], val)
			continue
		}
		st.vals[i] = joinInto(st.vals[i], val)
	}
	if !reach {
		return &State{s: s, loc: loc, bottom: true, unreach: true}
	}
	if dirty != nil {
		s.derive(st, prev)
		for i, d := range dirty {
			if d {
				st.diff = append(st.diff, int32(i))
			}
		}
	} else {
		s.derive(st, nil)
	}
	for i, f := range frn {
		if f != nil {
			st.vals[i] = s.mixAt(loc, in[i], st.vals[i], f)
		}
	}
	if fs := s.opt.facts[loc.ID]; fs != nil {
		s.applyFacts(st, fs)
	}
	for _, v := range st.vals {
		if v == nil || v.IsBottom() {
			return &State{s: s, loc: loc, bottom: true}
		}
	}
	return st
}

// derive names st (a new state) and records it as derived from base (nil:
// from none); the caller fills st.diff.
func (s *Solver) derive(st, base *State) {
	s.stateIDs++
	st.id = s.stateIDs
	if base != nil {
		st.baseID = base.id
	}
}

// cellTreeMin is the number of edges from which a cell's join is kept in a
// tree of partial joins (cellTree) for incremental evaluations.
const cellTreeMin = 16

// cellTree returns the join of what the edges of location id's i-th
// tracked cell carry (nil: none carries anything), from the cell's tree
// of partial joins (a hubTree over the cell's edges in x.by order), built
// at the first call; mark dirties the leaves of the edges whose values may
// have changed since, and only their paths to the root are joined again:
// a location with thousands of edges into one cell, one or two of whose
// sources changed, costs a few joins instead of thousands. The join is a
// least upper bound (associative, commutative), so the root is what the
// linear join of evalCells gives; CHORUS_CHECK_INCREMENTAL compares the
// whole evaluation with evalFull. Not for mixed cells (their foreign
// sources are joined apart).
func (s *Solver) cellTree(id int, x *edgeIndex, i int, edges []edge, sl []edgeSlot) domains.Value {
	if x.trees == nil {
		x.trees = make([]*hubTree, len(x.at)-1)
	}
	by := x.by[x.at[i]:x.at[i+1]]
	t := x.trees[i]
	if t == nil {
		t = newHubTree(len(by))
		x.trees[i] = t
		s.stats.EdgeVisits += len(by)
	} else {
		s.stats.EdgeVisits += len(t.todo)
	}
	return t.root(func(leaf int) domains.Value {
		k := by[leaf]
		return s.edgeVal(edges[k], &sl[k])
	})
}

// edgeVal is the value edge e carries for its cell (nil when its source's
// post is ⊥); sl remembers the cell's slot in the source's post.
func (s *Solver) edgeVal(e edge, sl *edgeSlot) domains.Value {
	if e.Src == nil {
		return s.box(e.Cell)
	}
	p := s.postOf(e.Src)
	if p.bottom {
		return nil
	}
	if j := sl.src; j >= 0 && int(j) < len(p.cells) && p.cells[j] == e.Cell {
		return p.vals[j]
	}
	if j, ok := slices.BinarySearch(p.cells, e.Cell); ok {
		sl.src = int32(j)
		return p.vals[j]
	}
	return s.box(e.Cell) // the source does not track the cell: any value
}

// edgeSlot remembers where an edge's cell sits in its source's post and in
// its target's tracked cells (-1: not known yet): eval reads them instead
// of two binary searches per edge and evaluation (ds1286: 18% of the
// solver's time was slices.BinarySearch).
type edgeSlot struct{ src, dst int32 }

// edgeSlots returns the slots of the n edges into location id (the edges
// added since the last call get unknown slots).
func (s *Solver) edgeSlots(id, n int) []edgeSlot {
	for len(s.slots) <= id {
		s.slots = append(s.slots, nil)
	}
	sl := s.slots[id]
	if k := len(sl); k < n {
		// (room for exactly n: appending one slot at a time left up to
		// half the capacity of the lists unused)
		if cap(sl) < n {
			sl = append(make([]edgeSlot, 0, n), sl...)
		}
		sl = sl[:n]
		for i := k; i < n; i++ {
			sl[i] = edgeSlot{-1, -1}
		}
		s.slots[id] = sl
	}
	return sl
}

// coarseThresholds is 0, ±1, extra and the bounds of the program's
// variable types.
func coarseThresholds(p *cfg.Program, extra []int64) []int64 {
	set := map[int64]bool{0: true, 1: true, -1: true}
	for _, v := range p.Vars {
		r := typeRange(v.Type)
		if r.Lo.Inf == 0 {
			set[r.Lo.V] = true
		}
		if r.Hi.Inf == 0 {
			set[r.Hi.V] = true
		}
	}
	for _, c := range extra {
		set[c] = true
	}
	return sortedKeys(set)
}

// sortedKeys returns the members of set in increasing order.
func sortedKeys(set map[int64]bool) []int64 {
	out := make([]int64, 0, len(set))
	for c := range set {
		out = append(out, c)
	}
	slices.Sort(out)
	return out
}

// collectThresholds gathers the program's integer constants c-1, c, c+1,
// 0, ±1 and the bounds of the integer types in use, plus extra.
func collectThresholds(p *cfg.Program, extra []int64) []int64 {
	set := map[int64]bool{0: true, 1: true, -1: true}
	add := func(c int64) {
		set[c] = true
		if c > -1<<63 {
			set[c-1] = true
		}
		if c < 1<<63-1 {
			set[c+1] = true
		}
	}
	addType := func(t cfg.Type) {
		r := typeRange(t)
		if r.Lo.Inf == 0 {
			set[r.Lo.V] = true
		}
		if r.Hi.Inf == 0 {
			set[r.Hi.V] = true
		}
	}
	var walk func(e cfg.Expr)
	walk = func(e cfg.Expr) {
		switch e := e.(type) {
		case *cfg.Const:
			if e.Type.IsInt() {
				add(e.Value)
			}
		case *cfg.Deref:
			walk(e.Addr)
		case *cfg.Unary:
			walk(e.X)
		case *cfg.Binary:
			walk(e.X)
			walk(e.Y)
		case *cfg.Cast:
			walk(e.X)
		}
	}
	for _, v := range p.Vars {
		addType(v.Type)
		if v.Init != nil {
			walk(v.Init)
		}
	}
	for _, o := range p.Objects {
		for _, in := range o.Init {
			walk(in.Value)
		}
	}
	for _, l := range p.Locs {
		switch a := l.Act.(type) {
		case *cfg.Assign:
			walk(a.Src)
			walk(a.Dst)
		case *cfg.Assume:
			walk(a.Cond)
		case *cfg.CheckAct:
			walk(a.Cond)
		case *cfg.Spawn:
			if a.Arg != nil {
				walk(a.Arg)
			}
		case *cfg.Alloc:
			if a.Size != nil {
				walk(a.Size)
			}
		}
	}
	for _, c := range extra {
		set[c] = true
	}
	return sortedKeys(set)
}
