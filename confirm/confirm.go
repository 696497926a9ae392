// Package confirm turns unproven checks into confirmed bugs: it runs the
// exhaustive interleaving explorer (package explore) on the program with
// a few instances per thread template and small havoc ranges, and
// returns, for each check that fails in some explored execution, a
// counterexample schedule. It is the counterexample feature of Threader
// and CoMuS (DESIGN.md §6: a bounded bug finder).
//
// It owns confirm/ only, does no I/O and prints nothing. ReplayC renders
// a counterexample as a standalone C program (replayc.go).
//
// # Soundness of a reported violation
//
// A counterexample is a concrete execution of the IR under the reference
// semantics (cfg/interp): every step is enabled, and every havoc takes one
// value of its type, so the failing check really fails for those inputs.
// Bounding the instances only removes executions (a spawn beyond the
// bound blocks), so nothing spurious is added. Two things can still make
// an IR execution differ from a C execution, and Confirm refuses them:
//
//   - the frontend's modelling assumptions (cfg.Program.Assumptions:
//     unknown external functions havocked, recursion summarized): those
//     havocs over-approximate, so no explored execution runs them. The
//     frontend lowers the call an assumption is about to locations at
//     the assumption's position (the call's); every location there is
//     forbidden (explore.Options.Forbidden): a thread reaching one waits
//     for good, so the executions explored never make the call and are
//     faithful. One exception: an output function (printf, fprintf,
//     puts, ... : the frontend's "assumed to write no memory the program
//     reads") really writes no program memory, so its call is faithful
//     as long as its havocked result is never read (no location reads
//     the register); such calls stay allowed (a bug path often prints
//     "Bug found!" first). When some assumption has no location at its position
//     (inline assembly, dropped), there is nothing to fence off and the
//     program yields no counterexample at all (ErrAssumptions);
//   - havocs that are not inputs: the frontend havocs the result of an
//     output function (printf returns a count it does not track) and the
//     exit value pthread_join stores; such a havoc is forbidden too when
//     its value can be read. The other havocs are __VERIFIER_nondet_*
//     inputs (and main's argc and argv: any value, a documented
//     simplification).
//   - thread-local globals (_Thread_local, __thread): the interpreter
//     gives each thread its copy of a thread-local register; a
//     thread-local object (its address taken, or an aggregate) has one
//     instance for all threads, so such a program yields no
//     counterexample (ErrAssumptions);
//   - abort() and exit() end the whole program in C but only the calling
//     thread in the IR: see doomedLocs;
//   - runtime errors of the interpreter end a path; they are not checks
//     and are never reported as violations.
//
// A depth-first search gets the first fifth of the budget (deep failures:
// long loops, many spawns). In it threads start lazily
// (interp.Options.LazyStart): k bounds the threads of a template running
// at the same time (up to 1000 spawns per template), and pending threads
// with the same template and argument are interchangeable. Then
// breadth-first rounds (shortest schedules), in which a template has at
// most k threads spawned, run in rounds of growing cost — for 1, 2, ..., k instances
// per template, havoc values in [0, 1], [-1, 1], [0, 3] and [-2, 2] —
// each round with an equal share of the time left, and stops as soon as every
// requested check has a counterexample. A round that would explore the
// same states as one before is skipped: the other havoc ranges when a
// complete search ran no havoc, more instances when every search at this
// bound was complete and no spawn ever waited for an instance. An
// exhausted budget just means fewer confirmations.
package confirm

import (
	"context"
	"errors"
	"fmt"
	"go/token"
	"strings"
	"time"

	"chorus/cfg"
	"chorus/cfg/interp"
	"chorus/explore"
)

// Budget bounds the exploration of one program.
type Budget struct {
	// MaxStates bounds each exploration round (default 200000).
	MaxStates int
	// Timeout bounds all rounds together (default 10s).
	Timeout time.Duration
}

// Step is one move of a counterexample: which thread ran which location.
type Step struct {
	Thread int
	Pos    token.Position
	Loc    *cfg.Loc
	// Value is the value a havoc produced (meaningful when Havoc).
	Value int64
	Havoc bool
}

