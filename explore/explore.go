// Package explore enumerates every reachable state of a small program with
// a bounded number of threads: the ground truth of the soundness oracle
// (DESIGN.md §6). Every invariant the analysis computes must contain every
// thread state this package reaches at the invariant's location.
//
// It owns explore/ only; it runs programs with cfg/interp (the reference
// semantics) and does no I/O.
//
// # Algorithm
//
// Breadth-first search over interp states from the initial state. The
// successors of a state are all enabled moves (interp.Machine.Enabled:
// every thread, every successor of its location, respecting atomic
// sections, locks and joins); a Havoc move is expanded once per value of
// [HavocMin, HavocMax] (converted to the destination type). A spawned
// template has at most MaxInstances instances (further spawns block).
// States are deduplicated by a 128-bit hash of their canonical encoding
// (interp.State.Hash: two independently seeded 64-bit maphash values): a
// collision would hide states, with probability about n²/2^129 for n
// states — negligible, and the price of keeping only 16 bytes per visited
// state (Options.ExactStates keeps the encodings instead). Without Options.Reduce every interleaving of every pair of moves
// is explored. With it (reduce.go): a thread standing at a location that
// touches only its own registers moves alone (ample sets with the cycle
// proviso), and forced moves — the only move of a state, or the single
// move of the ample thread — run without storing the states in between
// (a run of them is one edge of the search; schedules replay it). On the
// fixtures and 200 generated programs this stores about 7% of the plain
// search's states (30% with ample sets alone). Moves onto an Assume that is false for good
// are pruned unless KeepDeadEnds (see interp.Machine.Enabled); a thread at
// a location without successors other than its exit runs that action once
// and halts (so reach_error's check is checked).
//
// For each state and each thread, the thread's view — global registers,
// the thread's local registers, and the cells with one concrete location
// (non-summary cells of global and string objects and of the thread's own
// local objects) — is recorded at the location the thread stands at.
// Failed checks and runtime errors are recorded with a shortest schedule
// reaching them (BFS order); a failed check ends its path (execution
// continues only where a check held).
//
// Budgets (MaxStates, Timeout) stop the search early; Result.Complete then
// is false and the views are a subset of the reachable ones. With
// CheckCells, a memory access outside its Deref's points-to cells is a
// runtime error (a frontend soundness bug; the tests fail on it).
//
// Measured (BenchmarkExploreAppendixA, 2 shared cores): about 56000
// states per second on Appendix A with two instances per template.
package explore

import (
	"encoding/binary"
	"runtime"
	"slices"
	"time"

	"chorus/cfg"
	"chorus/cfg/interp"
)

