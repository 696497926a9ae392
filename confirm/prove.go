package confirm

// Exploration proofs: when the program's state space is finite and the
// explorer's executions include every execution of the C program (under
// chorus's semantics: sequential consistency), a complete search is a
// proof that a check it never saw fail fails in no execution, under any
// schedule, with every thread the program creates. Prove refuses (ErrInexact) whenever one of the conditions below
// does not hold; each one is tested in prove_test.go.
//
// Conditions on the search (checked on explore.Result):
//
//   - it completed (Result.Complete): no MaxStates or Timeout cut, and
//     no StopAt location could run (below);
//   - no spawn ever waited for an instance (Result.Bounded false): a
//     spawn blocked by MaxInstances removes executions, and with none
//     blocked the bound never mattered (the search stops at the first
//     one: explore.Options.StopWhenBounded);
//   - no runtime error of the interpreter (Result.Errors empty): an
//     error ends its path, and the executions after it are unexplored;
//     reads of local registers never written are errors here
//     (Options.CheckUninit), so an indeterminate value is never read as
//     the interpreter's zero;
//   - no check of a kind not asked for failed: a failed check ends its
//     path (the IR's semantics, which the analysis shares: execution
//     goes on only where a check held); a failed requested check is
//     reported unproven, so the first failure of each execution is
//     never hidden, but one of a kind the user did not ask for would
//     silently cut executions.
//
// Conditions on the program (checked before the search, as refusals or
// as explore.Options.StopAt locations — the search ends as soon as a
// thread could run one, so a complete search never did):
//
//   - thread-local objects: the interpreter shares one instance; refused
//     (as Confirm does). Assumptions without a location at their
//     position (inline assembly dropped): nothing to fence; refused;
//   - the locations of the frontend's modelling assumptions (unknown
//     functions havocked, recursion summarized) and the havocs that are
//     not inputs (untrustedLocs, as for Confirm): StopAt. Confirm
//     forbids them (a thread there waits for good), which removes
//     executions: fine for a bug finder, not for a proof;
//   - havocs (inputs): a havoc of a register no location reads takes one
//     value (no value can matter); a havoc of a register every read of
//     which only compares it with 0 takes 0 and 1 (truthOnlyRegisters:
//     every non-zero value reads as 1 does); a havoc of a register of an
//     integer type of at most 8 bits takes every value of the type
//     (explore.Options.HavocValues); any other havoc (a wider input, argc, a havoc of
//     memory) is StopAt: the search stops at the first one it meets,
//     which keeps the cost small on the many programs that read an input
//     early;
//   - indeterminate memory: the interpreter zeroes fresh local objects
//     and heap blocks (C leaves them indeterminate). An Alloc without
//     Zero (malloc) is StopAt; a read of a local object is allowed only
//     where it is certainly of a value its own thread wrote first
//     (definitelyWritten), every other read of a local object is StopAt;
//     a local object of unknown size (VLA) is refused. Which reads may
//     touch a local object is the frontend's points-to analysis (a
//     Deref's Cells); the search checks it on every access
//     (explore.Options.CheckCells: an access outside the cells is a
//     runtime error, so no proof);
//   - floating point: the interpreter computes in float64 (long double
//     too), not as the C implementation would; a location whose action
//     has a floating-point operand is StopAt;
//   - abort() and exit(): in C they end the whole program, in the IR only
//     the calling thread, whose end location gets itself as its
//     successor (Explore): the others go on, so the explored executions
//     are a superset of C's (more states, no fewer); nothing to refuse.
//
// The search uses the partial-order reduction (explore.Options.Reduce),
// which keeps every reachable failed check, runtime error and blocked
// spawn (noteBounded runs on the forced moves too) but not every state:
// Prove claims "never fails", never "unreachable". Dead registers are
// zeroed (explore.Options.ForgetDead), which merges states but changes
// no failed check, error or deadlock. Visited states are
// kept by their whole canonical encodings (explore.Options.ExactStates),
// not by 128-bit hashes: no collision can hide a state.

import (
	"errors"
	"fmt"
	"time"

	"chorus/cfg"
	"chorus/explore"
)

