package interp

import (
	"go/token"
	"math/rand/v2"
	"strings"

	"chorus/cfg"
)

// Scheduler chooses the next move among the enabled ones (never empty).
// It returns an index into moves; an index out of range stops the run
// (Reason StoppedByScheduler). Schedulers may keep state between calls.
type Scheduler func(s *State, moves []Move) int

// preferring returns the moves that do not wait at a false Assume, or
// all moves when every one waits.
func preferring(moves []Move) []int {
	var idx []int
	for i, mv := range moves {
		if !mv.Waits {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		for i := range moves {
			idx = append(idx, i)
		}
	}
	return idx
}

// FirstEnabled runs the lowest-numbered thread that can move, taking its
// first successor that does not wait: main runs until it blocks or ends,
// then the oldest child, and so on.
func FirstEnabled() Scheduler {
	return func(_ *State, moves []Move) int { return preferring(moves)[0] }
}

// RoundRobin switches thread at every step: it runs the first thread with
// an id greater than the last one run that can move (cyclically).
func RoundRobin() Scheduler {
	last := ThreadID(-1)
	return func(_ *State, moves []Move) int {
		idx := preferring(moves)
		best := idx[0]
		for _, i := range idx {
			if moves[i].Thread > last {
				best = i
				break
			}
		}
		last = moves[best].Thread
		return best
	}
}

// Random picks uniformly among the non-waiting moves with a seeded
// generator: the same seed gives the same run.
func Random(seed uint64) Scheduler {
	// Small consecutive seeds make correlated PCG streams at first; mix
	// them (splitmix64) so seeds 1, 2, 3 give unrelated schedules.
	r := rand.New(rand.NewPCG(splitmix(seed), splitmix(seed^0x9e3779b97f4a7c15)))
	return func(_ *State, moves []Move) int {
		idx := preferring(moves)
		return idx[r.IntN(len(idx))]
	}
}

func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// Phase is one part of a Script: thread Thread runs (its first
// non-waiting move each time) until it has made Steps moves, or, when
// UntilLine > 0, until it stands at a location on that source line (no
// move if it stands there already), or, when both are zero, until it
// cannot move any more. A phase ends early when its thread cannot move
// (or does not exist yet).
type Phase struct {
	Thread    ThreadID
	Steps     int
	UntilLine int
}

// Script follows the phases in order, then falls back to then (nil:
// FirstEnabled). It makes test schedules readable: "run thread 1 up to
// line 12, then thread 2 to the end, then thread 1".
func Script(then Scheduler, phases ...Phase) Scheduler {
	if then == nil {
		then = FirstEnabled()
	}
	cur, done := 0, 0
	return func(s *State, moves []Move) int {
		for cur < len(phases) {
			ph := phases[cur]
			t := s.Thread(ph.Thread)
			finished := t == nil || t.Done ||
				(ph.UntilLine > 0 && t.Loc.Pos.Line == ph.UntilLine) ||
				(ph.UntilLine == 0 && ph.Steps > 0 && done >= ph.Steps)
			if !finished {
				var mine []Move
				var at []int
				for i, mv := range moves {
					if mv.Thread == ph.Thread {
						mine = append(mine, mv)
						at = append(at, i)
					}
				}
				if len(mine) > 0 {
					done++
					return at[preferring(mine)[0]]
				}
			}
			cur, done = cur+1, 0
		}
		return then(s, moves)
	}
}

// Replay follows a recorded schedule (Result.Schedule, Failure.Schedule,
// or an explorer's): at step i it takes the move of steps[i].Thread to
// successor steps[i].Succ, and the returned inputs function gives the
// recorded Havoc values (pass it as RunOptions.Inputs). When the schedule
// is exhausted, or its next move is not enabled, the run stops
// (StoppedByScheduler).
func Replay(steps []Step) (Scheduler, func(ThreadID, *cfg.Loc) int64) {
	i := 0
	sched := func(_ *State, moves []Move) int {
		if i >= len(steps) {
			return -1
		}
		st := steps[i]
		for k, mv := range moves {
			if mv.Thread == st.Thread && mv.Succ == st.Succ {
				i++
				return k
			}
		}
		return -1
	}
	inputs := func(ThreadID, *cfg.Loc) int64 {
		if i == 0 || i > len(steps) {
			return 0
		}
		return steps[i-1].Value // the step the scheduler just chose
	}
	return sched, inputs
}

// RunOptions configure Run.
type RunOptions struct {
	Machine Options
	// MaxSteps bounds the run (default 10 million moves).
	MaxSteps int
	// Inputs gives the value of a Havoc executed by thread th at loc
	// (nil: 0), so that runs are reproducible.
	Inputs func(th ThreadID, loc *cfg.Loc) int64
	// KeepGoing continues after a failed check (the failing thread stops
	// there, as the check's semantics says) instead of ending the run.
	KeepGoing bool
	// KeepSchedule fills Result.Schedule with every move made (failures
	// always get theirs).
	KeepSchedule bool
}

// Reason says why a run ended.
type Reason uint8

const (
	Finished           Reason = iota // every thread terminated
	Deadlock                         // some thread has not terminated and none can move
	StepBudget                       // MaxSteps moves were made
	CheckFailure                     // a check failed (without KeepGoing)
	RuntimeError                     // invalid memory access, division by zero, malformed IR, ...
	StoppedByScheduler               // the scheduler returned no move
	Stuck                            // no thread can move and some stand at a dead end (a location without successors other than their exit: abort, exit, an impossible path)
)

func (r Reason) String() string {
	return [...]string{"finished", "deadlock", "step-budget", "check-failed", "runtime-error", "stopped-by-scheduler", "stuck"}[r]
}

// Step is one executed move of a schedule.
type Step struct {
	Thread ThreadID
	Loc    int // the location the thread stood at (Loc.ID)
	Succ   int
	Value  int64 // the Havoc value, if the action was a Havoc
	Pos    token.Position
}

// Failure is a failed check or a runtime error together with the
// schedule that led to it (the last step is the failing one).
type Failure struct {
	Event    Event
	Schedule []Step
}

// Result is the outcome of Run.
type Result struct {
	Output   string
	Reason   Reason
	Steps    int
	Failures []Failure // failed checks, in order
	Error    *Failure  // the runtime error that ended the run, if any
	Final    *State    // the last state reached
	Schedule []Step    // every move made, with RunOptions.KeepSchedule
	// MainReturned reports that main reached its exit with a return
	// value: ExitStatus is that value modulo 256, as a process would
	// report it. The frontend keeps main's return value in main's local
	// register named "main.ret" (a naming convention, not part of the IR
	// contract).
	MainReturned bool
	ExitStatus   int
}

// Run executes p from its initial state under sched until every thread
// has terminated, nothing can move, a check fails (unless KeepGoing), a
// runtime error happens or the step budget runs out.
func Run(p *cfg.Program, sched Scheduler, opts RunOptions) (Result, error) {
	m, err := New(p, opts.Machine)
	if err != nil {
		return Result{}, err
	}
	s, err := m.Initial()
	if err != nil {
		return Result{}, err
	}
	return m.Run(s, sched, opts), nil
}

// Run executes from s (which it consumes) under sched; see Run.
func (m *Machine) Run(s *State, sched Scheduler, opts RunOptions) Result {
	if sched == nil {
		sched = FirstEnabled()
	}
	if opts.MaxSteps <= 0 {
		opts.MaxSteps = 10_000_000
	}
	var res Result
	var out strings.Builder
	// The moves made so far, compactly (positions come from the
	// locations when a schedule is handed out).
	type move struct {
		thread    ThreadID
		loc, succ int32
		value     int64
	}
	var trace []move
	schedule := func() []Step {
		steps := make([]Step, len(trace))
		for i, mv := range trace {
			steps[i] = Step{Thread: mv.thread, Loc: int(mv.loc), Succ: int(mv.succ), Value: mv.value, Pos: m.Prog.Locs[mv.loc].Pos}
		}
		return steps
	}
	stopped := map[ThreadID]bool{} // threads stuck at a failed check (KeepGoing)
	finish := func(r Reason) Result {
		res.Reason, res.Output, res.Final = r, out.String(), s
		if opts.KeepSchedule {
			res.Schedule = schedule()
		}
		if main := s.Thread(0); main != nil && main.Done {
			for _, v := range m.localVars[main.Template.ID] {
				if v.Name == main.Template.Name+".ret" {
					val, _ := m.Register(s, 0, v)
					res.MainReturned, res.ExitStatus = true, int(mathOf(val, v.Type).low64()&0xFF)
				}
			}
		}
		return res
	}
	for {
		if res.Steps >= opts.MaxSteps {
			return finish(StepBudget)
		}
		moves := m.Enabled(s)
		if len(stopped) > 0 {
			kept := moves[:0]
			for _, mv := range moves {
				if !stopped[mv.Thread] {
					kept = append(kept, mv)
				}
			}
			moves = kept
		}
		if len(moves) == 0 {
			if s.AllDone() {
				return finish(Finished)
			}
			for _, t := range s.Threads {
				if t.Stuck() {
					return finish(Stuck)
				}
			}
			return finish(Deadlock)
		}
		k := sched(s, moves)
		if k < 0 || k >= len(moves) {
			return finish(StoppedByScheduler)
		}
		mv := moves[k]
		loc := s.Threads[mv.Thread].Loc
		if _, ok := loc.Act.(*cfg.Havoc); ok {
			if opts.Inputs != nil {
				mv.Value = opts.Inputs(mv.Thread, loc)
			}
			// Enabled could not look past the Havoc; now that the value
			// is known, take a successor that is not a dead end.
			for i := 0; i < len(loc.Succs) && m.DeadEnd(s, mv); i++ {
				mv.Succ = (mv.Succ + 1) % len(loc.Succs)
			}
		}
		trace = append(trace, move{mv.Thread, int32(loc.ID), int32(mv.Succ), mv.Value})
		res.Steps++
		ev := m.StepInPlace(s, mv) // s is discarded on errors; checks change nothing
		switch ev.Kind {
		case OutputEvent:
			out.WriteString(ev.Text)
		case CheckFailed:
			res.Failures = append(res.Failures, Failure{Event: ev, Schedule: schedule()})
			if !opts.KeepGoing {
				return finish(CheckFailure)
			}
			stopped[mv.Thread] = true
			continue
		case ErrorEvent, Blocked:
			res.Error = &Failure{Event: ev, Schedule: schedule()}
			return finish(RuntimeError)
		}
	}
}