// Options bound the exploration.
type Options struct {
	// MaxInstances is the number of instances each spawned template may
	// have (default 2); with LazyStart, the number that may run at the
	// same time (see interp.Options.LazyStart).
	MaxInstances int
	// DepthFirst expands the state found last first (a stack instead of
	// a queue): deep failures come sooner, schedules are no longer
	// shortest. The same states are explored when the search completes.
	DepthFirst bool
	// Reached records, for each location, the first stored state in
	// which some thread stands there (Result.ReachedAt rebuilds its
	// schedule): confirm solves for inputs that lead on from there.
	Reached bool
	// Stop, when set, is called with each new failed check; when it
	// returns true the search ends there (Complete false).
	Stop func(Failure) bool
	// LazyStart and MaxSpawns: see interp.Options.
	LazyStart bool
	MaxSpawns int
	// HavocMin..HavocMax are the values a Havoc takes (default -1..1 when
	// both are zero).
	HavocMin, HavocMax int64
	// MaxStates bounds the number of distinct states (default 200000).
	MaxStates int
	// Timeout bounds the running time (0: none).
	Timeout time.Duration
	// CPUTimeout bounds the CPU time the search itself uses (0: none):
	// its goroutine is locked to its OS thread for the search and that
	// thread's CPU clock is read (wall time where the system has no
	// per-thread clock). Unlike Timeout, other load on the machine does
	// not move the point where the search stops, so what a budgeted
	// search completes — an exploration proof — does not depend on how
	// busy the machine is (a loaded CI run once lost proofs that a quiet
	// one found). Work of the garbage collector's own threads is not
	// counted; its assists on the searching goroutine are.
	CPUTimeout time.Duration
	// KeepDeadEnds also explores moves onto an Assume that is false for
	// good (see interp.Options.KeepDeadEnds), so states in which a thread
	// stands at such an Assume are recorded too.
	KeepDeadEnds bool
	// CheckCells reports, as runtime errors, memory accesses that the
	// Deref's points-to cells do not cover (interp.Options.CheckCells).
	CheckCells bool
	// Reduce turns on the partial-order reduction and the forced-move
	// compression (see the package comment): the same failed checks,
	// runtime errors and deadlocks are reachable, in fewer states, but
	// Views is then left empty (the oracle, which needs them all, leaves
	// it off).
	Reduce bool
	// ForgetDead zeroes registers once they are dead (interp.Options.ForgetDead):
	// states differing only in values that can never be read again merge.
	// Failed checks, errors and deadlocks are unchanged; Views show dead
	// registers as zero.
	ForgetDead bool
	// Forbidden marks, by location ID, locations whose action is never
	// run: a thread standing there waits for good (confirm uses it to
	// keep executions away from the frontend's modelling assumptions).
	Forbidden []bool
	// Exclusive marks, by location ID, locations where a thread moves
	// alone: while some thread stands at one, no other thread moves
	// (and when it cannot move, the state is final). confirm uses it
	// for the way to abort() and exit(), which end the whole program.
	Exclusive []bool
	// StopAt marks, by location ID, locations whose action the search
	// must not run: as soon as a thread standing at one has an enabled
	// move, the search ends (Complete false, Result.StoppedAt set).
	// Exploration proofs (confirm.Prove) mark the actions the
	// interpreter does not run faithfully, so that a complete search
	// never ran one.
	StopAt []bool
	// HavocValues gives, by location ID, the values a havoc there takes
	// instead of HavocMin..HavocMax (a nil entry: the default range).
	HavocValues [][]int64
	// ExactStates keeps the whole canonical encoding of every visited
	// state instead of its 128-bit hash: no collision can hide a state
	// (exploration proofs), at the price of the encodings' memory.
	ExactStates bool
	// MaxExactBytes bounds the bytes of the encodings ExactStates keeps
	// (0: no bound); past it the search stops (Complete false).
	MaxExactBytes int64
	// StopWhenBounded ends the search (Complete false) as soon as
	// Result.Bounded is set: a search whose bound mattered is of no use
	// to an exploration proof, which then stops early.
	StopWhenBounded bool
	// CheckUninit makes a read of a local register never written a
	// runtime error (interp.Options.CheckUninit) instead of a zero.
	CheckUninit bool
}

// View is what one thread sees in one state: Values[i] is the value of
// Result.Vars[template][i].
type View struct {
	Values []interp.Value
}

// Failure is a failed check or a runtime error with a schedule reaching
// it (the last step is the failing one).
type Failure struct {
	Event    interp.Event
	Schedule []interp.Step
}

// Result is the outcome of an exploration.
type Result struct {
	// Complete is false when a budget stopped the search.
	Complete bool
	// States and Transitions count distinct states and executed moves;
	// Reduced counts the states expanded by one thread's moves only
	// (Options.Reduce).
	States, Transitions, Reduced int
	// Deadlocks counts states where some thread has not finished and no
	// thread can move.
	Deadlocks int
	// Havocs counts the havoc moves expanded whose values led to
	// different states or events (a havoc of a dead register does not
	// count): when a complete search has none, other havoc ranges
	// explore the same states.
	Havocs int
	// Bounded reports that some thread stood at a spawn that
	// MaxInstances kept from running: when a complete search is not
	// Bounded, more instances explore the same states.
	Bounded bool
	// Vars lists, per template ID, the variables a View of a thread of
	// that template holds: the global registers, the template's local
	// registers, then the cells with one concrete location.
	Vars [][]*cfg.Var
	// Views holds, per location ID, the distinct views of the threads
	// standing there, in discovery order.
	Views [][]View
	// Failures holds the first (shortest) failure of each check site, in
	// discovery order; Errors the first runtime error of each location.
	Failures []Failure
	Errors   []Failure
	// StoppedAt is the location of Options.StopAt that ended the
	// search (nil: none did).
	StoppedAt *cfg.Loc
	// MaxThreads is the largest number of threads (running or finished)
	// of a state the search expanded.
	MaxThreads int
	// ReachedAt gives, with Options.Reached, a schedule to the first
	// stored state in which thread stands at loc (ok false: never seen).
	ReachedAt func(loc *cfg.Loc) (sched []interp.Step, thread interp.ThreadID, ok bool)
}

