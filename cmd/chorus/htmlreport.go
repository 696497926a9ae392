package main

// --html DIR for chorus check: one self-contained page, DIR/index.html,
// with the summary, each file's checks, its source with the invariant of
// every line on hover, and each unproven check's slice (report/html).
// The run is in process (the page needs the analysis itself).

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"chorus/analysis"
	"chorus/report"
	"chorus/report/explain"
	"chorus/report/html"
)

// maxDrawnSlices bounds the slices per file drawn with Graphviz (each is
// one dot process); the others are shown as text.
const maxDrawnSlices = 100

// htmlExtras are what the page needs beyond the report: per file, the
// source, the invariants per line and the slices per check.
type htmlExtras struct {
	mu    sync.Mutex
	files map[unitKey]*fileExtras
}

// unitKey names one analysed unit: its path and, when a compile database
// compiles the file more than once (memcached.c with two sets of flags),
// the compile command.
type unitKey struct{ file, entry string }

type fileExtras struct {
	*html.File                  // Checks hold the slices only
	SourceLines map[lineKey]int // positions to lines of File.Lines
}

// lineKey is a position's file and line.
type lineKey struct {
	file string
	line int
}

// lineMarker is a "#line N "file"" or "# N "file"" directive.
var lineMarker = regexp.MustCompile(`^\s*#\s*(?:line\s+)?(\d+)\s+"([^"]*)"`)

// sourceLineMap maps the positions the frontend reports (file, line —
// after #line markers, as in preprocessed input) to the lines of the file
// shown (1-based).
func sourceLineMap(file string, lines []string) map[lineKey]int {
	m := map[lineKey]int{}
	cur, next := file, 1
	for i, l := range lines {
		if g := lineMarker.FindStringSubmatch(l); g != nil {
			n, _ := strconv.Atoi(g[1])
			cur, next = g[2], n
			continue
		}
		k := lineKey{cur, next}
		if _, ok := m[k]; !ok {
			m[k] = i + 1
		}
		next++
	}
	return m
}

type checkPos struct {
	kind         string
	line, column int
}

// collect records one analysed file for the page.
func (h *htmlExtras) collect(out *fileOutcome) {
	f := &fileExtras{File: &html.File{Path: out.file, Invariants: map[int]string{}}}
	src := explain.NewSources()
	f.Lines = src.Lines(out.file)
	if len(f.Lines) > 0 && f.Lines[len(f.Lines)-1] == "" {
		f.Lines = f.Lines[:len(f.Lines)-1]
	}
	f.SourceLines = sourceLineMap(out.file, f.Lines)
	if res := out.res; res != nil {
		perLine := map[int][]string{}
		for _, l := range res.Program.Locs {
			n := f.SourceLines[lineKey{l.Pos.Filename, l.Pos.Line}]
			if n == 0 {
				continue
			}
			inv := res.Solver.At(l).String()
			if len(inv) > 300 {
				inv = inv[:299] + "…"
			}
			if !containsString(perLine[n], inv) && len(perLine[n]) < 6 {
				perLine[n] = append(perLine[n], inv)
			}
		}
		for n, invs := range perLine {
			f.Invariants[n] = strings.Join(invs, "\n")
		}
		drawn := 0
		// Slices may cost a fraction of the analysis, never more: past
		// the budget the remaining checks get none (and say so).
		budget := max(10*time.Second, out.elapsed/4)
		sliceStart := time.Now()
		svgs := map[string]string{} // by DOT text: checks inlined many times draw alike
		for _, c := range res.Checks {
			if c.Status != analysis.Unproven {
				continue
			}
			hc := &html.Check{Kind: c.Check.Kind.String(), Line: c.Check.Pos.Line, Column: c.Check.Pos.Column}
			if time.Since(sliceStart) > budget {
				hc.SliceText = fmt.Sprintf("(no slice: the report spent its time budget for slices, %v, on the checks above; use --explain %s:%d)", budget.Round(time.Second), c.Check.Pos.Filename, c.Check.Pos.Line)
				f.Checks = append(f.Checks, hc)
				continue
			}
			sl := res.Slice(c, analysis.WithSliceTimeLimit(sliceTimeLimit))
			if sl == nil {
				continue
			}
			var b bytes.Buffer
			explain.Text(&b, sl, src)
			hc.SliceText = b.String()
			b.Reset()
			explain.Dot(&b, sl, src)
			if svg, ok := svgs[b.String()]; ok {
				hc.SliceSVG = svg
			} else if drawn < maxDrawnSlices {
				if svg, err := renderSVG(b.Bytes()); err == nil {
					hc.SliceSVG = html.InlineSVG(svg)
					svgs[b.String()] = hc.SliceSVG
					drawn++
				}
			}
			f.Checks = append(f.Checks, hc)
		}
	}
	h.mu.Lock()
	if h.files == nil {
		h.files = map[unitKey]*fileExtras{}
	}
	h.files[unitKey{out.file, out.entry}] = f
	h.mu.Unlock()
}

func containsString(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// renderSVG runs Graphviz's dot on a DOT graph (an error when dot is not
// installed or fails).
func renderSVG(dot []byte) (string, error) {
	path, err := exec.LookPath("dot")
	if err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, "-Tsvg")
	cmd.Stdin = bytes.NewReader(dot)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("dot: %v: %s", err, errb.String())
	}
	return out.String(), nil
}

// writeHTMLReport writes DIR/index.html from the run's results and the
// extras collected per file.
func writeHTMLReport(o *checkOptions, results []report.File) error {
	dir := o.explain.html
	if dir == "" {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	h := &o.explain.extras
	page := &html.Page{Title: "chorus check report"}
	if len(results) == 1 {
		page.Title = "chorus check: " + results[0].File
	}
	for _, rf := range results {
		extra := h.files[unitKey{rf.File, rf.Entry}]
		f := &html.File{Path: rf.File, Error: rf.Error, Verdict: rf.Verdict}
		if rf.Entry != "" {
			f.Path += " (" + rf.Entry + ")"
		}
		slices := map[checkPos][]*html.Check{} // in check order: one position may hold several checks
		var lines map[lineKey]int
		if extra != nil {
			f.Lines, f.Invariants, lines = extra.Lines, extra.Invariants, extra.SourceLines
			for _, c := range extra.Checks {
				k := checkPos{c.Kind, c.Line, c.Column}
				slices[k] = append(slices[k], c)
			}
		}
		for _, c := range rf.Checks {
			hc := &html.Check{File: c.File, SourceLine: lines[lineKey{c.File, c.Line}], Kind: c.Kind, Status: c.Status, Line: c.Line, Column: c.Column, Function: c.Function, Message: c.Message}
			if c.Suppressed != nil {
				hc.Status = "suppressed"
			}
			if k := (checkPos{c.Kind, c.Line, c.Column}); len(slices[k]) > 0 && c.Failing() {
				s := slices[k][0]
				slices[k] = slices[k][1:]
				hc.SliceText, hc.SliceSVG = s.SliceText, s.SliceSVG
			}
			f.Checks = append(f.Checks, hc)
		}
		page.Files = append(page.Files, f)
	}
	var b bytes.Buffer
	if err := html.Write(&b, page); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "index.html"), b.Bytes(), 0o644)
}
