package interp

import (
	"fmt"

	"chorus/cfg"
)

// Options configure a Machine.
type Options struct {
	// MaxInstances bounds the number of instances of each spawned
	// template created during an execution (0: unbounded). A Spawn that
	// would exceed it is not enabled (it blocks), which keeps exhaustive
	// exploration finite.
	MaxInstances int
	// MaxObjectSize bounds the size of an Alloc (default 1<<24 bytes).
	MaxObjectSize int64
	// KeepDeadEnds keeps, in Enabled, the moves onto an Assume whose
	// condition is false and reads only the thread's registers (see
	// Enabled). The thread then stands there for good: the state is
	// reachable in the model, and an exhaustive explorer that wants every
	// state at every location sets this.
	KeepDeadEnds bool
	// CheckCells makes every memory access verify that the concrete
	// location is among the Deref's Cells (when the Deref lists any): the
	// frontend's points-to analysis must over-approximate every real
	// access, or the analysis misses writes. A violation is an
	// ErrorEvent whose text starts with "points-to:".
	CheckCells bool
	// CheckUninit reports a read of a local register that was never
	// written in this thread (Param excepted) as a runtime error. In a C
	// program without undefined behaviour only a frontend bug (a
	// temporary read before its definition) can do that; C locals read
	// before being set are undefined behaviour anyway.
	CheckUninit bool
	// ForgetDead zeroes, after each move, the moving thread's registers
	// that are dead at its new location (written before read on every
	// path: see dead.go), so that states differing only in values that can
	// never matter again become equal. Views of dead registers then read
	// zero; failed checks, errors and deadlocks are unchanged.
	ForgetDead bool
	// LazyStart changes what MaxInstances bounds: a Spawn always runs (up
	// to MaxSpawns instances per template) and creates the thread
	// Pending; a pending thread starts with its first move, which is
	// enabled only while fewer than MaxInstances threads of its template
	// have started and not finished (halted ones count) — MaxInstances
	// bounds the threads that run at the same time. Pending threads of
	// one template with the same argument are interchangeable: only the
	// lowest-numbered of them may start (the others wait their turn), so
	// a loop spawning many threads costs one step per spawn. This keeps
	// fewer executions than the eager bound for the same number of
	// spawns (threads start in spawn order within a class), never
	// executions the program does not have.
	LazyStart bool
	// MaxSpawns bounds the instances of a template spawned with
	// LazyStart (default 10000); further spawns block.
	MaxSpawns int
}

// undefined marks a local register never written (with CheckUninit).
const undefined InstID = -1

// Machine executes one program. It holds only the program and indexes
// computed once by New and never changed; all mutable data lives in
// State, so one Machine serves any number of states and goroutines (a
// State itself must not be used by two goroutines at once).
type Machine struct {
	Prog *cfg.Program
	opts Options

	globalIdx   []int // by Var.ID: index in State.Globals, -1 if not a global register
	localIdx    []int // by Var.ID: index in Thread.Locals, -1 if not a local register
	localObjIdx []int // by Object.ID: index in Thread.LocalObjs, -1 if not a LocalObject
	localVars   [][]*cfg.Var
	localObjs   [][]*cfg.Object // by template ID
	globalVars  []*cfg.Var
	staticInst  []InstID // by Object.ID: the instance of a global, string or function object
	// localCond marks Assume locations whose condition reads only the
	// thread's own registers: if it is false it stays false while the
	// thread waits, so moving there is a dead end.
	localCond []bool
	// dead lists, by location ID and successor index, the registers to
	// zero after that move (Options.ForgetDead; nil otherwise).
	dead [][][]int32
}

// New prepares p for execution. It fails on IR the interpreter cannot
// run (no main template, missing entries).
func New(p *cfg.Program, opts Options) (*Machine, error) {
	if p == nil || len(p.Templates) == 0 || p.Templates[0] == nil || p.Templates[0].Entry == nil {
		return nil, fmt.Errorf("interp: program has no main template")
	}
	if opts.MaxObjectSize == 0 {
		opts.MaxObjectSize = 1 << 24
	}
	if opts.LazyStart && opts.MaxSpawns <= 0 {
		opts.MaxSpawns = 10_000
	}
	m := &Machine{
		Prog:        p,
		opts:        opts,
		globalIdx:   make([]int, len(p.Vars)),
		localIdx:    make([]int, len(p.Vars)),
		localObjIdx: make([]int, len(p.Objects)),
		localVars:   make([][]*cfg.Var, len(p.Templates)),
		localObjs:   make([][]*cfg.Object, len(p.Templates)),
		staticInst:  make([]InstID, len(p.Objects)),
		localCond:   make([]bool, len(p.Locs)),
	}
	// Thread-local global registers come first in every thread's
	// Locals, at the same index in every template.
	var tls []*cfg.Var
	for i, v := range p.Vars {
		if v == nil || v.ID != i {
			return nil, fmt.Errorf("interp: Vars[%d] has ID mismatch", i)
		}
		m.globalIdx[i], m.localIdx[i] = -1, -1
		if v.Mem == nil && v.Scope == cfg.Global && v.ThreadLocal {
			m.localIdx[i] = len(tls)
			tls = append(tls, v)
		}
	}
	for t := range m.localVars {
		m.localVars[t] = append([]*cfg.Var(nil), tls...)
	}
	for _, v := range p.Vars {
		i := v.ID
		if v.Mem != nil || v.ThreadLocal && v.Scope == cfg.Global {
			continue
		}
		if v.Scope == cfg.Global {
			m.globalIdx[i] = len(m.globalVars)
			m.globalVars = append(m.globalVars, v)
			continue
		}
		if v.Template == nil || v.Template.ID < 0 || v.Template.ID >= len(p.Templates) {
			return nil, fmt.Errorf("interp: %s: local %s has no template", v.Pos, v.Name)
		}
		tid := v.Template.ID
		m.localIdx[i] = len(m.localVars[tid])
		m.localVars[tid] = append(m.localVars[tid], v)
	}
	for i, o := range p.Objects {
		if o == nil || o.ID != i {
			return nil, fmt.Errorf("interp: Objects[%d] has ID mismatch", i)
		}
		m.localObjIdx[i] = -1
		if o.Kind == cfg.LocalObject {
			if o.Template == nil || o.Template.ID < 0 || o.Template.ID >= len(p.Templates) {
				return nil, fmt.Errorf("interp: %s: local object %s has no template", o.Pos, o.Name)
			}
			tid := o.Template.ID
			m.localObjIdx[i] = len(m.localObjs[tid])
			m.localObjs[tid] = append(m.localObjs[tid], o)
		}
	}
	// Static objects get instances 1, 2, ... in object order, the same in
	// every state (Initial creates them in this order).
	next := InstID(1)
	for _, o := range p.Objects {
		switch o.Kind {
		case cfg.GlobalObject, cfg.StringObject, cfg.FuncObject:
			m.staticInst[o.ID] = next
			next++
		}
	}
	for i, t := range p.Templates {
		if t == nil || t.ID != i || t.Entry == nil {
			return nil, fmt.Errorf("interp: Templates[%d] is malformed", i)
		}
	}
	for i, l := range p.Locs {
		if l == nil || l.ID != i {
			return nil, fmt.Errorf("interp: Locs[%d] has ID mismatch", i)
		}
		if a, ok := l.Act.(*cfg.Assume); ok {
			m.localCond[i] = readsOnlyRegisters(a.Cond, cfg.Local)
		}
	}
	if opts.ForgetDead {
		m.dead = m.deadOnEdges()
	}
	return m, nil
}