// Counterexample is a schedule ending with the failing check's step.
type Counterexample struct {
	Check    *cfg.Check
	Schedule []Step
	// Instances and HavocMin..HavocMax are the exploration bounds that
	// found it.
	Instances          int
	HavocMin, HavocMax int64
	// Solved reports that the input values were solved for (Z3) on a
	// schedule reaching the check, rather than found by enumeration.
	Solved bool
}

// ErrAssumptions is returned when the program's lowering made a modelling
// assumption that cannot be fenced off (no location at its position).
var ErrAssumptions = errors.New("confirm: the program relies on modelling assumptions (unknown functions or summarized calls); counterexamples would not be trustworthy")

type round struct {
	k      int
	lo, hi int64
}

// Confirm explores p and returns a counterexample for each of checks
// that it finds failing. It stops early when ctx is done.
func Confirm(ctx context.Context, p *cfg.Program, checks []*cfg.Check, k int, b Budget) (map[*cfg.Check]*Counterexample, error) {
	out := map[*cfg.Check]*Counterexample{}
	if len(checks) == 0 {
		return out, nil
	}
	forbidden, ok := untrustedLocs(p)
	if !ok {
		return out, ErrAssumptions
	}
	doomed := doomedLocs(p)
	if k <= 0 {
		k = 1
	}
	if b.MaxStates <= 0 {
		b.MaxStates = 200_000
	}
	if b.Timeout <= 0 {
		b.Timeout = 10 * time.Second
	}
	deadline := time.Now().Add(b.Timeout)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	foundNow := map[*cfg.Check]bool{}
	tried := map[*cfg.Check]bool{} // solveTowards ran for it (once per call: Z3 costs)
	want := map[*cfg.Check]bool{}
	for _, c := range checks {
		want[c] = true
	}
	var replayErr error
	stop := func(explore.Failure) bool {
		// ends a search once every wanted check has a failure (in this
		// search or an earlier one)
		for c := range want {
			if out[c] == nil && !foundNow[c] {
				return false
			}
		}
		return true
	}
	explore1 := func(dfs bool, i int, r round, share time.Duration) (*explore.Result, error) {
		clear(foundNow)
		// The depth-first round starts threads lazily (up to lazySpawns
		// spawns per template); the breadth-first rounds spawn eagerly:
		// a loop spawning for ever would give them ever larger states.
		opts := explore.Options{MaxInstances: i, HavocMin: r.lo, HavocMax: r.hi, DepthFirst: dfs,
			MaxStates: b.MaxStates, Timeout: share, Reduce: true, ForgetDead: true, Forbidden: forbidden, Exclusive: doomed,
			LazyStart: dfs, MaxSpawns: lazySpawns, Reached: true,
			Stop: func(f explore.Failure) bool { foundNow[f.Event.Check] = true; return stop(f) }}
		res, err := Explore(p, opts)
		if err != nil {
			return nil, err
		}
		for _, f := range res.Failures {
			c := f.Event.Check
			if !want[c] || out[c] != nil {
				continue
			}
			if err := replay(p, f.Schedule, c, forbidden, doomed, i, dfs); err != nil {
				replayErr = errors.Join(replayErr, fmt.Errorf("confirm: the schedule of %v does not replay: %v", c.Pos, err))
				continue
			}
			out[c] = &Counterexample{Check: c, Schedule: steps(p, f.Schedule), Instances: i, HavocMin: r.lo, HavocMax: r.hi}
		}
		// Checks not failed: from the reached location nearest to the
		// check, solve for inputs that lead there and fail it
		// (concolic.go); report only what replays.
		for _, c := range checks {
			if out[c] != nil || tried[c] || c.Loc == nil || time.Now().After(deadline) {
				continue
			}
			tried[c] = true
			dist := distTo(p, c.Loc)
			best := -1
			for _, l := range p.Locs {
				if dist[l.ID] >= 0 && (best < 0 || dist[l.ID] < dist[best]) {
					if _, _, ok := res.ReachedAt(l); ok {
						best = l.ID
					}
				}
			}
			if best < 0 {
				continue
			}
			prefix, thread, _ := res.ReachedAt(p.Locs[best])
			solved, ok := solveTowards(p, prefix, thread, c, dist, i, dfs, deadline)
			if !ok || replay(p, solved, c, forbidden, doomed, i, dfs) != nil {
				continue
			}
			out[c] = &Counterexample{Check: c, Schedule: steps(p, solved), Instances: i, HavocMin: r.lo, HavocMax: r.hi, Solved: true}
		}
		return res, nil
	}
	// First a depth-first search with k instances and a fifth of the
	// time: it reaches failures deep in large state spaces (many
	// spawns, long loops) that the breadth-first rounds would not get to.
	ranges := []round{{0, 0, 1}, {0, -1, 1}, {0, 0, 3}, {0, -2, 2}}
	if _, err := explore1(true, k, ranges[0], time.Until(deadline)/5); err != nil {
		return out, err
	}
	total := k * len(ranges) // rounds not yet run or skipped
	for i := 1; i <= k; i++ {
		bounded := false
		for j, r := range ranges {
			left := time.Until(deadline)
			if left <= 0 || ctx.Err() != nil || len(out) == len(want) {
				return out, replayErr
			}
			// Each remaining round gets an equal share of the time left, so
			// one exploding round (a loop over a large havoc value) does not
			// starve the others.
			share := left / time.Duration(total)
			total--
			res, err := explore1(false, i, r, share)
			if err != nil {
				return out, err
			}
			bounded = bounded || res.Bounded || !res.Complete
			if res.Complete && res.Havocs == 0 {
				// No input was read: the other ranges explore the same
				// states.
				total -= len(ranges) - 1 - j
				break
			}
		}
		if !bounded {
			// No spawn waited for an instance (and every search was
			// complete): more instances explore the same states.
			break
		}
	}
	return out, replayErr
}

