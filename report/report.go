// Package report is the data model of a chorus check run, apart from the
// analysis: per file, its checks with their status, messages in source
// terms, the invariant at the site, the interfering writes of other threads
// and counterexample schedules. It is what a worker process sends its
// parent, what the result cache stores, and what the output formats
// render (text and JSON in cmd/chorus, SARIF in report/sarif). It also
// owns the rules on top of results that need no analysis: fingerprints,
// ignore comments, summaries.
//
// It imports no analysis package and does no I/O.
package report

import (
	"crypto/sha256"
	"encoding/hex"
	"sort"
)

// Check kinds, as in JSON and text output.
const (
	KindAssert   = "assert"
	KindBounds   = "array-bounds"
	KindOverflow = "signed-overflow"
	KindDivZero  = "div-by-zero"
	KindShift    = "shift-count"
)

// Kinds lists the check kinds in report order.
var Kinds = []string{KindAssert, KindBounds, KindOverflow, KindDivZero, KindShift}

// Statuses of a check.
const (
	Proven      = "proven"
	Unreachable = "unreachable"
	Unproven    = "unproven"
	Violated    = "violated"
)

// Failures of a file (File.Failure).
const (
	// FailInput: the file could not be read, parsed or lowered (exit 2).
	FailInput = "input"
	// FailLimit: the analysis did not finish within its time, memory or
	// round limits; the file is unknown (exit 1).
	FailLimit = "limit"
	// FailCrash: the worker process died (a bug in chorus); unknown.
	FailCrash = "crash"
)

// File is the outcome of one file.
type File struct {
	File string `json:"file"`
	// Entry names the compile command (-p) when the compile database
	// compiles the file more than once: its output file, else "#index".
	Entry   string  `json:"entry,omitempty"`
	Error   string  `json:"error,omitempty"`   // "file:line:col: error: msg" or a reason
	Failure string  `json:"failure,omitempty"` // FailInput, FailLimit or FailCrash when Error is set
	Verdict string  `json:"verdict"`           // safe | unknown | unsafe
	Checks  []Check `json:"checks"`
	Stats   *Stats  `json:"stats,omitempty"`
	// CPUMS is the CPU time (user+system) the file took, in ms; 0 when
	// served from the cache.
	CPUMS int64 `json:"cpu_ms,omitempty"`
	// Cached is set when the result came from the result cache.
	Cached bool `json:"cached,omitempty"`
	// UnusedIgnores are the ignore comments of the file that suppressed
	// nothing (filled by ApplyIgnores).
	UnusedIgnores []Ignore `json:"unused_ignores,omitempty"`
	// Notes are the modelling assumptions the analysis of the file rests
	// on that are stated once each (text output: note: lines): how each
	// unknown external function was modelled, which functions of a
	// library without main were taken as entry points.
	Notes []Note `json:"notes,omitempty"`
}

// Note is one stated modelling assumption.
type Note struct {
	File    string `json:"file"`
	Line    int    `json:"line,omitempty"`
	Column  int    `json:"column,omitempty"`
	Message string `json:"message"`
}