type arrival struct {
	node   int
	thread interp.ThreadID
}

// node is a visited state with the way it was reached: step from the
// parent (then, with Reduce, the forced moves advance runs after it).
type node struct {
	parent int
	step   interp.Step
}

// Explore runs the search.
func Explore(p *cfg.Program, opts Options) (*Result, error) {
	if opts.MaxInstances <= 0 {
		opts.MaxInstances = 2
	}
	if opts.HavocMin == 0 && opts.HavocMax == 0 {
		opts.HavocMin, opts.HavocMax = -1, 1
	}
	if opts.MaxStates <= 0 {
		opts.MaxStates = 200_000
	}
	m, err := interp.New(p, interp.Options{MaxInstances: opts.MaxInstances, LazyStart: opts.LazyStart, MaxSpawns: opts.MaxSpawns, KeepDeadEnds: opts.KeepDeadEnds, CheckCells: opts.CheckCells, ForgetDead: opts.ForgetDead, CheckUninit: opts.CheckUninit})
	if err != nil {
		return nil, err
	}
	s0, err := m.Initial()
	if err != nil {
		return nil, err
	}
	e := &explorer{
		m:           m,
		p:           p,
		res:         &Result{Complete: true, Views: make([][]View, len(p.Locs))},
		seenView:    make([]map[string]bool, len(p.Locs)),
		visited:     map[[16]byte]bool{},
		failed:      map[*cfg.Check]bool{},
		errAt:       map[*cfg.Loc]bool{},
		forbidden:   opts.Forbidden,
		exclusive:   opts.Exclusive,
		stopAt:      opts.StopAt,
		uninit:      opts.CheckUninit,
		stopBounded: opts.StopWhenBounded,
		s0:          s0,
		stop:        opts.Stop,
	}
	if opts.ExactStates {
		e.exact = map[string]bool{}
	}
	e.viewVars()
	if opts.Reached {
		e.reached = make([]arrival, len(p.Locs))
		for i := range e.reached {
			e.reached[i].node = -1
		}
		e.res.ReachedAt = func(loc *cfg.Loc) ([]interp.Step, interp.ThreadID, bool) {
			a := e.reached[loc.ID]
			if a.node < 0 {
				return nil, 0, false
			}
			steps, ok := e.trySchedule(a.node)
			return steps, a.thread, ok
		}
	}
	if opts.Reduce {
		e.invisible = invisibleLocs(p, opts.Exclusive)
	}
	var deadline time.Time
	if opts.Timeout > 0 {
		deadline = time.Now().Add(opts.Timeout)
	}
	var cpu *cpuClock
	if opts.CPUTimeout > 0 {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		cpu = startCPUClock(opts.CPUTimeout)
	}

	type item struct {
		s  *interp.State
		id int
	}
	e.seen(s0)
	e.visitLast()
	e.nodes = append(e.nodes, node{parent: -1})
	queue := []item{{s0, 0}}
	for expanded := 0; len(queue) > 0; expanded++ {
		var it item
		if opts.DepthFirst {
			it = queue[len(queue)-1]
			queue[len(queue)-1] = item{}
			queue = queue[:len(queue)-1]
		} else {
			it = queue[0]
			queue[0] = item{}
			queue = queue[1:]
		}
		clockDue := expanded%16 == 0 || len(it.s.Threads) > 64
		if e.stopped || clockDue && (!deadline.IsZero() && time.Now().After(deadline) || cpu != nil && cpu.spent()) {
			e.res.Complete = false
			break
		}
		if !opts.Reduce {
			e.record(it.s) // with Reduce the views would be partial anyway
		}
		if e.reached != nil {
			for _, t := range it.s.Threads {
				if a := &e.reached[t.Loc.ID]; a.node < 0 && !t.Done {
					a.node, a.thread = it.id, t.ID
				}
			}
		}
		e.res.MaxThreads = max(e.res.MaxThreads, len(it.s.Threads))
		moves := e.enabled(it.s)
		if e.stopped {
			e.res.Complete = false
			break // a thread may run an action of Options.StopAt
		}
		e.noteBounded(it.s)
		if e.stopped {
			e.res.Complete = false
			break // Options.StopWhenBounded
		}
		if len(moves) == 0 && !it.s.AllDone() {
			e.res.Deadlocks++
		}
		// expand runs one move with every value of its havoc; it reports
		// whether each value led to a new state (not a failed check, an
		// error, a blocked move or a state seen before).
		expand := func(mv interp.Move) bool {
			th := it.s.Thread(mv.Thread)
			loc := th.Loc
			values := []int64{0}
			if _, ok := loc.Act.(*cfg.Havoc); ok {
				if opts.HavocValues != nil && opts.HavocValues[loc.ID] != nil {
					values = opts.HavocValues[loc.ID]
				} else {
					values = values[:0]
					for v := opts.HavocMin; v <= opts.HavocMax; v++ {
						values = append(values, v)
					}
				}
			}
			fresh := true
			// A havoc counts (Result.Havocs) when its values lead to
			// different outcomes: a dead destination does not.
			var first [16]byte
			var firstKind interp.EventKind
			differ := false
			outcome := func(i int, h [16]byte, k interp.EventKind) {
				if i == 0 {
					first, firstKind = h, k
				} else if h != first || k != firstKind {
					differ = true
				}
			}
			defer func() {
				if differ {
					e.res.Havocs++
				}
			}()
			for i, v := range values {
				mv.Value = v
				step := interp.Step{Thread: mv.Thread, Loc: loc.ID, Succ: mv.Succ, Value: v, Pos: loc.Pos}
				ns, ev := m.Step(it.s, mv)
				e.res.Transitions++
				if ns == nil {
					fresh = false
					outcome(i, [16]byte{}, ev.Kind)
				}
				switch ev.Kind {
				case interp.CheckFailed:
					if !e.failed[ev.Check] {
						e.failed[ev.Check] = true
						e.addFailure(Failure{ev, e.schedule(it.id, step)})
					}
					continue
				case interp.ErrorEvent:
					if !e.errAt[loc] {
						e.errAt[loc] = true
						e.res.Errors = append(e.res.Errors, Failure{ev, e.schedule(it.id, step)})
					}
					continue
				case interp.Blocked:
					continue
				}
				if len(values) > 1 {
					// the state right after the havoc: a value that
					// matters later is still there (unless dead)
					outcome(i, ns.Hash(), ev.Kind)
				}
				if e.invisible != nil {
					if ns = e.advance(ns, it.id, step, true); ns == nil {
						fresh = false // the forced moves ended in a failed check or an error
						continue
					}
				}
				if e.seen(ns) {
					fresh = false
					continue
				}
				if len(e.nodes) >= opts.MaxStates || opts.MaxExactBytes > 0 && e.exactBytes > opts.MaxExactBytes {
					e.res.Complete = false
					continue
				}
				e.visitLast()
				e.nodes = append(e.nodes, node{parent: it.id, step: step})
				queue = append(queue, item{ns, len(e.nodes) - 1})
			}
			return fresh
		}
		if t, ok := e.ample(it.s, moves); ok {
			fresh := true
			for _, mv := range moves {
				if mv.Thread == t {
					fresh = expand(mv) && fresh
				}
			}
			if fresh {
				e.res.Reduced++
				continue
			}
			// The cycle proviso: a reduced successor was seen before, so
			// this state is expanded fully (the other threads move here).
			// The same when one of the moves failed a check or erred: the
			// thread stops there, and the others must still run from here.
			for _, mv := range moves {
				if mv.Thread != t {
					expand(mv)
				}
			}
			continue
		}
		for _, mv := range moves {
			expand(mv)
		}
	}
	if len(queue) > 0 {
		e.res.Complete = false
	}
	e.res.States = len(e.nodes)
	return e.res, nil
}

