package dfg

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"chorus/cfg"
)

// WriteDot writes the DFG in Graphviz DOT: one node per location (its
// action), a node "⊥" for the ⊥ source, sequential data edges solid and
// labelled with their cell, interference edges dashed red, control edges
// dotted gray; interference hubs (hub.go) are diamonds.
//
// newrank=true: with the default ranking, stock Graphviz (2.43, Debian's)
// fails on edges between clusters ("trouble in init_rank").
func (g *Graph) WriteDot(w io.Writer) error {
	g.ensure()
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, "digraph dfg {")
	fmt.Fprintln(bw, "  newrank=true;")
	fmt.Fprintln(bw, `  node [shape=box, fontname="monospace"];`)
	fmt.Fprintln(bw, `  bot [label="⊥", shape=circle];`)
	for _, t := range g.prog.Templates {
		fmt.Fprintf(bw, "  subgraph cluster_t%d {\n    label=%q;\n", t.ID, t.Name)
		for _, l := range t.Locs {
			fmt.Fprintf(bw, "    n%d [label=%q];\n", l.ID, fmt.Sprintf("%s: %s", l, ActionString(l.Act)))
		}
		fmt.Fprintln(bw, "  }")
	}
	for _, h := range g.hubs {
		fmt.Fprintf(bw, "  n%d [label=%q, shape=diamond];\n", h.ID, "hub "+g.part.Cell(g.hubCell[h.ID-len(g.prog.Locs)]).String())
	}
	for id := range g.numNodes() {
		for _, e := range g.edges[id] {
			src := "bot"
			if e.Src != nil {
				src = fmt.Sprintf("n%d", e.Src.ID)
			}
			switch {
			case e.Cell == ControlCell:
				fmt.Fprintf(bw, "  %s -> n%d [style=dotted, color=gray];\n", src, id)
			case e.Interference:
				fmt.Fprintf(bw, "  %s -> n%d [style=dashed, color=red, label=%q];\n", src, id, g.part.Cell(e.Cell).String())
			default:
				fmt.Fprintf(bw, "  %s -> n%d [label=%q];\n", src, id, g.part.Cell(e.Cell).String())
			}
		}
	}
	fmt.Fprintln(bw, "}")
	return bw.Flush()
}

// ActionString renders an action compactly (for DOT labels and messages).
func ActionString(a cfg.Action) string {
	switch a := a.(type) {
	case *cfg.Assign:
		return ExprString(a.Dst) + " := " + ExprString(a.Src)
	case *cfg.Assume:
		return "assume(" + ExprString(a.Cond) + ")"
	case *cfg.Havoc:
		return "havoc(" + ExprString(a.Dst) + ")"
	case *cfg.CheckAct:
		k := "check"
		if a.Check != nil {
			k = a.Check.Kind.String()
		}
		return k + "(" + ExprString(a.Cond) + ")"
	case *cfg.Acquire:
		return "acquire(" + ExprString(a.Lock) + ")"
	case *cfg.Release:
		return "release(" + ExprString(a.Lock) + ")"
	case *cfg.AtomicBegin:
		return "atomic_begin"
	case *cfg.AtomicEnd:
		return "atomic_end"
	case *cfg.Spawn:
		var names []string
		for _, t := range a.Targets {
			names = append(names, t.Name)
		}
		s := "spawn(" + strings.Join(names, "|")
		if a.Arg != nil {
			s += ", " + ExprString(a.Arg)
		}
		s += ")"
		if a.Handle != nil {
			s = ExprString(a.Handle) + " := " + s
		}
		return s
	case *cfg.Join:
		return "join(" + ExprString(a.Handle) + ")"
	case *cfg.Alloc:
		name := "?"
		if a.Site != nil {
			name = a.Site.Name
		}
		return ExprString(a.Dst) + " := alloc(" + name + ")"
	case *cfg.InitGlobals:
		return "init"
	case *cfg.Output:
		return "printf(" + fmt.Sprintf("%q", a.Format) + ")"
	case *cfg.Skip:
		return "skip"
	}
	return fmt.Sprintf("%T", a)
}

var binOpStr = map[cfg.BinOp]string{
	cfg.Add: "+", cfg.Sub: "-", cfg.Mul: "*", cfg.Div: "/", cfg.Rem: "%",
	cfg.Shl: "<<", cfg.Shr: ">>", cfg.And: "&", cfg.Or: "|", cfg.Xor: "^",
	cfg.Eq: "==", cfg.Ne: "!=", cfg.Lt: "<", cfg.Le: "<=", cfg.Gt: ">", cfg.Ge: ">=",
	cfg.LAnd: "&&", cfg.LOr: "||", cfg.PtrAdd: "+p", cfg.PtrSub: "-p",
}

// ExprString renders an expression compactly.
func ExprString(e cfg.Expr) string {
	switch e := e.(type) {
	case *cfg.Const:
		return fmt.Sprint(e.Value)
	case *cfg.VarRef:
		return e.Var.Name
	case *cfg.Deref:
		return "*(" + ExprString(e.Addr) + ")"
	case *cfg.AddrOf:
		if e.Offset != 0 {
			return fmt.Sprintf("&%s+%d", e.Object.Name, e.Offset)
		}
		return "&" + e.Object.Name
	case *cfg.Unary:
		return [...]string{"-", "!", "~"}[e.Op] + "(" + ExprString(e.X) + ")"
	case *cfg.Binary:
		return "(" + ExprString(e.X) + " " + binOpStr[e.Op] + " " + ExprString(e.Y) + ")"
	case *cfg.Cast:
		return "(" + e.Type.String() + ")" + ExprString(e.X)
	}
	return "?"
}