// readsOnlyRegisters reports whether e reads no memory and only registers
// of the given scope.
func readsOnlyRegisters(e cfg.Expr, scope cfg.Scope) bool {
	switch e := e.(type) {
	case *cfg.Const, *cfg.AddrOf:
		return true
	case *cfg.VarRef:
		return e.Var.Mem == nil && e.Var.Scope == scope
	case *cfg.Unary:
		return readsOnlyRegisters(e.X, scope)
	case *cfg.Binary:
		return readsOnlyRegisters(e.X, scope) && readsOnlyRegisters(e.Y, scope)
	case *cfg.Cast:
		return readsOnlyRegisters(e.X, scope)
	}
	return false
}

// GlobalIndex is v's index in State.Globals, or -1.
func (m *Machine) GlobalIndex(v *cfg.Var) int { return m.globalIdx[v.ID] }

// LocalIndex is v's index in Thread.Locals, or -1.
func (m *Machine) LocalIndex(v *cfg.Var) int { return m.localIdx[v.ID] }

// LocalObjectIndex is o's index in Thread.LocalObjs, or -1.
func (m *Machine) LocalObjectIndex(o *cfg.Object) int { return m.localObjIdx[o.ID] }

// StaticInstance is the instance of a global, string or function object
// (the same in every state), or 0.
func (m *Machine) StaticInstance(o *cfg.Object) InstID { return m.staticInst[o.ID] }