type explorer struct {
	m       *interp.Machine
	p       *cfg.Program
	res     *Result
	nodes   []node
	visited map[[16]byte]bool
	// exact holds the whole encodings of the visited states instead of
	// their hashes (Options.ExactStates; nil otherwise).
	exact      map[string]bool
	exactBytes int64 // the length of exact's keys
	seenView   []map[string]bool
	failed     map[*cfg.Check]bool
	errAt      map[*cfg.Loc]bool
	// invisible marks, by location ID, the locations whose moves touch
	// only the moving thread's registers (nil without Reduce).
	invisible []bool
	forbidden []bool
	exclusive []bool
	stopAt    []bool
	uninit    bool // Options.CheckUninit: a register read may err
	// stopBounded is Options.StopWhenBounded
	stopBounded bool
	s0          *interp.State
	stop        func(Failure) bool
	// reached holds, by location ID, the first node with a thread there
	// (Options.Reached; node -1: none)
	reached   []arrival
	stopped   bool          // Stop returned true, or a StopAt location could run
	forced    []interp.Step // the moves of the last advance
	encodeBuf []byte        // the encoding of the state seen last (ExactStates)
	lastHash  [16]byte      // the hash of the state seen last
}

// seen reports whether s was visited: by its 128-bit hash, or with
// Options.ExactStates by its whole canonical encoding. It keeps the key
// for visitLast.
func (e *explorer) seen(s *interp.State) bool {
	if e.exact != nil {
		e.encodeBuf = s.Encode(e.encodeBuf[:0])
		return e.exact[string(e.encodeBuf)]
	}
	e.lastHash = s.Hash()
	return e.visited[e.lastHash]
}