// Check is the verdict on one check site.
type Check struct {
	Kind     string `json:"kind"`
	File     string `json:"file"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	Function string `json:"function"`
	Status   string `json:"status"`
	// Condition is the property in source terms, e.g. "assertion counter
	// >= 0" or "index buf[i] out of bounds: need 0 <= i < 10".
	Condition string `json:"condition,omitempty"`
	// Message is the one-line message of the check: for an unproven check
	// the warning (condition, invariant, a few interfering writes).
	Message string `json:"message"`
	// Invariant is the invariant at the site, in source terms.
	Invariant string `json:"invariant,omitempty"`
	// Writes are the interfering writes of other threads that can reach
	// the site (unproven checks only; at most 50).
	Writes []Write `json:"writes,omitempty"`
	// Schedule is a violated check's counterexample.
	Schedule []Step `json:"schedule,omitempty"`
	// Proof says how a proven check was proven when it was not by the
	// thread-modular analysis: "exploration: N states, K threads" for an
	// exhaustive exploration of a finite-state program (confirm.Prove).
	Proof string `json:"proof,omitempty"`
	// Fingerprint identifies the check across line shifts (Fingerprints).
	Fingerprint string `json:"fingerprint,omitempty"`
	// Suppressed is set when an ignore comment suppresses the check.
	Suppressed *Ignore `json:"suppressed,omitempty"`
	// Notes are extra lines printed after the check's warning in text
	// output (e.g. an explanation of the check), each ending in "\n".
	Notes string `json:"notes,omitempty"`
	// InBaseline is set when the check is open but its fingerprint is in
	// the baseline (--baseline): it is not new, and not reported.
	InBaseline bool `json:"in_baseline,omitempty"`
}

// Write is an interfering write of another thread.
type Write struct {
	File     string `json:"file"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	Variable string `json:"variable"`
	Value    string `json:"value,omitempty"` // the written value's interval, when known
}

// Step is one step of a counterexample schedule.
type Step struct {
	Thread int    `json:"thread"`
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
	Value  *int64 `json:"value,omitempty"` // the nondeterministic value chosen, for a havoc step
}

// Stats are the analysis statistics of a file.
type Stats struct {
	Locations         int    `json:"locations"`
	GamePositions     int    `json:"game_positions"`
	Rounds            int    `json:"rounds"`
	InterferenceEdges int    `json:"interference_edges"`
	MS                int64  `json:"ms"`
	Game              string `json:"game,omitempty"`
}

// Failing reports whether the check is unproven or violated.
func (c *Check) Failing() bool { return c.Status == Unproven || c.Status == Violated }

// Open reports whether the check needs attention: failing, not
// suppressed, not in the baseline.
func (c *Check) Open() bool { return c.Failing() && c.Suppressed == nil && !c.InBaseline }

// Fingerprints sets Check.Fingerprint on every check of f. A fingerprint
// hashes the kind, the file, the function, the condition in source terms
// and the rank of the check among those with the same four (in position
// order): it survives lines moving, and tells apart the same condition
// twice in one function.
func Fingerprints(f *File) {
	type key struct{ kind, file, fn, cond string }
	order := make([]int, len(f.Checks))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		x, y := &f.Checks[order[a]], &f.Checks[order[b]]
		if x.Line != y.Line {
			return x.Line < y.Line
		}
		return x.Column < y.Column
	})
	rank := map[key]int{}
	for _, i := range order {
		c := &f.Checks[i]
		k := key{c.Kind, c.File, c.Function, c.Condition}
		n := rank[k]
		rank[k] = n + 1
		h := sha256.New()
		for _, s := range []string{"v1", k.kind, k.file, k.fn, k.cond} {
			h.Write([]byte(s))
			h.Write([]byte{0})
		}
		h.Write([]byte{byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)})
		c.Fingerprint = hex.EncodeToString(h.Sum(nil))[:32]
	}
}

// Verdict is a file's verdict from its checks: "safe" when no check is
// unproven or violated (suppressed ones included), "unsafe" when one is
// violated, else "unknown". A file with an error is "unknown".
func Verdict(f *File) string {
	if f.Error != "" {
		return "unknown"
	}
	v := "safe"
	for _, c := range f.Checks {
		switch c.Status {
		case Violated:
			return "unsafe"
		case Unproven:
			v = "unknown"
		}
	}
	return v
}

// SortFiles orders files by name (and keeps the order of equal names), so
// that output does not depend on the order the workers finished in.
func SortFiles(files []File) {
	sort.SliceStable(files, func(i, j int) bool {
		if files[i].File != files[j].File {
			return files[i].File < files[j].File
		}
		return files[i].Entry < files[j].Entry
	})
}
