// Package confirm turns unproven checks into confirmed bugs: it runs the
// exhaustive interleaving explorer (package explore) on the program with
// a few instances per thread template and small havoc ranges, and
// returns, for each check that fails in some explored execution, a
// counterexample schedule. It is the counterexample feature of Threader
// and CoMuS (DESIGN.md §6: a bounded bug finder).
//
// It owns confirm/ only, does no I/O and prints nothing.
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
//     havocs over-approximate, so a program with any assumption yields
//     no counterexample at all (ErrAssumptions);
//   - runtime errors of the interpreter end a path; they are not checks
//     and are never reported as violations.
//
// Confirm explores in rounds of growing cost — for 1, 2, ..., k instances
// per template, havoc values in [0, 1], [-1, 1], [0, 3] and [-2, 2] —
// each round with an equal share of the time left, and stops as soon as every
// requested check has a counterexample. An exhausted budget just means
// fewer confirmations.
package confirm

import (
	"context"
	"errors"
	"go/token"
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
}

// ErrAssumptions is returned when the program's lowering made modelling
// assumptions, under which an IR execution may not be a C execution.
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
	if len(p.Assumptions) > 0 {
		return out, ErrAssumptions
	}
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
	want := map[*cfg.Check]bool{}
	for _, c := range checks {
		want[c] = true
	}
	var rounds []round
	for i := 1; i <= k; i++ {
		rounds = append(rounds, round{i, 0, 1}, round{i, -1, 1}, round{i, 0, 3}, round{i, -2, 2})
	}
	for i, r := range rounds {
		left := time.Until(deadline)
		if left <= 0 || ctx.Err() != nil || len(out) == len(want) {
			break
		}
		// Each remaining round gets an equal share of the time left, so
		// one exploding round (a loop over a large havoc value) does not
		// starve the others.
		share := left / time.Duration(len(rounds)-i)
		res, err := Explore(p, explore.Options{MaxInstances: r.k, HavocMin: r.lo, HavocMax: r.hi,
			MaxStates: b.MaxStates, Timeout: share, Reduce: true, ForgetDead: true})
		if err != nil {
			return out, err
		}
		for _, f := range res.Failures {
			c := f.Event.Check
			if !want[c] || out[c] != nil {
				continue
			}
			out[c] = &Counterexample{Check: c, Schedule: steps(p, f.Schedule), Instances: r.k, HavocMin: r.lo, HavocMax: r.hi}
		}
	}
	return out, nil
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
// undone before it returns, so p is unchanged afterwards:
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
	defer func() {
		for _, o := range patched {
			o.Size = -1
		}
		for _, l := range looped {
			l.Succs = nil
			l.Preds = l.Preds[:len(l.Preds)-1]
		}
	}()
	return explore.Explore(p, opts)
}