// visitLast adds the state seen was last asked about to the visited
// states.
func (e *explorer) visitLast() {
	if e.exact != nil {
		e.exact[string(e.encodeBuf)] = true
		e.exactBytes += int64(len(e.encodeBuf))
		return
	}
	e.visited[e.lastHash] = true
}

// addFailure records a failed check and asks Options.Stop.
func (e *explorer) addFailure(f Failure) {
	e.res.Failures = append(e.res.Failures, f)
	if e.stop != nil && e.stop(f) {
		e.stopped = true
	}
}

// noteBounded sets Result.Bounded when some thread of s waits at a spawn
// because of MaxInstances.
func (e *explorer) noteBounded(s *interp.State) {
	if e.res.Bounded {
		return
	}
	for _, t := range s.Threads {
		if _, ok := t.Loc.Act.(*cfg.Spawn); (ok || t.Pending) && e.m.AtInstanceBound(s, t.ID) {
			e.res.Bounded = true
			if e.stopBounded {
				e.stopped = true // Options.StopWhenBounded
			}
		}
	}
}

// enabled is m.Enabled without the moves from forbidden locations and,
// when a thread stands at an exclusive location, only that thread's.
// When one of the moves starts at a StopAt location, the search stops.
func (e *explorer) enabled(s *interp.State) []interp.Move {
	moves := e.enabledMoves(s)
	if e.stopAt != nil {
		for _, mv := range moves {
			if loc := s.Thread(mv.Thread).Loc; e.stopAt[loc.ID] {
				e.stopped = true
				if e.res.StoppedAt == nil {
					e.res.StoppedAt = loc
				}
			}
		}
	}
	return moves
}

func (e *explorer) enabledMoves(s *interp.State) []interp.Move {
	if e.exclusive != nil {
		for _, t := range s.Threads {
			if !t.Done && e.exclusive[t.Loc.ID] {
				if t.Atomic == 0 && slices.ContainsFunc(s.Threads, func(u *interp.Thread) bool { return !u.Done && u.Atomic > 0 }) {
					continue // another thread's atomic section runs first
				}
				moves := e.m.ThreadMoves(s, t.ID)
				if e.forbidden != nil && e.forbidden[t.Loc.ID] {
					moves = nil
				}
				return moves
			}
		}
	}
	moves := e.m.Enabled(s)
	if e.forbidden != nil {
		moves = slices.DeleteFunc(moves, func(mv interp.Move) bool { return e.forbidden[s.Thread(mv.Thread).Loc.ID] })
	}
	return moves
}

// viewVars fills Result.Vars.
func (e *explorer) viewVars() {
	var globals, cells []*cfg.Var
	for _, v := range e.p.Vars {
		switch {
		case v.Mem == nil && v.Scope == cfg.Global:
			globals = append(globals, v)
		case v.Mem != nil && !v.Summary && (v.Mem.Kind == cfg.GlobalObject || v.Mem.Kind == cfg.StringObject || v.Mem.Kind == cfg.LocalObject):
			cells = append(cells, v)
		}
	}
	e.res.Vars = make([][]*cfg.Var, len(e.p.Templates))
	for _, t := range e.p.Templates {
		vars := append([]*cfg.Var(nil), globals...)
		for _, v := range e.p.Vars {
			if v.Mem == nil && v.Scope == cfg.Local && v.Template == t {
				vars = append(vars, v)
			}
		}
		for _, c := range cells {
			if c.Mem.Kind != cfg.LocalObject || c.Mem.Template == t {
				vars = append(vars, c)
			}
		}
		e.res.Vars[t.ID] = vars
	}
}

