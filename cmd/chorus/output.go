package main

// The text and JSON reports of chorus check, and the summary table, from
// the reports of the files (package report); SARIF is in report/sarif.

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"chorus/report"
)

// checkJSON is the JSON report (version 1; fields are only ever added).
type checkJSON struct {
	Version       int           `json:"version"`
	ChorusVersion string        `json:"chorus_version"`
	Files         []report.File `json:"files"`
}

func writeReportJSON(w io.Writer, files []report.File) error {
	doc := checkJSON{Version: 1, ChorusVersion: chorusVersion(), Files: files}
	if doc.Files == nil {
		doc.Files = []report.File{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

// writeFileErrors writes each file's error to stderr.
func writeFileErrors(stderr io.Writer, files []report.File) {
	for _, f := range files {
		if f.Error != "" {
			fmt.Fprintln(stderr, f.Error)
		}
	}
}

// writeReportText writes one line per open check, "file:line:col:
// warning: message [kind]" (or "error: ... (violated; schedule: ...)"),
// file errors to stderr, then the summary line "N checks: P proven, U
// unreachable, W unproven" (", S suppressed" and ", B in the baseline"
// when there are any).
func writeReportText(w, stderr io.Writer, files []report.File, strictIgnores bool) error {
	var n, proven, unreach, open, suppressed, inBaseline int
	bw := &errWriter{w: w}
	for _, f := range files {
		if f.Error != "" {
			fmt.Fprintln(stderr, f.Error)
		}
		for _, nt := range f.Notes {
			switch {
			case nt.Line > 0:
				fmt.Fprintf(bw, "%s:%d:%d: note: %s\n", nt.File, nt.Line, nt.Column, nt.Message)
			default:
				fmt.Fprintf(bw, "%s: note: %s\n", nt.File, nt.Message)
			}
		}
		for _, c := range f.Checks {
			n++
			switch {
			case c.Status == report.Proven:
				proven++
			case c.Status == report.Unreachable:
				unreach++
			case c.Suppressed != nil:
				suppressed++
			case c.InBaseline:
				inBaseline++
			default:
				open++
				entry := ""
				if f.Entry != "" {
					entry = " (compile command " + f.Entry + ")" // -p: the file is compiled more than once
				}
				if c.Status == report.Violated {
					fmt.Fprintf(bw, "%s:%d:%d: error: %s [%s] (violated; schedule: %s)%s\n", c.File, c.Line, c.Column, violatedCondition(c), c.Kind, stepsText(c.Schedule), entry)
				} else {
					fmt.Fprintf(bw, "%s:%d:%d: warning: %s [%s]%s\n", c.File, c.Line, c.Column, c.Message, c.Kind, entry)
				}
				fmt.Fprint(bw, c.Notes)
			}
		}
		if strictIgnores {
			for _, ig := range f.UnusedIgnores {
				fmt.Fprintf(bw, "%s:%d:1: warning: chorus:ignore[%s] suppresses nothing [unused-ignore]\n", ig.File, ig.Line, strings.Join(append(append([]string(nil), ig.Kinds...), ig.Bad...), ","))
			}
		}
	}
	fmt.Fprintf(bw, "%d checks: %d proven, %d unreachable, %d unproven", n, proven, unreach, open)
	if suppressed > 0 {
		fmt.Fprintf(bw, ", %d suppressed", suppressed)
	}
	if inBaseline > 0 {
		fmt.Fprintf(bw, ", %d in the baseline", inBaseline)
	}
	fmt.Fprintln(bw)
	return bw.err
}

func violatedCondition(c report.Check) string {
	if c.Condition != "" {
		return c.Condition
	}
	return c.Kind + " check"
}

// stepsText renders a schedule as "T0 file.c:12:3, T1 file.c:20:5 (=1), ...".
func stepsText(steps []report.Step) string {
	parts := make([]string, len(steps))
	for i, s := range steps {
		parts[i] = fmt.Sprintf("T%d %s:%d:%d", s.Thread, filepath.Base(s.File), s.Line, s.Column)
		if s.Value != nil {
			parts[i] += fmt.Sprintf(" (=%d)", *s.Value)
		}
	}
	return strings.Join(parts, ", ")
}

// writeSummaryTable writes the table per check kind, the files and the
// times.
func writeSummaryTable(w io.Writer, s report.Summary, wall time.Duration) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "kind\tchecks\tproven\tunreachable\tunproven\tviolated\tsuppressed\t")
	row := func(name string, k report.KindCounts) {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t\n", name, k.Checks, k.Proven, k.Unreachable, k.Unproven, k.Violated, k.Suppressed)
	}
	for _, kind := range report.Kinds {
		if k := s.ByKind[kind]; k != nil && k.Checks > 0 {
			row(kind, *k)
		}
	}
	row("total", s.Total())
	tw.Flush()
	fmt.Fprintf(w, "files: %d analysed, %d unknown, %d failed (of %d; %d from the cache)", s.Analysed, s.Unknown, s.Failed, s.Files, s.Cached)
	if s.Baseline > 0 {
		fmt.Fprintf(w, "; %d results in the baseline not reported", s.Baseline)
	}
	if s.UnusedIgnores > 0 {
		fmt.Fprintf(w, "; %d unused ignore comments", s.UnusedIgnores)
	}
	fmt.Fprintf(w, "\ntime: %.1fs wall, %.1fs CPU\n", wall.Seconds(), float64(s.CPUMS)/1000)
}

// errWriter remembers the first write error.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return len(p), nil
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}