// Initial is the program's start state: main stands at its entry, every
// static object has its instance (all bytes zero until InitGlobals runs),
// global registers are zero. When main's entry is not an InitGlobals
// action (hand-built IR), the initial values are applied right away.
func (m *Machine) Initial() (*State, error) {
	s := &State{
		Globals: make([]Value, len(m.globalVars)),
		Insts:   []*Instance{nil},
		Spawned: make([]int, len(m.Prog.Templates)),
	}
	s.gen.Store(newGen())
	for i, v := range m.globalVars {
		s.Globals[i] = wrapNum(num{}, v.Type) // zero of the type (also for floats)
	}
	for _, o := range m.Prog.Objects {
		switch o.Kind {
		case cfg.GlobalObject, cfg.StringObject, cfg.FuncObject:
			// An object of unknown size (the frontend's <unknown> object,
			// memory only external code could reach) gets no bytes: any
			// access to it is an out-of-bounds error.
			size := max(o.Size, 0)
			if o.Kind == cfg.FuncObject && size == 0 {
				size = 1 // a function has an address but no contents
			}
			if id := s.addInst(&Instance{Object: o, Owner: -1, Size: size, Bytes: make([]byte, size)}); id != m.staticInst[o.ID] {
				return nil, fmt.Errorf("interp: instance numbering of %s", o.Name) // cannot happen: same order as New
			}
		}
	}
	s.Threads = append(s.Threads, nil)
	s.Threads[0] = m.newThread(s, 0, m.Prog.Templates[0])
	if _, ok := m.Prog.Templates[0].Entry.Act.(*cfg.InitGlobals); !ok {
		if err := m.initGlobals(s); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// newThread creates thread id of template t with fresh local object
// instances; its registers start at zero (C leaves them indeterminate;
// the interpreter picks zero so runs are reproducible).
func (m *Machine) newThread(s *State, id ThreadID, t *cfg.Template) *Thread {
	th := &Thread{
		ID:       id,
		Template: t,
		Loc:      t.Entry,
		Locals:   make([]Value, len(m.localVars[t.ID])),
		gen:      s.gen.Load(),
	}
	for i, v := range m.localVars[t.ID] {
		th.Locals[i] = wrapNum(num{}, v.Type)
		if v.Scope == cfg.Global {
			// A thread-local global: its initial value (a constant or
			// an address, as for any global).
			if v.Init != nil {
				if val, err := m.eval(s, nil, v.Init); err == nil {
					if val, err = convert(val, v.Init.ExprType(), v.Type); err == nil {
						th.Locals[i] = val
					}
				}
			}
			continue
		}
		if m.opts.CheckUninit && v != t.Param {
			th.Locals[i] = Value{Obj: undefined}
		}
	}
	for _, o := range m.localObjs[t.ID] {
		size := o.Size
		if size < 0 {
			// A local of unknown size (a variable length array): the IR
			// does not say how big this instance is, so it gets a fixed
			// capacity; accesses beyond it are out-of-bounds errors.
			size = unknownLocalSize
		}
		th.LocalObjs = append(th.LocalObjs, s.addInst(&Instance{Object: o, Owner: id, Size: size, Bytes: make([]byte, size)}))
	}
	th.Done = t.Entry == t.Exit
	return th
}

// initGlobals gives global registers and static objects their initial
// values.
func (m *Machine) initGlobals(s *State) error {
	for i, v := range m.globalVars {
		if v.Init == nil {
			s.Globals[i] = wrapNum(num{}, v.Type)
			continue
		}
		val, err := m.eval(s, nil, v.Init)
		if err != nil {
			return fmt.Errorf("%s: initializer of %s: %v", v.Pos, v.Name, err)
		}
		if s.Globals[i], err = convert(val, v.Init.ExprType(), v.Type); err != nil {
			return fmt.Errorf("%s: initializer of %s: %v", v.Pos, v.Name, err)
		}
	}
	for _, o := range m.Prog.Objects {
		id := m.staticInst[o.ID]
		if id == 0 || o.Kind == cfg.FuncObject {
			continue
		}
		in := s.mutInst(id)
		clear(in.Bytes)
		in.Ptrs = in.Ptrs[:0]
		for _, iv := range o.Init {
			val, err := m.eval(s, nil, iv.Value)
			if err != nil {
				return fmt.Errorf("%s: initializer of %s: %v", o.Pos, o.Name, err)
			}
			if val, err = convert(val, iv.Value.ExprType(), iv.Type); err != nil {
				return fmt.Errorf("%s: initializer of %s: %v", o.Pos, o.Name, err)
			}
			if iv.Offset < 0 || iv.Offset+typeSize(iv.Type) > in.Size {
				return fmt.Errorf("%s: initializer of %s at offset %d outside the object (size %d)", o.Pos, o.Name, iv.Offset, in.Size)
			}
			s.store(id, iv.Offset, iv.Type, val)
		}
	}
	return nil
}

// Move is one transition: thread Thread executes the action of the
// location it stands at and goes to successor Succ (an index into
// Loc.Succs). Value is the value a Havoc action produces (converted to
// the destination type); it is ignored by other actions.
type Move struct {
	Thread ThreadID
	Succ   int
	Value  int64
	// Waits reports that the successor is an Assume whose condition,
	// reading shared state, is false right after the move: the thread
	// will wait there until another thread makes it true. Schedulers
	// prefer moves that do not wait.
	Waits bool
}

// EventKind classifies what a step did besides changing the state.
type EventKind uint8

const (
	NoEvent     EventKind = iota
	OutputEvent           // Text holds printed output
	CheckFailed           // Check's condition was false: the thread cannot continue
	ErrorEvent            // a runtime error (Text): invalid memory access, division by zero, malformed IR
	Blocked               // the move was not enabled (false Assume, held lock, unfinished join, ...)
)

func (k EventKind) String() string {
	switch k {
	case OutputEvent:
		return "output"
	case CheckFailed:
		return "check-failed"
	case ErrorEvent:
		return "error"
	case Blocked:
		return "blocked"
	}
	return "none"
}

// Event is the observable result of a step.
type Event struct {
	Kind   EventKind
	Thread ThreadID
	Loc    *cfg.Loc
	Check  *cfg.Check // CheckFailed
	Text   string     // OutputEvent: the text; ErrorEvent/Blocked: the reason
}

func (e Event) String() string {
	pos := ""
	if e.Loc != nil {
		pos = e.Loc.Pos.String()
	}
	switch e.Kind {
	case CheckFailed:
		return fmt.Sprintf("%s: thread %d: %s check failed: %s", pos, e.Thread, e.Check.Kind, e.Check.Msg)
	case ErrorEvent, Blocked:
		return fmt.Sprintf("%s: thread %d: %s: %s", pos, e.Thread, e.Kind, e.Text)
	case OutputEvent:
		return fmt.Sprintf("%s: thread %d: output %q", pos, e.Thread, e.Text)
	}
	return "none"
}

// Enabled lists the moves possible in s, by thread id then successor.
//
// While a thread is inside an atomic section only it moves. A location's
// action is enabled unless it is an Assume whose condition is false, an
// Acquire of a non-zero lock word, a Join of an unfinished thread, or a
// Spawn beyond Options.MaxInstances. A location with several successors
// is a nondeterministic choice of the thread; moving to a successor that
// is an Assume with a false condition reading only the thread's own
// registers is left out when the location's action is quiet (a skip, an
// assume, a write of an own register): the thread would wait there for
// ever, since no other thread can change those registers, and nothing it
// did on the way is visible. This prunes only states in which a thread is
// stuck for good at such an Assume; every other state, and every check
// failure, of the model stays reachable. When the action is not quiet
// (a shared write, a check, ...) the move is kept and marked Waits.
// Errors in evaluating a condition make the move enabled, so that Step
// reports them. A thread at a location without successors other than its
// exit has one move (Succ 0) that runs the action and halts it.
// Finished and halted threads have no moves.
//
// Havoc moves carry Value 0; callers choose the value.
func (m *Machine) Enabled(s *State) []Move {
	var moves []Move
	for _, t := range s.Threads {
		if !t.Done && t.Atomic > 0 {
			return m.threadMoves(s, t, moves)
		}
	}
	var startable map[pendingKey]bool
	for _, t := range s.Threads {
		if t.Done || t.Halted {
			continue
		}
		if t.Pending {
			if startable == nil {
				startable = m.startable(s)
			}
			if !startable[pendingKey{t.Template, t.ID}] {
				continue
			}
		}
		moves = m.threadMoves(s, t, moves)
	}
	return moves
}

type pendingKey struct {
	tmpl *cfg.Template
	id   ThreadID
}

// startable lists the pending threads that may start in s
// (Options.LazyStart): per template with fewer than MaxInstances running
// threads, the lowest-numbered pending thread of each argument value.
func (m *Machine) startable(s *State) map[pendingKey]bool {
	running := map[*cfg.Template]int{}
	for _, t := range s.Threads {
		if !t.Pending && !t.Done {
			running[t.Template]++
		}
	}
	type class struct {
		tmpl *cfg.Template
		arg  Value
	}
	seen := map[class]bool{}
	out := map[pendingKey]bool{}
	for _, t := range s.Threads {
		if !t.Pending {
			continue
		}
		c := class{tmpl: t.Template}
		if p := t.Template.Param; p != nil && m.localIdx[p.ID] >= 0 {
			c.arg = t.Locals[m.localIdx[p.ID]]
			if c.arg.Big != nil {
				c.arg = Value{Obj: -2, N: int64(t.ID)} // a class of its own
			}
		}
		if seen[c] {
			continue
		}
		seen[c] = true
		if running[t.Template] < m.opts.MaxInstances || m.opts.MaxInstances <= 0 {
			out[pendingKey{t.Template, t.ID}] = true
		}
	}
	return out
}

// ThreadMoves lists the enabled moves of one thread, ignoring the other
// threads' atomic sections.
func (m *Machine) ThreadMoves(s *State, id ThreadID) []Move {
	t := s.Thread(id)
	if t == nil || t.Done || t.Halted {
		return nil
	}
	if t.Pending && !m.startable(s)[pendingKey{t.Template, t.ID}] {
		return nil
	}
	return m.threadMoves(s, t, nil)
}

func (m *Machine) threadMoves(s *State, t *Thread, moves []Move) []Move {
	if !m.actEnabled(s, t) {
		return moves
	}
	loc := t.Loc
	if len(loc.Succs) == 0 {
		// A dead end other than the exit (the check of reach_error, a
		// failed __VERIFIER_assume, abort): its action still runs once,
		// then the thread halts there for good.
		if !t.Halted {
			moves = append(moves, Move{Thread: t.ID})
		}
		return moves
	}
	for i, succ := range loc.Succs {
		mv := Move{Thread: t.ID, Succ: i}
		if a, ok := succ.Act.(*cfg.Assume); ok {
			// After a Havoc the condition may depend on the value the
			// caller picks later: look ahead only when it does not.
			if h, havoc := loc.Act.(*cfg.Havoc); !havoc || !mayRead(a.Cond, h.Dst) {
				if ps, pt, ok := m.postView(s, t, mv); ok {
					v, err := m.eval(ps, pt, a.Cond)
					if err == nil && !truth(v, a.Cond.ExprType()) {
						if m.localCond[succ.ID] && !m.opts.KeepDeadEnds && m.quiet(loc.Act, t) {
							continue
						}
						mv.Waits = true
					}
				}
			}
		}
		moves = append(moves, mv)
	}
	return moves
}

// quiet reports whether executing a (already known to be enabled and
// evaluable) can neither change what other threads see nor report
// anything: a skip, an assume, or a write of one of t's own registers.
// Only such a move may be dropped in front of a dead end: dropping a
// shared write, a lock operation, a spawn, an atomic-section boundary or a
// check would lose states or failures of the model.
func (m *Machine) quiet(a cfg.Action, t *Thread) bool {
	var dst cfg.LValue
	switch a := a.(type) {
	case *cfg.Skip, *cfg.Assume:
		return true
	case *cfg.Assign:
		dst = a.Dst
	case *cfg.Havoc:
		dst = a.Dst
	default:
		return false
	}
	r, ok := dst.(*cfg.VarRef)
	return ok && m.localIdx[r.Var.ID] >= 0 && m.owns(t, r.Var)
}

// owns reports whether register v (with a local index) is one of t's: a
// local of t's template or a thread-local global.
func (m *Machine) owns(t *Thread, v *cfg.Var) bool {
	return v.Template == t.Template || v.ThreadLocal && v.Scope == cfg.Global
}

// DeadEnd reports whether after mv (with its Value) the thread would
// stand at an Assume whose condition is false and reads only its own
// registers, so that it could never move again.
func (m *Machine) DeadEnd(s *State, mv Move) bool {
	t := s.Thread(mv.Thread)
	if t == nil || t.Done || mv.Succ < 0 || mv.Succ >= len(t.Loc.Succs) {
		return false
	}
	succ := t.Loc.Succs[mv.Succ]
	a, ok := succ.Act.(*cfg.Assume)
	if !ok || !m.localCond[succ.ID] {
		return false
	}
	ps, pt, ok := m.postView(s, t, mv)
	if !ok {
		return false
	}
	v, err := m.eval(ps, pt, a.Cond)
	return err == nil && !truth(v, a.Cond.ExprType())
}

// postView returns the state and thread right after mv, for reading only
// (evaluating the successor's condition). The common actions before a
// branch (none, or a write of one register) get a shallow copy instead of
// a full Step, which would clone every instance pointer. ok is false when
// the move fails.
func (m *Machine) postView(s *State, t *Thread, mv Move) (*State, *Thread, bool) {
	var dst *cfg.VarRef
	var val Value
	var from cfg.Type
	switch a := t.Loc.Act.(type) {
	case *cfg.Skip, *cfg.Assume, *cfg.CheckAct, *cfg.Output, *cfg.AtomicBegin, *cfg.AtomicEnd, *cfg.Join:
		return s, t, true
	case *cfg.Assign:
		if r, ok := a.Dst.(*cfg.VarRef); ok {
			v, err := m.eval(s, t, a.Src)
			if err != nil {
				return nil, nil, false
			}
			dst, val, from = r, v, a.Src.ExprType()
		}
	case *cfg.Havoc:
		if r, ok := a.Dst.(*cfg.VarRef); ok {
			dst, val, from = r, Value{N: mv.Value}, cfg.Int64
		}
	}
	if dst == nil {
		ps, ev := m.Step(s, mv)
		if ps == nil || (ev.Kind != NoEvent && ev.Kind != OutputEvent) {
			return nil, nil, false
		}
		return ps, ps.Threads[t.ID], true
	}
	v, err := convert(val, from, dst.Var.Type)
	if err != nil {
		return nil, nil, false
	}
	if gi := m.globalIdx[dst.Var.ID]; gi >= 0 {
		// A read-only view (gen 0 owns nothing).
		ps := &State{Globals: append([]Value(nil), s.Globals...), Insts: s.Insts, Threads: s.Threads, Spawned: s.Spawned}
		ps.Globals[gi] = v
		return ps, t, true
	}
	li := m.localIdx[dst.Var.ID]
	if li < 0 || !m.owns(t, dst.Var) {
		return nil, nil, false
	}
	pt := *t
	pt.Locals = append([]Value(nil), t.Locals...)
	pt.Locals[li] = v
	return s, &pt, true
}

// mayRead reports whether evaluating e may read what dst names.
func mayRead(e cfg.Expr, dst cfg.LValue) bool {
	switch e := e.(type) {
	case *cfg.VarRef:
		d, ok := dst.(*cfg.VarRef)
		return ok && d.Var == e.Var
	case *cfg.Deref:
		_, isMem := dst.(*cfg.Deref)
		return isMem || mayRead(e.Addr, dst)
	case *cfg.Unary:
		return mayRead(e.X, dst)
	case *cfg.Binary:
		return mayRead(e.X, dst) || mayRead(e.Y, dst)
	case *cfg.Cast:
		return mayRead(e.X, dst)
	case *cfg.Const, *cfg.AddrOf:
		return false
	}
	return true
}

// actEnabled reports whether thread t can execute the action where it
// stands.
func (m *Machine) actEnabled(s *State, t *Thread) bool {
	switch a := t.Loc.Act.(type) {
	case *cfg.Assume:
		v, err := m.eval(s, t, a.Cond)
		return err != nil || truth(v, a.Cond.ExprType())
	case *cfg.Acquire:
		v, err := m.eval(s, t, a.Lock)
		return err != nil || !truth(v, a.Lock.ExprType())
	case *cfg.Join:
		v, err := m.eval(s, t, a.Handle)
		if err != nil || v.Obj != 0 || v.Big != nil {
			return true
		}
		target := s.Thread(ThreadID(v.N))
		return target == nil || target.Done
	case *cfg.Spawn:
		limit := m.spawnLimit()
		if limit <= 0 {
			return true
		}
		tmpl, err := m.spawnTarget(s, t, a)
		return err != nil || s.Spawned[tmpl.ID] < limit
	}
	return true
}

// AtInstanceBound reports whether thread id stands at a Spawn that
// Options.MaxInstances keeps from running (its template has all its
// instances already): a search with a larger bound could go on there.
//
// With LazyStart: thread id is pending and MaxInstances threads of its
// template run; or it stands at a Spawn beyond MaxSpawns.
func (m *Machine) AtInstanceBound(s *State, id ThreadID) bool {
	t := s.Thread(id)
	if t == nil || t.Done || t.Halted || m.opts.MaxInstances <= 0 {
		return false
	}
	if t.Pending {
		running := 0
		for _, u := range s.Threads {
			if u.Template == t.Template && !u.Pending && !u.Done {
				running++
			}
		}
		return running >= m.opts.MaxInstances
	}
	a, ok := t.Loc.Act.(*cfg.Spawn)
	if !ok {
		return false
	}
	tmpl, err := m.spawnTarget(s, t, a)
	return err == nil && s.Spawned[tmpl.ID] >= m.spawnLimit()
}

// spawnLimit is the number of spawns of a template that can run (0: no
// limit).
func (m *Machine) spawnLimit() int {
	if m.opts.LazyStart {
		return m.opts.MaxSpawns
	}
	return m.opts.MaxInstances
}

// Step executes mv in a copy of s and returns the new state. It returns a
// nil state when the thread cannot continue: a failed check (execution
// continues only where the check held), a runtime error, or a move that
// is not enabled (Blocked). s is not changed.
func (m *Machine) Step(s *State, mv Move) (*State, Event) {
	ns := s.Clone()
	ev := m.StepInPlace(ns, mv)
	if ev.Kind != NoEvent && ev.Kind != OutputEvent {
		return nil, ev
	}
	return ns, ev
}

// StepInPlace executes mv on s itself. When the returned event is not
// NoEvent or OutputEvent, s is left partially updated and must be
// discarded.
func (m *Machine) StepInPlace(s *State, mv Move) (ev Event) {
	t := s.Thread(mv.Thread)
	if t == nil {
		return Event{Kind: ErrorEvent, Thread: mv.Thread, Text: "no such thread"}
	}
	loc := t.Loc
	ev = Event{Thread: t.ID, Loc: loc}
	deadEnd := len(loc.Succs) == 0
	if t.Done || t.Halted || mv.Succ < 0 || (mv.Succ >= len(loc.Succs) && !(deadEnd && mv.Succ == 0)) {
		ev.Kind, ev.Text = Blocked, "no such successor"
		return ev
	}
	defer func() {
		// Malformed IR must not crash the caller: report it as an error.
		if r := recover(); r != nil {
			ev.Kind, ev.Text = ErrorEvent, fmt.Sprintf("internal error executing %T: %v", loc.Act, r)
		}
	}()
	if loc.Atomic != (t.Atomic > 0) {
		ev.Kind, ev.Text = ErrorEvent, fmt.Sprintf("IR inconsistency: Loc.Atomic=%v but atomic depth %d", loc.Atomic, t.Atomic)
		return ev
	}
	fail := func(err error) Event {
		ev.Kind, ev.Text = ErrorEvent, err.Error()
		return ev
	}
	switch a := loc.Act.(type) {
	case *cfg.Skip:
	case *cfg.InitGlobals:
		if err := m.initGlobals(s); err != nil {
			return fail(err)
		}
	case *cfg.Assign:
		v, err := m.eval(s, t, a.Src)
		if err != nil {
			return fail(err)
		}
		if err := m.assign(s, t, a.Dst, a.Src.ExprType(), v); err != nil {
			return fail(err)
		}
	case *cfg.Assume:
		v, err := m.eval(s, t, a.Cond)
		if err != nil {
			return fail(err)
		}
		if !truth(v, a.Cond.ExprType()) {
			ev.Kind, ev.Text = Blocked, "assume is false"
			return ev
		}
	case *cfg.Havoc:
		if unknownMemory(a.Dst) {
			// The frontend's model of an external function's effects on
			// memory it cannot name: no concrete location to change. The
			// interpreter gives up on it (documented in doc.go).
			break
		}
		if err := m.assign(s, t, a.Dst, cfg.Int64, Value{N: mv.Value}); err != nil {
			return fail(err)
		}
	case *cfg.CheckAct:
		v, err := m.eval(s, t, a.Cond)
		if err != nil {
			return fail(err)
		}
		if !truth(v, a.Cond.ExprType()) {
			ev.Kind, ev.Check = CheckFailed, a.Check
			return ev
		}
	case *cfg.Acquire:
		v, err := m.eval(s, t, a.Lock)
		if err != nil {
			return fail(err)
		}
		if truth(v, a.Lock.ExprType()) {
			ev.Kind, ev.Text = Blocked, "lock is held"
			return ev
		}
		if err := m.assign(s, t, a.Lock, cfg.Int32, Value{N: 1}); err != nil {
			return fail(err)
		}
	case *cfg.Release:
		if err := m.assign(s, t, a.Lock, cfg.Int32, Value{}); err != nil {
			return fail(err)
		}
	case *cfg.AtomicBegin:
		s.mutThread(t.ID).Atomic++
	case *cfg.AtomicEnd:
		if t.Atomic == 0 {
			return fail(fmt.Errorf("atomic end outside an atomic section"))
		}
		s.mutThread(t.ID).Atomic--
	case *cfg.Spawn:
		if e := m.spawn(s, t, a); e != nil {
			ev.Kind, ev.Text = e.kind, e.msg
			return ev
		}
	case *cfg.Join:
		v, err := m.eval(s, t, a.Handle)
		if err != nil {
			return fail(err)
		}
		if v.Obj != 0 || v.Big != nil || s.Thread(ThreadID(v.N)) == nil {
			return fail(rtErr("join of %v, which is not a thread id", v))
		}
		if !s.Threads[v.N].Done {
			ev.Kind, ev.Text = Blocked, fmt.Sprintf("thread %d has not terminated", v.N)
			return ev
		}
	case *cfg.Alloc:
		if err := m.alloc(s, t, a); err != nil {
			return fail(err)
		}
	case *cfg.Output:
		text, err := m.format(s, t, a)
		if err != nil {
			return fail(err)
		}
		ev.Kind, ev.Text = OutputEvent, text
	default:
		return fail(fmt.Errorf("unsupported action %T", loc.Act))
	}
	nt := s.mutThread(t.ID)
	nt.Pending = false
	if deadEnd {
		nt.Halted = true
		return ev
	}
	nt.Loc = loc.Succs[mv.Succ]
	nt.Done = nt.Loc == t.Template.Exit
	m.zeroDead(nt, loc, mv.Succ)
	return ev
}

type stepErr struct {
	kind EventKind
	msg  string
}

// spawnTarget resolves the template a Spawn starts.
func (m *Machine) spawnTarget(s *State, t *Thread, a *cfg.Spawn) (*cfg.Template, error) {
	if len(a.Targets) == 0 {
		return nil, fmt.Errorf("spawn without targets")
	}
	if a.Fn == nil {
		if len(a.Targets) == 1 {
			return a.Targets[0], nil
		}
		return nil, fmt.Errorf("spawn with several targets and no function value")
	}
	fn, err := m.eval(s, t, a.Fn)
	if err != nil {
		return nil, err
	}
	in := s.Inst(fn.Obj)
	if in == nil || in.Object.Kind != cfg.FuncObject || fn.N != 0 {
		return nil, rtErr("spawn of %v, which is not a function address", fn)
	}
	for _, tm := range a.Targets {
		if tm.Name == in.Object.Func {
			return tm, nil
		}
	}
	return nil, rtErr("spawn of function %s, which is not among the spawn's targets", in.Object.Func)
}

func (m *Machine) spawn(s *State, t *Thread, a *cfg.Spawn) *stepErr {
	tmpl, err := m.spawnTarget(s, t, a)
	if err != nil {
		return &stepErr{ErrorEvent, err.Error()}
	}
	if limit := m.spawnLimit(); limit > 0 && s.Spawned[tmpl.ID] >= limit {
		return &stepErr{Blocked, fmt.Sprintf("%d instances of %s exist already", s.Spawned[tmpl.ID], tmpl.Name)}
	}
	var arg Value
	if a.Arg != nil {
		if arg, err = m.eval(s, t, a.Arg); err != nil {
			return &stepErr{ErrorEvent, err.Error()}
		}
	}
	id := ThreadID(len(s.Threads))
	s.Spawned[tmpl.ID]++
	nt := m.newThread(s, id, tmpl)
	if tmpl.Param != nil {
		li := m.localIdx[tmpl.Param.ID]
		if li < 0 {
			return &stepErr{ErrorEvent, fmt.Sprintf("parameter %s of %s is not a local register", tmpl.Param.Name, tmpl.Name)}
		}
		if a.Arg != nil {
			if nt.Locals[li], err = convert(arg, a.Arg.ExprType(), tmpl.Param.Type); err != nil {
				return &stepErr{ErrorEvent, err.Error()}
			}
		}
	}
	nt.Pending = m.opts.LazyStart && !nt.Done
	s.Threads = append(s.Threads, nt)
	if a.Handle != nil {
		if err := m.assign(s, t, a.Handle, cfg.Int64, Value{N: int64(id)}); err != nil {
			return &stepErr{ErrorEvent, err.Error()}
		}
	}
	return nil
}

func (m *Machine) alloc(s *State, t *Thread, a *cfg.Alloc) error {
	var size int64
	if a.Size != nil {
		v, err := m.eval(s, t, a.Size)
		if err != nil {
			return err
		}
		n := mathOf(v, a.Size.ExprType())
		if v.Obj != 0 || n.big != nil || n.small < 0 || n.small > m.opts.MaxObjectSize {
			return rtErr("allocation of %v bytes", v)
		}
		size = n.small
	} else if a.Site != nil && a.Site.Size >= 0 {
		size = a.Site.Size
	}
	if a.Site == nil {
		return fmt.Errorf("alloc without a site")
	}
	// Fresh heap memory is indeterminate in C; the interpreter zeroes it
	// (with or without Zero) so runs are reproducible.
	id := s.addInst(&Instance{Object: a.Site, Owner: -1, Size: size, Bytes: make([]byte, size)})
	return m.assign(s, t, a.Dst, cfg.Type{Kind: cfg.PtrType, Bits: m.Prog.DataModel.PtrBits()}, Value{Obj: id})
}

// assign stores v (of type from) into dst, converting it to dst's type.
func (m *Machine) assign(s *State, t *Thread, dst cfg.LValue, from cfg.Type, v Value) error {
	to := dst.ExprType()
	v, err := convert(v, from, to)
	if err != nil {
		return err
	}
	switch d := dst.(type) {
	case *cfg.VarRef:
		if gi := m.globalIdx[d.Var.ID]; gi >= 0 {
			s.Globals[gi] = v
			return nil
		}
		li := m.localIdx[d.Var.ID]
		if li < 0 || t == nil || !m.owns(t, d.Var) {
			return fmt.Errorf("write of %s, which is not a register of thread %d", d.Var.Name, threadID(t))
		}
		s.mutThread(t.ID).Locals[li] = v
		return nil
	case *cfg.Deref:
		id, off, err := m.address(s, t, d)
		if err != nil {
			return err
		}
		s.store(id, off, d.Type, v)
		return nil
	}
	return fmt.Errorf("unsupported destination %T", dst)
}

func threadID(t *Thread) ThreadID {
	if t == nil {
		return -1
	}
	return t.ID
}

// address evaluates d's address and checks the access is inside a live
// instance.
func (m *Machine) address(s *State, t *Thread, d *cfg.Deref) (InstID, int64, error) {
	p, err := m.eval(s, t, d.Addr)
	if err != nil {
		return 0, 0, err
	}
	in := s.Inst(p.Obj)
	if in == nil {
		if p.N == 0 && p.Big == nil {
			return 0, 0, rtErr("null pointer dereference")
		}
		return 0, 0, rtErr("dereference of invalid pointer %v", p)
	}
	if in.Freed {
		return 0, 0, rtErr("use of %s after free", in.Object.Name)
	}
	if in.Object.Kind == cfg.FuncObject {
		return 0, 0, rtErr("access to the code of function %s", in.Object.Func)
	}
	size := typeSize(d.Type)
	if d.Type.Kind == cfg.IntType && d.Type.Bits == 0 {
		return 0, 0, fmt.Errorf("memory access with the unbounded integer type")
	}
	if p.N < 0 || p.N+size > in.Size {
		return 0, 0, rtErr("out-of-bounds access to %s: bytes [%d, %d) of %d", in.Object.Name, p.N, p.N+size, in.Size)
	}
	if m.opts.CheckCells && len(d.Cells) > 0 {
		if why := m.uncovered(s, t, d.Cells, in, p.N, size); why != "" {
			names := make([]string, len(d.Cells))
			for i, c := range d.Cells {
				names[i] = c.Name
			}
			return 0, 0, fmt.Errorf("points-to: access to bytes [%d, %d) of %s %s by the Deref's cells %v", p.N, p.N+size, in.Object.Name, why, names)
		}
	}
	return p.Obj, p.N, nil
}

// uncovered says why cells do not cover bytes [off, off+size) of instance
// in accessed by thread t, or "" when they do. A non-summary cell claims
// one concrete location (the analysis updates it strongly), so it covers
// a LocalObject instance of another thread only while that template has
// one instance, and a heap instance only while its allocation site has
// made just one.
func (m *Machine) uncovered(s *State, t *Thread, cells []*cfg.Var, in *Instance, off, size int64) string {
	if !covered(cells, in.Object, off, size) {
		return "is not covered"
	}
	for _, c := range cells {
		if c.Mem != in.Object || !(c.Summary && c.Offset <= off || c.Offset < off+size && off < c.Offset+typeSize(c.Type)) {
			continue
		}
		if c.Summary {
			return ""
		}
		switch in.Object.Kind {
		case cfg.LocalObject:
			if t != nil && in.Owner != t.ID && m.instancesOf(s, in.Object.Template) > 1 {
				continue // another thread's instance while the template has several
			}
		case cfg.HeapObject:
			n := 0
			for _, other := range s.Insts[1:] {
				if other.Object == in.Object {
					n++
				}
			}
			if n > 1 {
				continue
			}
		}
		return ""
	}
	return "(one of several concrete instances) is only covered by a non-summary cell"
}

// covered reports whether one of cells may denote bytes [off, off+size)
// of object o: a non-summary cell overlapping them, or a summary cell of o
// starting at or before off (its extent is not recorded in the IR).
func covered(cells []*cfg.Var, o *cfg.Object, off, size int64) bool {
	for _, c := range cells {
		if c.Mem != o {
			continue
		}
		if c.Summary && c.Offset <= off {
			return true
		}
		if c.Offset < off+size && off < c.Offset+typeSize(c.Type) {
			return true
		}
	}
	return false
}

// instancesOf counts the threads of template tm created so far.
func (m *Machine) instancesOf(s *State, tm *cfg.Template) int {
	n := 0
	for _, t := range s.Threads {
		if t.Template == tm {
			n++
		}
	}
	return n
}

// unknownLocalSize is the capacity of a LocalObject of unknown size.
const unknownLocalSize = 4096

// unknownMemory reports whether dst names memory through the address of
// an object that has no single instance: the frontend's <unknown> object
// (a global of unknown size) or an allocation site (each Alloc makes a new
// instance). The frontend writes such havocs for the effects of unknown
// functions on a whole cell.
func unknownMemory(dst cfg.LValue) bool {
	d, ok := dst.(*cfg.Deref)
	if !ok {
		return false
	}
	a, ok := d.Addr.(*cfg.AddrOf)
	if !ok {
		return false
	}
	return a.Object.Kind == cfg.HeapObject || (a.Object.Size < 0 && a.Object.Kind == cfg.GlobalObject)
}

// eval evaluates e in thread t (nil: no thread, for initializers).
func (m *Machine) eval(s *State, t *Thread, e cfg.Expr) (Value, error) {
	switch e := e.(type) {
	case *cfg.Const:
		if e.Type.Kind == cfg.FloatType {
			return Value{N: e.Value}, nil
		}
		return wrapNum(mathOf(Value{N: e.Value}, e.Type), e.Type), nil
	case *cfg.VarRef:
		if gi := m.globalIdx[e.Var.ID]; gi >= 0 {
			return s.Globals[gi], nil
		}
		li := m.localIdx[e.Var.ID]
		if li < 0 || t == nil || !m.owns(t, e.Var) {
			return Value{}, fmt.Errorf("read of %s, which is not a register of thread %d", e.Var.Name, threadID(t))
		}
		if v := t.Locals[li]; v.Obj == undefined {
			return Value{}, fmt.Errorf("read of the uninitialized register %s", e.Var.Name)
		}
		return t.Locals[li], nil
	case *cfg.Deref:
		id, off, err := m.address(s, t, e)
		if err != nil {
			return Value{}, err
		}
		return load(s.Insts[id], off, e.Type), nil
	case *cfg.AddrOf:
		o := e.Object
		if o == nil {
			return Value{}, fmt.Errorf("address of a nil object")
		}
		var id InstID
		switch o.Kind {
		case cfg.LocalObject:
			if t == nil || o.Template != t.Template {
				return Value{}, fmt.Errorf("address of local object %s outside its thread", o.Name)
			}
			id = t.LocalObjs[m.localObjIdx[o.ID]]
		case cfg.HeapObject:
			return Value{}, fmt.Errorf("address of allocation site %s", o.Name)
		default:
			id = m.staticInst[o.ID]
		}
		return Value{Obj: id, N: e.Offset}, nil
	case *cfg.Unary:
		x, err := m.eval(s, t, e.X)
		if err != nil {
			return Value{}, err
		}
		return unaryOp(e.Op, x, e.X.ExprType(), e.Type)
	case *cfg.Binary:
		x, err := m.eval(s, t, e.X)
		if err != nil {
			return Value{}, err
		}
		y, err := m.eval(s, t, e.Y)
		if err != nil {
			return Value{}, err
		}
		return binaryOp(e.Op, x, e.X.ExprType(), y, e.Y.ExprType(), e.Type)
	case *cfg.Cast:
		x, err := m.eval(s, t, e.X)
		if err != nil {
			return Value{}, err
		}
		return convert(x, e.X.ExprType(), e.Type)
	case nil:
		return Value{}, fmt.Errorf("missing expression")
	}
	return Value{}, fmt.Errorf("unsupported expression %T", e)
}

// Eval evaluates a side-effect-free expression in thread id of s (id -1:
// no thread; locals are then unavailable). For explorers and tests.
func (m *Machine) Eval(s *State, id ThreadID, e cfg.Expr) (Value, error) {
	return m.eval(s, s.Thread(id), e)
}

// Register is the value of register v: a global one, or a local one of
// thread id.
func (m *Machine) Register(s *State, id ThreadID, v *cfg.Var) (Value, bool) {
	if gi := m.globalIdx[v.ID]; gi >= 0 {
		return s.Globals[gi], true
	}
	t := s.Thread(id)
	li := m.localIdx[v.ID]
	if t == nil || li < 0 || !m.owns(t, v) {
		return Value{}, false
	}
	if val := t.Locals[li]; val.Obj == undefined {
		return wrapNum(num{}, v.Type), true // never written: reads as zero
	}
	return t.Locals[li], true
}

// CellValue is the concrete value of the abstract cell v (a Var with Mem
// != nil) as thread id sees it: the bytes at v.Offset of the object's
// instance (the thread's own instance for a LocalObject), read with v's
// type. It reports false for cells without a single concrete location:
// summary cells and cells of heap objects, and accesses out of bounds.
func (m *Machine) CellValue(s *State, id ThreadID, v *cfg.Var) (Value, bool) {
	if v.Mem == nil || v.Summary {
		return Value{}, false
	}
	var inst InstID
	switch v.Mem.Kind {
	case cfg.LocalObject:
		t := s.Thread(id)
		if t == nil || t.Template != v.Mem.Template {
			return Value{}, false
		}
		inst = t.LocalObjs[m.localObjIdx[v.Mem.ID]]
	case cfg.GlobalObject, cfg.StringObject:
		inst = m.staticInst[v.Mem.ID]
	default:
		return Value{}, false
	}
	in := s.Inst(inst)
	if in == nil || v.Type.Kind == cfg.IntType && v.Type.Bits == 0 || v.Offset < 0 || v.Offset+typeSize(v.Type) > in.Size {
		return Value{}, false
	}
	return load(in, v.Offset, v.Type), true
}