// ProofBudget bounds an exploration proof.
type ProofBudget struct {
	// MaxStates bounds the distinct states stored (default 100000).
	MaxStates int
	// CPUTimeout bounds the CPU time of the search (default 1.5s): what
	// completes within it does not depend on the machine's load
	// (explore.Options.CPUTimeout).
	CPUTimeout time.Duration
	// Timeout bounds the search's wall time (default 4 times CPUTimeout):
	// a backstop for a machine so loaded that the search gets little of
	// a core.
	Timeout time.Duration
	// Instances is the instance bound per template (default 4): it only
	// makes the search finite when a program spawns without bound; a
	// proof needs that no spawn ever reached it.
	Instances int
}

// Proof is the outcome of a successful exploration proof.
type Proof struct {
	// Proven lists the checks asked for that no explored execution
	// fails.
	Proven []*cfg.Check
	// States is the number of states stored; Threads the most threads of
	// one state.
	States, Threads int
}

// ErrInexact is wrapped by Prove's error when the exploration is not a
// proof; the message says which condition failed.
var ErrInexact = errors.New("exploration is no proof")

func inexact(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInexact, fmt.Sprintf(format, args...))
}

// proveHook, when set (tests only), may change the options of Prove's
// search before it runs and its result after: the mutation tests break
// one exactness condition through it and expect a test to notice.
var proveHook struct {
	options func(*explore.Options)
	result  func(*explore.Result)
}

// Prove explores p exhaustively and returns the checks (among checks)
// that no execution fails, when the search is exact (see above). kinds
// are the check kinds the user asked for. p must be the program as
// lowered (not rewritten by the analysis); it is patched during the
// search as for Explore and restored.
func Prove(p *cfg.Program, checks []*cfg.Check, kinds []cfg.CheckKind, b ProofBudget) (*Proof, error) {
	if len(checks) == 0 {
		return &Proof{}, nil
	}
	if b.MaxStates <= 0 {
		b.MaxStates = 100_000
	}
	if b.CPUTimeout <= 0 {
		b.CPUTimeout = 1500 * time.Millisecond
	}
	if b.Timeout <= 0 {
		b.Timeout = 4 * b.CPUTimeout
	}
	if b.Instances <= 0 {
		b.Instances = 4
	}
	for _, o := range p.Objects {
		if o.Kind == cfg.LocalObject && o.Size < 0 {
			return nil, inexact("local object %s of unknown size", o.Name)
		}
	}
	untrusted, ok := untrustedLocs(p)
	if !ok {
		return nil, inexact("modelling assumptions without a location, or thread-local objects")
	}
	stopAt, havocs := proofStops(p, untrusted, true)
	opts := explore.Options{MaxInstances: b.Instances, MaxStates: b.MaxStates, Timeout: b.Timeout, CPUTimeout: b.CPUTimeout,
		StopWhenBounded: true, Reduce: true, ForgetDead: true, CheckUninit: true, ExactStates: true, MaxExactBytes: maxExactBytes, CheckCells: true, StopAt: stopAt, HavocValues: havocs}
	// Once every check to prove has failed there is nothing left to
	// prove: the search stops (incomplete, so no proof — none was possible).
	target := make(map[*cfg.Check]bool, len(checks))
	for _, c := range checks {
		target[c] = true
	}
	left := len(target)
	opts.Stop = func(f explore.Failure) bool {
		if c := f.Event.Check; c != nil && target[c] {
			target[c] = false
			left--
		}
		return left == 0
	}
	if proveHook.options != nil {
		proveHook.options(&opts)
	}
	res, err := Explore(p, opts)
	if err != nil {
		return nil, inexact("%v", err)
	}
	if proveHook.result != nil {
		proveHook.result(res)
	}
	switch {
	case res.StoppedAt != nil:
		return nil, inexact("reached %v (%s:%d), which the interpreter does not run as C would", res.StoppedAt, res.StoppedAt.Pos.Filename, res.StoppedAt.Pos.Line)
	case res.Bounded:
		return nil, inexact("a spawn waited for one of %d instances", b.Instances)
	case !res.Complete:
		return nil, inexact("budget exhausted after %d states", res.States)
	case len(res.Errors) > 0:
		e := res.Errors[0].Event
		return nil, inexact("runtime error: %s", e.Text)
	}
	asked := map[cfg.CheckKind]bool{}
	for _, k := range kinds {
		asked[k] = true
	}
	failed := map[*cfg.Check]bool{}
	for _, f := range res.Failures {
		if !asked[f.Event.Check.Kind] {
			return nil, inexact("a %v check not asked for fails at %v", f.Event.Check.Kind, f.Event.Check.Pos)
		}
		failed[f.Event.Check] = true
	}
	out := &Proof{States: res.States, Threads: res.MaxThreads}
	for _, c := range checks {
		if !failed[c] {
			out.Proven = append(out.Proven, c)
		}
	}
	return out, nil
}

