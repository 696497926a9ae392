package main

// The --confirm K option of chorus check: for each unproven check, run
// the bounded explorer (package confirm) with up to K instances per
// thread template; a check it sees failing is reported "violated" with
// the schedule, and the file's verdict becomes "unsafe" (exit status 1).
//
// The exploration runs the program as written: the analysed program with
// the actions the analysis rewrote in place (condition-load fusion) put
// back as lowered (loweredActions, exploreproof.go). Checks are matched by
// ID.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"chorus/analysis"
	"chorus/cfg"
	"chorus/confirm"
)

// confirmBudget bounds the exploration per file when neither
// --confirm-timeout nor --timeout is given.
const confirmBudget = 20 * time.Second

// confirmBudgetFor is the time --confirm gets for a file: --confirm-timeout
// when given, else 20 s, or half of --timeout when that is set; never more
// than what --timeout leaves after the analysis (elapsed), so that the
// file does not run out because of the confirmation. It is 0 (no
// confirmation) when nothing is left.
func confirmBudgetFor(flag, timeout, elapsed time.Duration) time.Duration {
	b := flag
	if b <= 0 {
		b = confirmBudget
		if timeout > 0 {
			b = timeout / 2
		}
	}
	if timeout > 0 {
		b = min(b, timeout-elapsed)
	}
	return max(b, 0)
}

// scheduleStepJSON is one step of a violated check's schedule in JSON.
type scheduleStepJSON struct {
	Thread int    `json:"thread"`
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
	Value  *int64 `json:"value,omitempty"` // the nondeterministic value chosen, for a havoc step
}

// confirmUnproven explores the file for res's unproven checks and returns
// the counterexamples by check ID (nil when k <= 0 or nothing is
// unproven). An error means no confirmation was attempted or finished;
// the checks then stay unproven.
//
// build returns the unit's program as lowered (loweredActions.asLowered:
// one file, or the members of a --link program).
//
// With replayDir, each counterexample is also written there as a C
// program (confirm.ReplayC) named after the check's file, line and
// column; a program that cannot be rendered is skipped.
func confirmUnproven(k int, build func() (*cfg.Program, error), res *analysis.Result, budget time.Duration, replayDir string) (map[int]*confirm.Counterexample, error) {
	if k <= 0 || res == nil || budget <= 0 {
		return nil, nil
	}
	var ids []int
	for _, c := range res.Checks {
		if c.Status == analysis.Unproven {
			ids = append(ids, c.Check.ID)
		}
	}
	if len(ids) == 0 {
		return nil, nil
	}
	p, err := build() // as lowered, every member of a linked unit
	if err != nil {
		return nil, err
	}
	var checks []*cfg.Check
	for _, id := range ids {
		if id < len(p.Checks) {
			checks = append(checks, p.Checks[id])
		}
	}
	found, err := confirm.Confirm(context.Background(), p, checks, k, confirm.Budget{Timeout: budget})
	out := map[int]*confirm.Counterexample{}
	for c, cex := range found {
		out[c.ID] = cex
		if replayDir != "" {
			if code, rerr := confirm.ReplayC(p, cex); rerr == nil {
				name := fmt.Sprintf("%s.%d.%d.c", filepath.Base(c.Pos.Filename), c.Pos.Line, c.Pos.Column)
				if werr := os.MkdirAll(replayDir, 0o755); werr == nil {
					os.WriteFile(filepath.Join(replayDir, name), code, 0o644)
				}
			}
		}
	}
	return out, err
}

// violatedText is the text line of a violated check.
func violatedText(c analysis.CheckResult, cex *confirm.Counterexample) string {
	msg := c.Check.Msg
	if msg == "" {
		msg = c.Check.Kind.String() + " check"
	}
	p := c.Check.Pos
	return fmt.Sprintf("%s:%d:%d: error: %s [%s] (violated; schedule: %s)", p.Filename, p.Line, p.Column, msg, c.Check.Kind, scheduleText(cex))
}

// scheduleText renders a schedule as "T0 file.c:12:3, T1 file.c:20:5 (=1), ...".
func scheduleText(cex *confirm.Counterexample) string {
	parts := make([]string, len(cex.Schedule))
	for i, s := range cex.Schedule {
		parts[i] = fmt.Sprintf("T%d %s:%d:%d", s.Thread, filepath.Base(s.Pos.Filename), s.Pos.Line, s.Pos.Column)
		if s.Havoc {
			parts[i] += fmt.Sprintf(" (=%d)", s.Value)
		}
	}
	return strings.Join(parts, ", ")
}

// scheduleJSON is the schedule of a violated check in JSON.
func scheduleJSON(cex *confirm.Counterexample) []scheduleStepJSON {
	out := make([]scheduleStepJSON, len(cex.Schedule))
	for i, s := range cex.Schedule {
		out[i] = scheduleStepJSON{Thread: s.Thread, File: s.Pos.Filename, Line: s.Pos.Line, Column: s.Pos.Column}
		if s.Havoc {
			v := s.Value
			out[i].Value = &v
		}
	}
	return out
}
