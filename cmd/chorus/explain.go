package main

// --explain FILE:LINE and --explain-dot FILE for chorus check: the slice
// of an unproven check (analysis.Slice) as "note:" lines under its warning
// and as a Graphviz drawing (report/explain).

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"chorus/analysis"
	"chorus/report"
	"chorus/report/explain"
)

// sliceTimeLimit bounds the walk of one slice: an explanation must cost
// little next to the analysis; a slice cut short says so.
const sliceTimeLimit = 2 * time.Second

// explainOptions are the flags of this file.
type explainOptions struct {
	at   string // --explain FILE:LINE
	dot  string // --explain-dot FILE
	html string // --html DIR (htmlreport.go)
	// extras are what the HTML page needs per file (htmlreport.go).
	extras htmlExtras
	file   string // parsed from at
	line   int
}

func (e *explainOptions) register(fs *flag.FlagSet) {
	fs.StringVar(&e.at, "explain", "", "explain the unproven check(s) at FILE:LINE: the data flow that can make them fail, as note: lines under the warning")
	fs.StringVar(&e.html, "html", "", "write an HTML report of the run to DIR/index.html (one self-contained page: summary, checks, source with invariants, slices of unproven checks)")
	fs.StringVar(&e.dot, "explain-dot", "", "write the slice of the --explain check (or of the only unproven check) as Graphviz to this file")
}

// on reports whether an explanation was asked for (the run is then in
// process: the slices need the analysis itself).
func (e *explainOptions) on() bool { return e.at != "" || e.dot != "" || e.html != "" }

// explainOutcome computes the notes of one analysed file (by check ID);
// a failure to write --explain-dot makes the file an input error.
func explainOutcome(o *checkOptions, out *fileOutcome, stderr io.Writer) map[int]string {
	if o.explain.html != "" {
		o.explain.extras.collect(out)
	}
	if out.res == nil || (o.explain.at == "" && o.explain.dot == "") {
		return nil
	}
	notes, err := explainFile(o, out.res, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "chorus check: %v\n", err)
		out.err, out.inputError = err, true
	}
	return notes
}

// addNotes puts the notes on the report's checks (toReport keeps the
// order of res.Checks).
func addNotes(f *report.File, res *analysis.Result, notes map[int]string) {
	if res == nil || len(f.Checks) != len(res.Checks) {
		return
	}
	for i, c := range res.Checks {
		f.Checks[i].Notes = notes[c.Check.ID]
	}
}

// validate parses --explain.
func (e *explainOptions) validate() error {
	if e.at == "" {
		return nil
	}
	i := strings.LastIndex(e.at, ":")
	if i <= 0 {
		return fmt.Errorf("--explain wants FILE:LINE, got %q", e.at)
	}
	n, err := strconv.Atoi(e.at[i+1:])
	if err != nil || n < 1 {
		return fmt.Errorf("--explain wants FILE:LINE, got %q", e.at)
	}
	e.file, e.line = e.at[:i], n
	return nil
}

// matches reports whether a check position names the --explain target:
// same line, and the same file or one ending in the given path.
func (e *explainOptions) matches(file string, line int) bool {
	if line != e.line {
		return false
	}
	if file == e.file || filepath.Clean(file) == filepath.Clean(e.file) {
		return true
	}
	return strings.HasSuffix(filepath.ToSlash(file), "/"+strings.TrimPrefix(filepath.ToSlash(e.file), "./"))
}

// explainFile computes the notes of the selected checks of one file (by
// check ID) and writes --explain-dot. It reports on stderr when the
// target has no check or only proven ones.
func explainFile(o *checkOptions, res *analysis.Result, stderr io.Writer) (map[int]string, error) {
	e := &o.explain
	if (e.at == "" && e.dot == "") || res == nil {
		return nil, nil
	}
	var picked []analysis.CheckResult
	found := false
	for _, c := range res.Checks {
		if e.at == "" {
			if c.Status == analysis.Unproven {
				picked = append(picked, c)
			}
			continue
		}
		if e.matches(c.Check.Pos.Filename, c.Check.Pos.Line) {
			found = true
			if c.Status == analysis.Unproven {
				picked = append(picked, c)
			}
		}
	}
	if e.at != "" && !found {
		fmt.Fprintf(stderr, "chorus check: --explain %s: no check of the selected kinds on that line of %s\n", e.at, res.Program.File)
		return nil, nil
	}
	if e.at != "" && len(picked) == 0 {
		fmt.Fprintf(stderr, "chorus check: --explain %s: the checks there are proven or unreachable; nothing to explain\n", e.at)
		return nil, nil
	}
	src := explain.NewSources()
	notes := map[int]string{}
	var first *analysis.Slice
	for _, c := range picked {
		sl := res.Slice(c, analysis.WithSliceTimeLimit(sliceTimeLimit))
		if sl == nil {
			continue
		}
		if first == nil {
			first = sl
		}
		if e.at != "" {
			var b bytes.Buffer
			explain.Text(&b, sl, src)
			notes[c.Check.ID] = b.String()
		}
	}
	if e.dot != "" {
		if first == nil {
			return notes, errors.New("--explain-dot: no unproven check to draw")
		}
		if e.at == "" && len(picked) > 1 {
			return notes, fmt.Errorf("--explain-dot: %d unproven checks; choose one with --explain FILE:LINE", len(picked))
		}
		var b bytes.Buffer
		explain.Dot(&b, first, src)
		if err := os.WriteFile(e.dot, b.Bytes(), 0o644); err != nil {
			return notes, err
		}
	}
	return notes, nil
}