// EarlyStop returns a location where every exploration proof of p would
// stop (a location Prove marks StopAt: a wide input, a modelling
// assumption, ...) that main reaches from its entry before anything can
// block it: by locations with one successor whose actions never wait
// (main is the only thread until its first spawn, and its own moves stay
// enabled after) — or that a thread main spawns on that way reaches so
// from its own entry. Then no search is needed: chorus check calls it on
// the analysed program, before lowering the program again for Prove, so
// that the many programs that read an input first cost nothing more. It
// only decides whether to try (nil: try); a proof is always Prove's.
func EarlyStop(p *cfg.Program) *cfg.Loc {
	if len(p.Templates) == 0 || p.Templates[0].Entry == nil {
		return nil
	}
	untrusted, ok := untrustedLocs(p)
	if !ok {
		return p.Templates[0].Entry // Prove refuses anyway
	}
	stop, _ := proofStops(p, untrusted, false)
	// prefix walks from entry while the way cannot block, collecting the
	// templates spawned on the way.
	var spawned []*cfg.Template
	prefix := func(entry *cfg.Loc) *cfg.Loc {
		seen := map[*cfg.Loc]bool{}
		for l := entry; l != nil && !seen[l]; {
			seen[l] = true
			if stop[l.ID] {
				return l
			}
			switch a := l.Act.(type) {
			case *cfg.Spawn:
				spawned = append(spawned, a.Targets...)
			case *cfg.Skip, *cfg.InitGlobals, *cfg.Assign, *cfg.Havoc, *cfg.Output, *cfg.AtomicBegin, *cfg.AtomicEnd, *cfg.Alloc:
			default:
				return nil // may block, fail or branch: the search decides
			}
			if len(l.Succs) != 1 {
				return nil
			}
			l = l.Succs[0]
		}
		return nil
	}
	if l := prefix(p.Templates[0].Entry); l != nil {
		return l
	}
	// A thread main spawns on that way runs its own such way too (alone,
	// in some execution).
	for i := 0; i < len(spawned); i++ {
		if t := spawned[i]; t != nil && t.Entry != nil && t != p.Templates[0] {
			if l := prefix(t.Entry); l != nil {
				return l
			}
		}
	}
	return nil
}

// maxExactBytes bounds the memory of the visited states' encodings: a
// program with large globals would otherwise keep gigabytes (each
// encoding holds every object's bytes). Past it there is no proof.
const maxExactBytes = 256 << 20

// maxHavocBits is the widest integer type whose every value a havoc
// enumerates (256 values).
const maxHavocBits = 8

