// Package explain renders the slice of an unproven check
// (analysis.Slice) for people: compiler-style "note:" lines under the
// warning (Text) and a Graphviz drawing with one cluster per thread
// template (Dot). It owns report/explain only; it reads source files
// through Sources to quote statements and computes nothing about the
// program itself.
package explain

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"chorus/analysis"
)

// Sources reads and caches source lines for quoting statements.
type Sources struct {
	files map[string][]string
}

// NewSources returns an empty cache.
func NewSources() *Sources { return &Sources{files: map[string][]string{}} }

// Line returns the trimmed text of line n of file ("" when unreadable).
func (s *Sources) Line(file string, n int) string {
	lines, ok := s.files[file]
	if !ok {
		if data, err := os.ReadFile(file); err == nil {
			lines = strings.Split(string(data), "\n")
		}
		s.files[file] = lines
	}
	if n < 1 || n > len(lines) {
		return ""
	}
	return strings.TrimSpace(lines[n-1])
}

// Lines returns every line of file (nil when unreadable).
func (s *Sources) Lines(file string) []string {
	s.Line(file, 0)
	return s.files[file]
}

// Statement quotes node n's C statement, or its IR actions when the source
// is unavailable.
func (s *Sources) Statement(n *analysis.SliceNode) string {
	if n.Kind == analysis.NodeAny {
		return "any value"
	}
	if s != nil {
		if t := stripComment(s.Line(n.Pos.Filename, n.Pos.Line)); t != "" {
			return shorten(t, 80)
		}
	}
	return shorten(strings.Join(n.Actions, "; "), 80)
}

// stripComment drops a trailing // comment (not inside a string literal).
func stripComment(line string) string {
	inStr := byte(0)
	for i := 0; i+1 < len(line); i++ {
		c := line[i]
		switch {
		case inStr != 0 && c == '\\':
			i++
		case inStr != 0 && c == inStr:
			inStr = 0
		case inStr == 0 && (c == '"' || c == '\''):
			inStr = c
		case inStr == 0 && c == '/' && line[i+1] == '/':
			return strings.TrimSpace(line[:i])
		}
	}
	return line
}

func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// EdgeValues renders the variables an edge carries, with the part that can
// break the check when it is smaller: "counter in [-5, 7] (bad: in [-5, -1])".
func EdgeValues(e *analysis.SliceEdge) string {
	var parts []string
	for _, v := range e.Vars {
		p := v.Name + " " + v.CarriedText
		if v.BadText != v.CarriedText {
			p += " (bad: " + v.BadText + ")"
		}
		parts = append(parts, p)
	}
	s := strings.Join(parts, ", ")
	if len(e.Via) > 0 {
		s += " after " + strings.Join(e.Via, " or ")
	}
	return s
}

// Sync describes the synchronization around an interference edge:
// "producer thread holding plock", "consumer thread, no lock held",
// "... in an atomic section".
func Sync(e *analysis.SliceEdge) string {
	s := e.Writer + " thread"
	switch {
	case e.WriterAtomic:
		s += " in an atomic section"
	case len(e.WriterLocks) > 0:
		s += " holding " + strings.Join(e.WriterLocks, ", ")
	default:
		s += ", no lock held"
	}
	if len(e.ReaderLocks) > 0 {
		s += "; reader holds " + strings.Join(e.ReaderLocks, ", ")
	}
	return s
}

// writerSync is the short form of Sync for drawings: "producer thread,
// holds plock".
func writerSync(e *analysis.SliceEdge) string {
	switch {
	case e.WriterAtomic:
		return e.Writer + " thread, atomic"
	case len(e.WriterLocks) > 0:
		return e.Writer + " thread, holds " + strings.Join(e.WriterLocks, ", ")
	}
	return e.Writer + " thread, no lock"
}

// into lists the non-feedback edges into each node, interference first.
func into(sl *analysis.Slice) map[int][]*analysis.SliceEdge {
	m := map[int][]*analysis.SliceEdge{}
	for _, e := range sl.Edges {
		if !e.Back {
			m[e.To] = append(m[e.To], e)
		}
	}
	for _, es := range m {
		sort.SliceStable(es, func(i, j int) bool {
			if es[i].Interference != es[j].Interference {
				return !es[i].Interference
			}
			return es[i].From < es[j].From
		})
	}
	return m
}

