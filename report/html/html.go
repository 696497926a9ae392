// Package html renders the HTML report of a chorus check run (issue 16):
// one self-contained page that works offline — the summary table, each
// file's checks (filterable by status and kind), the source with check
// lines marked and the invariant of every line on hover, and for each
// unproven check its slice, as an inline SVG when Graphviz drew one and
// as the text notes otherwise. No JavaScript framework: a few lines of
// plain script filter the rows; the page reads nothing from the network.
//
// It owns report/html only. It renders the Page it is given (built by
// cmd/chorus from the analysis results) and does no I/O but writing to
// the caller's writer.
package html

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"regexp"
	"sort"
	"strings"
	"sync"
)

// Page is the report of one run.
type Page struct {
	Title string
	Files []*File
}

// File is one analysed file.
type File struct {
	Path    string
	Anchor  string // set by Write
	Error   string // the file could not be analysed
	Verdict string // safe | unknown | unsafe
	// Lines is the source, one entry per line (nil when unreadable).
	Lines []string
	// Invariants maps a line number to the invariants at its locations
	// (shown on hover).
	Invariants map[int]string
	Checks     []*Check
}

// Check is one check site.
type Check struct {
	Anchor string // set by Write
	File   string // the check's file as its position names it
	// SourceLine is the line of File.Lines holding the check (0: not in
	// the source shown, e.g. in a header); #line markers make it differ
	// from Line.
	SourceLine int
	Kind       string // assert | array-bounds | signed-overflow | div-by-zero | shift-count
	Status     string // proven | unreachable | unproven | violated
	Line       int
	Column     int
	Function   string
	Message    string
	// SliceText is the slice as note lines (unproven checks).
	SliceText string
	// SliceSVG is the slice drawn by Graphviz (an <svg> element), empty
	// when Graphviz is not installed or failed.
	SliceSVG string
}

//go:embed page.tmpl
var pageTemplate string

// tmpl is parsed on first use, not at start: every chorus process (a
// check worker per file) would pay for it, and few write a page.
var tmpl = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("page").Funcs(template.FuncMap{
		"svg": func(s string) template.HTML { return template.HTML(s) },
	}).Parse(pageTemplate))
})

// counts is one row of the summary table.
type counts struct {
	Name                                     string
	Anchor                                   string
	Verdict                                  string
	Error                                    string
	Checks, Proven, Unreachable, Unproven, V int
}

func (c *counts) add(status string) {
	c.Checks++
	switch status {
	case "proven":
		c.Proven++
	case "unreachable":
		c.Unreachable++
	case "violated":
		c.V++
	default:
		c.Unproven++
	}
}

type sourceLine struct {
	N         int
	Text      string
	Invariant string
	Class     string // "" or the worst status of the line's checks
	Anchor    string // the first check on the line
}

type fileView struct {
	*File
	Source []sourceLine
}

// Write renders p as one HTML document.
func Write(w io.Writer, p *Page) error {
	var rows []counts
	total := counts{Name: "total"}
	kinds := map[string]bool{}
	var views []fileView
	for i, f := range p.Files {
		f.Anchor = fmt.Sprintf("f%d", i)
		row := counts{Name: f.Path, Anchor: f.Anchor, Verdict: f.Verdict, Error: f.Error}
		sort.SliceStable(f.Checks, func(a, b int) bool {
			if f.Checks[a].Line != f.Checks[b].Line {
				return f.Checks[a].Line < f.Checks[b].Line
			}
			return f.Checks[a].Column < f.Checks[b].Column
		})
		byLine := map[int]*Check{}
		worst := map[int]string{}
		for j, c := range f.Checks {
			c.Anchor = fmt.Sprintf("f%dc%d", i, j)
			row.add(c.Status)
			total.add(c.Status)
			kinds[c.Kind] = true
			if c.SourceLine == 0 {
				continue // not in the source shown: listed, not marked
			}
			if byLine[c.SourceLine] == nil {
				byLine[c.SourceLine] = c
			}
			if rank(c.Status) > rank(worst[c.SourceLine]) {
				worst[c.SourceLine] = c.Status
			}
		}
		rows = append(rows, row)
		v := fileView{File: f}
		for n, text := range f.Lines {
			sl := sourceLine{N: n + 1, Text: text, Invariant: f.Invariants[n+1], Class: worst[n+1]}
			if c := byLine[n+1]; c != nil {
				sl.Anchor = c.Anchor
			}
			v.Source = append(v.Source, sl)
		}
		views = append(views, v)
	}
	var kindList []string
	for k := range kinds {
		kindList = append(kindList, k)
	}
	sort.Strings(kindList)
	return tmpl().Execute(w, map[string]any{
		"Title": p.Title, "Rows": rows, "Total": total, "Files": views,
		"Kinds": kindList, "Statuses": []string{"unproven", "violated", "proven", "unreachable", "suppressed"},
	})
}

func rank(status string) int {
	switch status {
	case "violated":
		return 4
	case "unproven":
		return 3
	case "unreachable":
		return 2
	case "proven":
		return 1
	}
	return 0
}

var svgStart = regexp.MustCompile(`(?s)^.*?(<svg\b)`)

// InlineSVG turns Graphviz's SVG output into an element to inline in
// HTML: the XML prolog, DOCTYPE and comments before <svg> are dropped,
// and the fixed size becomes a maximum width (it scales down to fit).
func InlineSVG(svg string) string {
	s := svgStart.ReplaceAllString(svg, "$1")
	if !strings.HasPrefix(s, "<svg") {
		return ""
	}
	return s
}