// lazySpawns bounds the spawns per template of the depth-first round.
const lazySpawns = 1000

// machineOptions are the interpreter options of a round: k instances
// spawned eagerly, or k running threads started lazily.
func machineOptions(k int, lazy bool) interp.Options {
	if lazy {
		return interp.Options{MaxInstances: k, LazyStart: true, MaxSpawns: lazySpawns}
	}
	return interp.Options{MaxInstances: k}
}

// replay runs sched in the reference interpreter alone (no explorer, no
// patched program) and checks that it is an execution that the fences
// allow — no step runs a forbidden location, no thread moves while
// another stands at a doomed one — and that its last step fails check.
// Confirm reports only schedules that replay.
func replay(p *cfg.Program, sched []interp.Step, check *cfg.Check, forbidden, doomed []bool, k int, lazy bool) error {
	follow, inputs := interp.Replay(sched)
	i := 0
	var bad error
	scheduler := func(s *interp.State, moves []interp.Move) int {
		if i < len(sched) {
			st := sched[i]
			if t := s.Thread(st.Thread); t != nil {
				if forbidden != nil && forbidden[t.Loc.ID] {
					bad = fmt.Errorf("step %d runs the fenced-off location %v", i, t.Loc.Pos)
					return -1
				}
			}
			if doomed != nil {
				for _, u := range s.Threads {
					if u.ID != st.Thread && !u.Done && doomed[u.Loc.ID] {
						bad = fmt.Errorf("step %d moves thread %d while thread %d is bound for abort or exit", i, st.Thread, u.ID)
						return -1
					}
				}
			}
		}
		i++
		return follow(s, moves)
	}
	run, err := interp.Run(p, scheduler, interp.RunOptions{Inputs: inputs, Machine: machineOptions(k, lazy)})
	if err != nil {
		return err
	}
	if bad != nil {
		return bad
	}
	if run.Reason != interp.CheckFailure || len(run.Failures) == 0 || run.Failures[0].Event.Check != check || run.Steps != len(sched) {
		return fmt.Errorf("the run ends with %v after %d of %d steps", run.Reason, run.Steps, len(sched))
	}
	return nil
}