// Text writes the slice as "note:" lines, one per edge, indented by depth
// from the check (each statement is expanded once; later mentions say
// "see above").
func Text(w io.Writer, sl *analysis.Slice, src *Sources) error {
	bw := bufio.NewWriter(w)
	chk := sl.Check.Pos
	at := func(n *analysis.SliceNode) string {
		if n.Kind == analysis.NodeAny || n.Pos.Line == 0 {
			return fmt.Sprintf("%s:%d:%d", chk.Filename, chk.Line, chk.Column)
		}
		return fmt.Sprintf("%s:%d:%d", n.Pos.Filename, n.Pos.Line, n.Pos.Column)
	}
	fmt.Fprintf(bw, "%s:%d:%d: note: the check fails when %s; data flow that can bring such values (%d statements):\n",
		chk.Filename, chk.Line, chk.Column, sl.Failing, len(sl.Nodes))
	in := into(sl)
	expanded := map[int]bool{0: true}
	var walk func(to, depth int)
	walk = func(to, depth int) {
		for _, e := range in[to] {
			from := sl.Nodes[e.From]
			var who string
			switch {
			case e.Control:
				who = fmt.Sprintf("the branch `%s` (%s) taken at `%s`", strings.Join(e.Via, " or "), from.Template, src.Statement(from))
			case from.Kind == analysis.NodeAny:
				who = "any value (uninitialized, or unknown at thread start)"
			case e.Interference && e.From == e.To:
				who = fmt.Sprintf("the same statement in another %s [interference]", Sync(e))
			case e.Interference:
				who = fmt.Sprintf("`%s` in another %s [interference]", src.Statement(from), Sync(e))
			default:
				who = fmt.Sprintf("`%s` (%s)", src.Statement(from), from.Template)
			}
			line := fmt.Sprintf("%s: note: %s%s from %s", at(from), strings.Repeat("  ", depth), EdgeValues(e), who)
			if e.Control {
				line = fmt.Sprintf("%s: note: %sbecause of %s", at(from), strings.Repeat("  ", depth), who)
			}
			if from.Kind == analysis.NodeSource {
				line += "; introduces " + from.Introduces
			}
			if expanded[e.From] && e.From != e.To && len(in[e.From]) > 0 {
				line += " (see above)"
			}
			fmt.Fprintln(bw, line)
			if !expanded[e.From] {
				expanded[e.From] = true
				walk(e.From, depth+1)
			}
		}
	}
	walk(0, 1)
	back := 0
	for _, e := range sl.Edges {
		if e.Back {
			back++
		}
	}
	if back > 0 {
		fmt.Fprintf(bw, "%s:%d:%d: note: %d feedback edge(s) (values going around loops or back and forth) not shown\n", chk.Filename, chk.Line, chk.Column, back)
	}
	if sl.Cut != "" {
		fmt.Fprintf(bw, "%s:%d:%d: note: cut: %s\n", chk.Filename, chk.Line, chk.Column, sl.Cut)
	}
	return bw.Flush()
}

// dotString quotes s for DOT; lines are left-justified.
func dotString(lines ...string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, l := range lines {
		l = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", " ").Replace(l)
		b.WriteString(l)
		b.WriteString(`\l`)
	}
	b.WriteByte('"')
	return b.String()
}

// Dot writes the slice as Graphviz, left to right towards the check: one
// cluster per thread template,
// statements as boxes (the check red, statements introducing bad values
// shaded), sequential edges solid, interference edges dashed red and bold
// across clusters, each edge labelled with its variables and values.
// Feedback edges are left out and counted in the graph's label.
func Dot(w io.Writer, sl *analysis.Slice, src *Sources) error {
	bw := bufio.NewWriter(w)
	chk := sl.Check
	fmt.Fprintln(bw, "digraph slice {")
	fmt.Fprintln(bw, "  newrank=true; rankdir=LR;")
	fmt.Fprintln(bw, `  graph [fontname="Helvetica", fontsize=11, labelloc=t];`)
	fmt.Fprintln(bw, `  node [shape=box, fontname="Courier", fontsize=10];`)
	fmt.Fprintln(bw, `  edge [fontname="Helvetica", fontsize=9];`)
	title := []string{fmt.Sprintf("%s:%d: %s not proven", filepath.Base(chk.Pos.Filename), chk.Pos.Line, chk.Msg), "fails when " + sl.Failing}
	back := 0
	for _, e := range sl.Edges {
		if e.Back {
			back++
		}
	}
	if back > 0 {
		title = append(title, fmt.Sprintf("%d feedback edge(s) not drawn", back))
	}
	if sl.Cut != "" {
		title = append(title, "cut: "+sl.Cut)
	}
	fmt.Fprintf(bw, "  label=%s;\n", dotString(title...))
	byTmpl := map[string][]*analysis.SliceNode{}
	var tmpls []string
	for _, n := range sl.Nodes {
		if n.Kind == analysis.NodeAny {
			fmt.Fprintf(bw, "  n%d [label=%s, shape=ellipse, style=dashed];\n", n.ID, dotString("any value"))
			continue
		}
		if _, ok := byTmpl[n.Template]; !ok {
			tmpls = append(tmpls, n.Template)
		}
		byTmpl[n.Template] = append(byTmpl[n.Template], n)
	}
	for i, t := range tmpls {
		fmt.Fprintf(bw, "  subgraph cluster_%d {\n    label=%s; style=rounded; color=gray40;\n", i, dotString("thread "+t))
		for _, n := range byTmpl[t] {
			lines := []string{fmt.Sprintf("line %d: %s", n.Pos.Line, src.Statement(n))}
			if n.Values != "" {
				lines = append(lines, n.Values)
			}
			attrs := ""
			switch n.Kind {
			case analysis.NodeCheck:
				attrs = ", color=red, penwidth=2"
			case analysis.NodeSource:
				lines = append(lines, "introduces "+n.Introduces)
				attrs = ", style=filled, fillcolor=lightyellow"
			}
			if len(n.Locks) > 0 {
				lines = append(lines, "holds "+strings.Join(n.Locks, ", "))
			}
			if n.Atomic {
				lines = append(lines, "in an atomic section")
			}
			fmt.Fprintf(bw, "    n%d [label=%s%s];\n", n.ID, dotString(lines...), attrs)
		}
		fmt.Fprintln(bw, "  }")
	}
	for _, e := range sl.Edges {
		if e.Back {
			continue
		}
		if e.Control {
			fmt.Fprintf(bw, "  n%d -> n%d [style=dotted, label=%s];\n", e.From, e.To, dotString("branch "+strings.Join(e.Via, " or ")))
			continue
		}
		if e.Interference {
			fmt.Fprintf(bw, "  n%d -> n%d [style=dashed, color=red, fontcolor=red, penwidth=2, label=%s];\n",
				e.From, e.To, dotString(EdgeValues(e), "from another "+writerSync(e)))
		} else {
			fmt.Fprintf(bw, "  n%d -> n%d [label=%s];\n", e.From, e.To, dotString(EdgeValues(e)))
		}
	}
	fmt.Fprintln(bw, "}")
	return bw.Flush()
}