// proofStops computes explore.Options.StopAt and HavocValues for a proof
// (see the conditions above); untrusted are the locations untrustedLocs
// marks. Without uninit, the reads of indeterminate local memory are not
// marked (EarlyStop: a cheaper, smaller set).
func proofStops(p *cfg.Program, untrusted []bool, uninit bool) ([]bool, [][]int64) {
	stop := make([]bool, len(p.Locs))
	havocs := make([][]int64, len(p.Locs))
	read := registersThatMatter(p)
	truthOnly := truthOnlyRegisters(p)
	for _, l := range p.Locs {
		if untrusted != nil && untrusted[l.ID] {
			stop[l.ID] = true
			continue
		}
		reads, dsts, known := actionOperands(l.Act)
		if !known || hasFloat(reads) || hasFloat(dsts) {
			stop[l.ID] = true
			continue
		}
		switch a := l.Act.(type) {
		case *cfg.Havoc:
			r, ok := a.Dst.(*cfg.VarRef)
			switch {
			case !ok || r.Var.Mem != nil:
				stop[l.ID] = true // memory, or an unknown function's effects
			case !read[r.Var]:
				havocs[l.ID] = []int64{0} // never read: no value matters
			case truthOnly[r.Var] && r.Var.Type.Kind == cfg.IntType && r.Var.Type.Bits > 0:
				havocs[l.ID] = []int64{0, 1} // only compared with 0: every non-zero value acts as 1
			default:
				t := r.Var.Type
				if t.Kind != cfg.IntType || t.Bits <= 0 || t.Bits > maxHavocBits {
					stop[l.ID] = true // an input with too many values
					continue
				}
				lo, hi := int64(0), int64(1)<<t.Bits-1
				if t.Signed {
					lo, hi = -(int64(1) << (t.Bits - 1)), int64(1)<<(t.Bits-1)-1
				}
				for v := lo; v <= hi; v++ {
					havocs[l.ID] = append(havocs[l.ID], v)
				}
			}
		case *cfg.Alloc:
			if !a.Zero {
				stop[l.ID] = true // malloc: indeterminate contents
			}
		}
	}
	if !uninit {
		return stop, havocs
	}
	for id, unsafe := range uninitLocalReads(p) {
		if unsafe {
			stop[id] = true
		}
	}
	return stop, havocs
}

// truthOnlyRegisters is the set of local registers whose every read
// only compares them with zero: the whole condition of an Assume or a
// check, the operand of !, or one side of == or != whose other side is
// the constant 0 (no cast in between: a narrowing cast could make a
// non-zero value zero). For such a register every non-zero value gives
// every read the same result as 1, so a havoc of it needs only the
// values 0 and 1 (if (__VERIFIER_nondet_int()) ...).
func truthOnlyRegisters(p *cfg.Program) map[*cfg.Var]bool {
	truth := map[*cfg.Var]bool{}
	other := map[*cfg.Var]bool{}
	reg := func(e cfg.Expr) *cfg.Var {
		if r, ok := e.(*cfg.VarRef); ok && r.Var.Mem == nil && r.Var.Scope == cfg.Local {
			return r.Var
		}
		return nil
	}
	isZero := func(e cfg.Expr) bool {
		c, ok := e.(*cfg.Const)
		return ok && c.Value == 0 && c.Type.Kind == cfg.IntType
	}
	var walk func(e cfg.Expr)
	walk = func(e cfg.Expr) {
		switch e := e.(type) {
		case *cfg.VarRef:
			other[e.Var] = true
		case *cfg.Unary:
			if v := reg(e.X); v != nil && e.Op == cfg.Not {
				truth[v] = true
				return
			}
			walk(e.X)
		case *cfg.Binary:
			if e.Op == cfg.Eq || e.Op == cfg.Ne {
				if v := reg(e.X); v != nil && isZero(e.Y) {
					truth[v] = true
					return
				}
				if v := reg(e.Y); v != nil && isZero(e.X) {
					truth[v] = true
					return
				}
			}
			walk(e.X)
			walk(e.Y)
		case *cfg.Cast:
			walk(e.X)
		case *cfg.Deref:
			walk(e.Addr)
		}
	}
	for _, l := range p.Locs {
		reads, dsts, known := actionOperands(l.Act)
		if !known {
			return nil
		}
		for _, e := range reads {
			switch l.Act.(type) {
			case *cfg.Assume, *cfg.CheckAct:
				if v := reg(e); v != nil {
					truth[v] = true // the whole condition
					continue
				}
			}
			walk(e)
		}
		for _, lv := range dsts {
			if d, ok := lv.(*cfg.Deref); ok {
				walk(d.Addr)
			}
		}
	}
	for v := range other {
		delete(truth, v)
	}
	return truth
}