// untrustedLocs marks the locations no explored execution may run: those
// at the positions of p's modelling assumptions (see the package
// comment), and havocs that stand for values the IR does not track
// rather than for inputs — the result of an output function (a havoc at
// the position of an Output) when some location reads it, and the exit
// value pthread_join stores (a havoc of memory at the position of a
// Join). ok is false when some assumption has no location at its
// position. The result is nil when nothing is marked.
func untrustedLocs(p *cfg.Program) ([]bool, bool) {
	for _, o := range p.Objects {
		if o.ThreadLocal {
			return nil, false // one instance for all threads: not C
		}
	}
	if len(p.SharedThreadLocals) > 0 {
		return nil, false // the same for registers
	}
	type key struct {
		file      string
		line, col int
	}
	keyOf := func(pos token.Position) key { return key{pos.Filename, pos.Line, pos.Column} }
	at := map[key]bool{}
	output := map[key]bool{}
	for _, a := range p.Assumptions {
		k := keyOf(a.Pos)
		name, rest, _ := strings.Cut(a.Msg, ": ")
		ok := outputFuncs[name] && rest == "assumed to write no memory the program reads"
		if seen, dup := output[k]; dup {
			ok = ok && seen // another assumption at the same position
		}
		at[k], output[k] = false, ok
	}
	untracked := map[key]bool{} // positions of Output and Join locations
	for _, l := range p.Locs {
		switch l.Act.(type) {
		case *cfg.Output, *cfg.Join:
			untracked[keyOf(l.Pos)] = true
		}
	}
	var read map[*cfg.Var]bool
	readReg := func(lv cfg.LValue) bool {
		r, ok := lv.(*cfg.VarRef)
		if !ok || r.Var.Mem != nil {
			return true // memory: someone may read it
		}
		if read == nil {
			read = registersRead(p)
		}
		return read[r.Var]
	}
	var forbidden []bool
	mark := func(l *cfg.Loc) {
		if forbidden == nil {
			forbidden = make([]bool, len(p.Locs))
		}
		forbidden[l.ID] = true
	}
	for _, l := range p.Locs {
		k := keyOf(l.Pos)
		h, isHavoc := l.Act.(*cfg.Havoc)
		if _, ok := at[k]; ok {
			at[k] = true
			_, isSkip := l.Act.(*cfg.Skip)
			if !output[k] || !isSkip && !(isHavoc && !readReg(h.Dst)) {
				mark(l)
			}
			continue
		}
		if isHavoc && untracked[k] && readReg(h.Dst) {
			mark(l)
		}
	}
	for _, found := range at {
		if !found {
			return nil, false
		}
	}
	return forbidden, true
}

// doomedLocs marks the locations from which a thread can only go on to
// abort() or exit() (the frontend lowers them to an Assume of false
// without successors) by moves that read and write only its own
// registers (no check on the way). In C such a call ends the whole
// program; the IR lets the other threads go on (an over-approximation
// the analysis may make, see cfg), so an explored execution in which
// another thread moves while one stands at such a location may not be a
// C execution — or only one in which the thread is preempted between
// its last shared access and the call, which SV-COMP's semantics (and
// its expected verdicts) exclude. The explorer lets a thread standing
// there move alone (explore.Options.Exclusive): it runs to the call,
// and the execution ends there.
func doomedLocs(p *cfg.Program) []bool {
	doomed := make([]bool, len(p.Locs))
	any := false
	for _, l := range p.Locs {
		if a, ok := l.Act.(*cfg.Assume); ok && len(l.Succs) == 0 {
			if c, ok := a.Cond.(*cfg.Const); ok && c.Value == 0 {
				doomed[l.ID] = true
				any = true
			}
		}
	}
	if !any {
		return nil
	}
	for changed := true; changed; {
		changed = false
		for _, l := range p.Locs {
			if doomed[l.ID] || len(l.Succs) == 0 || !localOnly(l.Act) {
				continue
			}
			all := true
			for _, s := range l.Succs {
				all = all && doomed[s.ID]
			}
			if all {
				doomed[l.ID] = true
				changed = true
			}
		}
	}
	return doomed
}

// localOnly reports whether a reads and writes only registers of the
// thread running it and checks nothing.
func localOnly(a cfg.Action) bool {
	switch a := a.(type) {
	case *cfg.Skip:
		return true
	case *cfg.Assume:
		return explore.LocalExpr(a.Cond)
	case *cfg.Assign:
		return explore.LocalRegister(a.Dst) && explore.LocalExpr(a.Src)
	}
	return false
}

// outputFuncs are the external functions the frontend assumes pure that
// write no program memory in C either.
var outputFuncs = map[string]bool{
	"printf": true, "fprintf": true, "puts": true, "putchar": true, "perror": true,
	"vprintf": true, "vfprintf": true, "fflush": true, "fputs": true, "fputc": true, "putc": true,
}