// record adds every thread's view of s at its location.
func (e *explorer) record(s *interp.State) {
	var key []byte
	for _, t := range s.Threads {
		vars := e.res.Vars[t.Template.ID]
		vals := make([]interp.Value, len(vars))
		key = key[:0]
		for i, v := range vars {
			var val interp.Value
			if v.Mem == nil {
				val, _ = e.m.Register(s, t.ID, v)
			} else {
				val, _ = e.m.CellValue(s, t.ID, v)
			}
			vals[i] = val
			key = appendValueKey(key, val)
		}
		loc := t.Loc.ID
		if e.seenView[loc] == nil {
			e.seenView[loc] = map[string]bool{}
		}
		if e.seenView[loc][string(key)] {
			continue
		}
		e.seenView[loc][string(key)] = true
		e.res.Views[loc] = append(e.res.Views[loc], View{Values: vals})
	}
}

func appendValueKey(buf []byte, v interp.Value) []byte {
	buf = binary.AppendVarint(buf, int64(v.Obj))
	if v.Big != nil {
		str := v.Big.String()
		buf = binary.AppendUvarint(append(buf, 'B'), uint64(len(str)))
		return append(buf, str...)
	}
	return binary.AppendVarint(append(buf, 'n'), v.N)
}

// schedule rebuilds the moves from the initial state to node id, then
// the steps tail. With Reduce it replays the path to run advance again
// after each node's step (nodes do not store the forced moves).
func (e *explorer) schedule(id int, tail ...interp.Step) []interp.Step {
	steps, ok := e.trySchedule(id, tail...)
	if !ok {
		panic("explore: a stored path does not replay")
	}
	return steps
}

// trySchedule is schedule, with ok false instead of a panic when the
// stored path to id does not replay. ReachedAt uses it. A path replays
// when the program is the one explored: confirm.Explore patches its
// program for the exploration and once undid the patch before calling
// ReachedAt, and the forced moves of the unpatched program differed (now
// it keeps the patch in place for ReachedAt: confirm's
// TestReachedAtReplays). A location without a schedule only means
// confirm does not start a search from it (it reports nothing more).
func (e *explorer) trySchedule(id int, tail ...interp.Step) ([]interp.Step, bool) {
	var path []int
	for ; id > 0; id = e.nodes[id].parent {
		path = append(path, id)
	}
	slices.Reverse(path)
	tail = slices.Clone(tail) // advance reuses e.forced, which tail may alias
	var out []interp.Step
	s := e.s0
	for _, id := range path {
		st := e.nodes[id].step
		out = append(out, st)
		if e.invisible == nil {
			continue
		}
		ns, _ := e.m.Step(s, interp.Move{Thread: st.Thread, Succ: st.Succ, Value: st.Value})
		if ns == nil {
			return nil, false
		}
		saved := e.forced
		e.forced = nil
		s = e.advance(ns, 0, st, false)
		out = append(out, e.forced...)
		e.forced = saved
		if s == nil {
			return nil, false // the forced moves failed: the search stored no such node
		}
	}
	return append(out, tail...), true
}

// cpuClock measures the CPU time of the calling OS thread since it was
// started (the caller has locked its goroutine to the thread), falling
// back to wall time where there is no per-thread clock.
type cpuClock struct {
	start  int64
	budget int64
	wall   time.Time // the fallback's deadline; zero with a thread clock
}

func startCPUClock(budget time.Duration) *cpuClock {
	if ns, ok := threadCPU(); ok {
		return &cpuClock{start: ns, budget: int64(budget)}
	}
	return &cpuClock{wall: time.Now().Add(budget)}
}

// spent reports whether the budget is used up.
func (c *cpuClock) spent() bool {
	if !c.wall.IsZero() {
		return time.Now().After(c.wall)
	}
	ns, ok := threadCPU()
	return !ok || ns-c.start >= c.budget
}