// actionOperands lists the expressions an action reads and the lvalues
// it writes; known is false for an action it does not know.
func actionOperands(a cfg.Action) (reads []cfg.Expr, dsts []cfg.LValue, known bool) {
	switch a := a.(type) {
	case *cfg.Assign:
		return []cfg.Expr{a.Src}, []cfg.LValue{a.Dst}, true
	case *cfg.Assume:
		return []cfg.Expr{a.Cond}, nil, true
	case *cfg.Havoc:
		return nil, []cfg.LValue{a.Dst}, true
	case *cfg.CheckAct:
		return []cfg.Expr{a.Cond}, nil, true
	case *cfg.Acquire:
		return []cfg.Expr{a.Lock}, []cfg.LValue{a.Lock}, true // reads the lock word, then writes it
	case *cfg.Release:
		return nil, []cfg.LValue{a.Lock}, true
	case *cfg.Spawn:
		reads = []cfg.Expr{a.Fn}
		if a.Arg != nil {
			reads = append(reads, a.Arg)
		}
		if a.Handle != nil {
			dsts = []cfg.LValue{a.Handle}
		}
		return reads, dsts, true
	case *cfg.Join:
		return []cfg.Expr{a.Handle}, nil, true
	case *cfg.Alloc:
		return []cfg.Expr{a.Size}, []cfg.LValue{a.Dst}, true
	case *cfg.Output:
		return a.Args, nil, true
	case *cfg.Skip, *cfg.InitGlobals, *cfg.AtomicBegin, *cfg.AtomicEnd:
		return nil, nil, true
	}
	return nil, nil, false
}

// hasFloat reports whether some operand or subexpression has a floating
// type (an Output argument is only printed: it changes no state, but
// printing is harmless either way, so it is not exempted).
func hasFloat[E cfg.Expr](es []E) bool {
	found := false
	for _, e := range es {
		cfg.InspectExpr(e, func(x cfg.Expr) bool {
			found = found || x.ExprType().Kind == cfg.FloatType
			return !found
		})
	}
	return found
}

// directCell returns the cell of a local object that d accesses exactly,
// by the object's address plus a constant offset with the cell's size,
// as seen from a thread of the object's template (the interpreter
// evaluates that address to the running thread's own instance); nil
// otherwise.
func directCell(d *cfg.Deref, at *cfg.Loc) *cfg.Var {
	a, ok := d.Addr.(*cfg.AddrOf)
	if !ok || a.Object == nil || a.Object.Kind != cfg.LocalObject || a.Object.Template != at.Template {
		return nil
	}
	for _, c := range a.Object.Cells {
		if !c.Summary && c.Offset == a.Offset && c.Type.Size() == d.Type.Size() && c.Type.Size() > 0 {
			return c
		}
	}
	return nil
}

// uninitLocalReads marks, by location ID, the locations that may read a
// local object's memory that its thread has not certainly written: every
// read of a local object's bytes (a Deref that may denote one of its
// cells) is safe only when it is a direct read (directCell) of a cell
// that every path from the template's entry writes directly before
// (definitelyWritten). Writes by other threads (through an escaped
// address) only initialize more, so ignoring them is conservative; reads
// by other threads, or through a pointer, are never counted safe.
func uninitLocalReads(p *cfg.Program) []bool {
	out := make([]bool, len(p.Locs))
	hasLocal := false
	for _, o := range p.Objects {
		hasLocal = hasLocal || o.Kind == cfg.LocalObject
	}
	if !hasLocal {
		return out
	}
	written := definitelyWritten(p)
	for _, l := range p.Locs {
		reads, dsts, _ := actionOperands(l.Act)
		check := func(d *cfg.Deref, isRead bool) {
			local := false
			for _, c := range d.Cells {
				local = local || c.Mem != nil && c.Mem.Kind == cfg.LocalObject
			}
			if !local || !isRead {
				return
			}
			if c := directCell(d, l); c == nil || !written[l.ID][c] {
				out[l.ID] = true
			}
		}
		visit := func(isRead bool) func(cfg.Expr) bool {
			return func(e cfg.Expr) bool {
				if d, ok := e.(*cfg.Deref); ok {
					check(d, isRead)
				}
				return true
			}
		}
		for _, e := range reads {
			cfg.InspectExpr(e, visit(true))
		}
		for _, lv := range dsts {
			if d, ok := lv.(*cfg.Deref); ok {
				cfg.InspectExpr(d.Addr, visit(true)) // the address is read; the cell written
				continue
			}
			cfg.InspectExpr(lv, visit(true))
		}
		if a, ok := l.Act.(*cfg.Acquire); ok {
			if d, ok := a.Lock.(*cfg.Deref); ok {
				check(d, true) // the lock word is read before it is written
			}
		}
	}
	return out
}