// registersRead is the set of registers some location of p reads.
func registersRead(p *cfg.Program) map[*cfg.Var]bool { return registersReadExcept(p, nil) }

// registersReadExcept is registersRead over the locations skip does not
// name (skip nil: all).
func registersReadExcept(p *cfg.Program, skip func(*cfg.Loc) bool) map[*cfg.Var]bool {
	out := map[*cfg.Var]bool{}
	mark := func(e cfg.Expr) bool {
		if r, ok := e.(*cfg.VarRef); ok {
			out[r.Var] = true
		}
		return true
	}
	for _, l := range p.Locs {
		if skip != nil && skip(l) {
			continue
		}
		reads, dsts, known := actionOperands(l.Act)
		if !known {
			// An action this walk does not know: treat every register as read.
			for _, v := range p.Vars {
				out[v] = true
			}
			continue
		}
		if r, ok := l.Act.(*cfg.Release); ok {
			reads = append(reads, r.Lock) // the lock word counts as read
		}
		for _, e := range reads {
			cfg.InspectExpr(e, mark)
		}
		for _, lv := range dsts {
			if d, ok := lv.(*cfg.Deref); ok {
				cfg.InspectExpr(d.Addr, mark)
			}
		}
	}
	return out
}

func steps(p *cfg.Program, sched []interp.Step) []Step {
	out := make([]Step, len(sched))
	for i, s := range sched {
		st := Step{Thread: int(s.Thread), Pos: s.Pos, Value: s.Value}
		if s.Loc >= 0 && s.Loc < len(p.Locs) {
			st.Loc = p.Locs[s.Loc]
			_, st.Havoc = st.Loc.Act.(*cfg.Havoc)
		}
		out[i] = st
	}
	return out
}

// Explore runs the explorer on p after two adjustments that make the
// reference interpreter follow the program model (DESIGN.md §2); both are
// undone before it returns, so p is unchanged afterwards (the result's
// ReachedAt makes them again while it replays a path, so p must not be
// used concurrently with it):
//
//   - a location without successors other than its template's Exit (the
//     end of a failed __VERIFIER_assume, abort(), reach_error()'s check)
//     is a place where the thread stays for good; the interpreter instead
//     treats any location without successors as the thread's end: it
//     never runs its action (a check there could not fail) and lets other
//     threads run even inside an atomic section. Such a location gets
//     itself as its successor for the exploration: its action runs (a
//     check is checked), and the thread then stands there for ever,
//     blocking others if it is inside an atomic section. Repeating the
//     action reaches the same state, which the explorer deduplicates;
//   - the frontend always creates the summary object <unknown> with
//     unknown size, which the interpreter refuses; it gets size 0, so an
//     access to it is a runtime error, which ends the path and is never
//     reported as a violation.
func Explore(p *cfg.Program, opts explore.Options) (*explore.Result, error) {
	undo := patchForExplore(p)
	defer undo()
	res, err := explore.Explore(p, opts)
	if res != nil && res.ReachedAt != nil {
		// ReachedAt replays a stored path in the explorer (its forced
		// moves included), which must see the program it explored: with
		// the stuck locations unpatched, a thread standing at one would
		// move differently and the path would not replay.
		reachedAt := res.ReachedAt
		res.ReachedAt = func(loc *cfg.Loc) ([]interp.Step, interp.ThreadID, bool) {
			undo := patchForExplore(p)
			defer undo()
			return reachedAt(loc)
		}
	}
	return res, err
}

// patchForExplore makes the two adjustments of Explore to p and returns
// the function that undoes them.
func patchForExplore(p *cfg.Program) (undo func()) {
	var patched []*cfg.Object
	for _, o := range p.Objects {
		if o.Size < 0 && (o.Kind == cfg.GlobalObject || o.Kind == cfg.StringObject) {
			o.Size = 0
			patched = append(patched, o)
		}
	}
	var looped []*cfg.Loc
	for _, l := range p.Locs {
		if len(l.Succs) == 0 && l != l.Template.Exit {
			l.Succs = []*cfg.Loc{l}
			l.Preds = append(l.Preds, l)
			looped = append(looped, l)
		}
	}
	return func() {
		for _, o := range patched {
			o.Size = -1
		}
		for _, l := range looped {
			l.Succs = nil
			l.Preds = l.Preds[:len(l.Preds)-1]
		}
	}
}