// definitelyWritten gives, by location ID, the local object cells that
// every path from the entry of the location's template writes directly
// (directCell) before the location's action runs: a forward must
// analysis (intersection over predecessors, from "everything" at every
// location but the entry).
func definitelyWritten(p *cfg.Program) []map[*cfg.Var]bool {
	in := make([]map[*cfg.Var]bool, len(p.Locs)) // nil: not yet reached (top)
	gen := func(l *cfg.Loc) []*cfg.Var {
		_, dsts, _ := actionOperands(l.Act)
		if _, ok := l.Act.(*cfg.Acquire); ok {
			return nil // a lock word is written only when it was read first
		}
		var out []*cfg.Var
		for _, lv := range dsts {
			if d, ok := lv.(*cfg.Deref); ok {
				if c := directCell(d, l); c != nil {
					out = append(out, c)
				}
			}
		}
		return out
	}
	var work []*cfg.Loc
	for _, t := range p.Templates {
		if t.Entry != nil {
			in[t.Entry.ID] = map[*cfg.Var]bool{}
			work = append(work, t.Entry)
		}
	}
	for len(work) > 0 {
		l := work[len(work)-1]
		work = work[:len(work)-1]
		outSet := map[*cfg.Var]bool{}
		for c := range in[l.ID] {
			outSet[c] = true
		}
		for _, c := range gen(l) {
			outSet[c] = true
		}
		for _, s := range l.Succs {
			if s.Template != l.Template || s == s.Template.Entry {
				continue // the entry starts empty
			}
			old := in[s.ID]
			var next map[*cfg.Var]bool
			if old == nil {
				next = outSet
			} else {
				next = map[*cfg.Var]bool{}
				for c := range old {
					if outSet[c] {
						next[c] = true
					}
				}
				if len(next) == len(old) {
					continue
				}
			}
			in[s.ID] = next
			work = append(work, s)
		}
	}
	for i := range in {
		if in[i] == nil {
			in[i] = map[*cfg.Var]bool{} // unreachable in the CFG: nothing certain
		}
	}
	return in
}

// registerCopy returns dst and src of a location that copies one register
// into another (dst := src, both registers, no conversion).
func registerCopy(l *cfg.Loc) (dst, src *cfg.Var, ok bool) {
	a, isAssign := l.Act.(*cfg.Assign)
	if !isAssign {
		return nil, nil, false
	}
	d, dok := a.Dst.(*cfg.VarRef)
	s, sok := a.Src.(*cfg.VarRef)
	if !dok || !sok || d.Var.Mem != nil || s.Var.Mem != nil {
		return nil, nil, false
	}
	return d.Var, s.Var, true
}

// registersThatMatter is the set of registers whose value can reach a
// condition, a check, an address, memory, a spawn, an output or an
// allocation: registersRead, except that a read which only copies a
// register into another counts only when the copy's destination matters
// (least fixpoint). main(argc, argv) havocs a temporary and copies it to
// argc: when argc is never read, no value of it changes any check, branch
// or memory cell — the states differ only in registers nothing reads —
// so its havoc may take one value (proofStops).
func registersThatMatter(p *cfg.Program) map[*cfg.Var]bool {
	out := registersReadExcept(p, func(l *cfg.Loc) bool {
		_, _, ok := registerCopy(l)
		return ok
	})
	for changed := true; changed; {
		changed = false
		for _, l := range p.Locs {
			if d, s, ok := registerCopy(l); ok && out[d] && !out[s] {
				out[s] = true
				changed = true
			}
		}
	}
	return out
}
