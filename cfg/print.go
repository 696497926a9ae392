package cfg

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// Write prints the program as text: variables, objects, assumptions, and
// per template its locations with actions and successors.
func (p *Program) Write(w io.Writer) {
	bw := bufio.NewWriter(w)
	defer bw.Flush()
	fmt.Fprintf(bw, "program %s (%v)\n", p.File, p.DataModel)
	for _, a := range p.Assumptions {
		fmt.Fprintf(bw, "assume %s:%d: %s\n", a.Pos.Filename, a.Pos.Line, a.Msg)
	}
	for _, v := range p.Vars {
		if v.IsCell() || v.Scope != Global {
			continue
		}
		fmt.Fprintf(bw, "global %s %v", v.Name, v.Type)
		if v.Init != nil {
			fmt.Fprintf(bw, " = %s", ExprString(v.Init))
		}
		fmt.Fprintln(bw)
	}
	for _, o := range p.Objects {
		fmt.Fprintf(bw, "object %s %s size=%d", o.Name, objKind(o.Kind), o.Size)
		if o.Template != nil {
			fmt.Fprintf(bw, " owner=%s", o.Template.Name)
		}
		fmt.Fprintln(bw)
		for _, c := range o.Cells {
			flags := scopeName(c.Scope)
			if c.Summary {
				flags += ",summary"
			}
			fmt.Fprintf(bw, "  cell %s @%d %v %s\n", c.Name, c.Offset, c.Type, flags)
		}
		for _, iv := range o.Init {
			fmt.Fprintf(bw, "  init @%d %v = %s\n", iv.Offset, iv.Type, ExprString(iv.Value))
		}
	}
	for _, t := range p.Templates {
		fmt.Fprintf(bw, "\ntemplate %s", t.Name)
		if t.Unbounded {
			fmt.Fprint(bw, " unbounded")
		}
		if t.Spawned {
			fmt.Fprint(bw, " spawned")
		}
		if t.Param != nil {
			fmt.Fprintf(bw, " param=%s", t.Param.Name)
		}
		fmt.Fprintf(bw, " entry=%v exit=%v\n", t.Entry, t.Exit)
		var locals []string
		for _, v := range t.Locals {
			if !v.IsCell() {
				locals = append(locals, v.Name+" "+v.Type.String())
			}
		}
		if len(locals) > 0 {
			fmt.Fprintf(bw, "  locals %s\n", strings.Join(locals, ", "))
		}
		for _, l := range t.Locs {
			a := ""
			if l.Atomic {
				a = " [atomic]"
			}
			fmt.Fprintf(bw, "  %v%s: %s", l, a, ActionString(l.Act))
			if len(l.Succs) > 0 {
				var ss []string
				for _, s := range l.Succs {
					ss = append(ss, s.String())
				}
				fmt.Fprintf(bw, " -> %s", strings.Join(ss, ", "))
			}
			if l.Pos.Line > 0 {
				fmt.Fprintf(bw, "  ; line %d", l.Pos.Line)
			}
			fmt.Fprintln(bw)
		}
	}
	if len(p.Checks) > 0 {
		fmt.Fprintln(bw)
	}
	for _, c := range p.Checks {
		fmt.Fprintf(bw, "check %d %v at %v %s:%d:%d in %s: %s\n", c.ID, c.Kind, c.Loc, c.Pos.Filename, c.Pos.Line, c.Pos.Column, c.Func, c.Msg)
	}
}

func objKind(k ObjectKind) string {
	switch k {
	case GlobalObject:
		return "global"
	case LocalObject:
		return "local"
	case HeapObject:
		return "heap"
	case StringObject:
		return "string"
	case FuncObject:
		return "func"
	}
	return "?"
}

func scopeName(s Scope) string {
	if s == Global {
		return "global"
	}
	return "local"
}

// ActionString renders an action.
func ActionString(a Action) string {
	switch x := a.(type) {
	case *Assign:
		return ExprString(x.Dst) + " := " + ExprString(x.Src)
	case *Assume:
		return "assume(" + ExprString(x.Cond) + ")"
	case *Havoc:
		return "havoc(" + ExprString(x.Dst) + ")"
	case *CheckAct:
		return fmt.Sprintf("check#%d %v(%s)", x.Check.ID, x.Check.Kind, ExprString(x.Cond))
	case *Acquire:
		return "acquire(" + ExprString(x.Lock) + ")"
	case *Release:
		return "release(" + ExprString(x.Lock) + ")"
	case *AtomicBegin:
		return "atomic_begin"
	case *AtomicEnd:
		return "atomic_end"
	case *Spawn:
		var ts []string
		for _, t := range x.Targets {
			ts = append(ts, t.Name)
		}
		s := "spawn(" + strings.Join(ts, "|") + ", fn=" + ExprString(x.Fn)
		if x.Arg != nil {
			s += ", arg=" + ExprString(x.Arg)
		}
		if x.Handle != nil {
			s += ", handle=" + ExprString(x.Handle)
		}
		return s + ")"
	case *Join:
		return "join(" + ExprString(x.Handle) + ")"
	case *Alloc:
		z := ""
		if x.Zero {
			z = ", zero"
		}
		return fmt.Sprintf("%s := alloc(%s, %s%s)", ExprString(x.Dst), x.Site.Name, ExprString(x.Size), z)
	case *Skip:
		return "skip"
	case *InitGlobals:
		return "init_globals"
	case *Output:
		var as []string
		for _, e := range x.Args {
			as = append(as, ExprString(e))
		}
		return "output(" + strconv.Quote(x.Format) + strings.Join(append([]string{""}, as...), ", ") + ")"
	}
	return fmt.Sprintf("%T", a)
}

var binOpNames = [...]string{Add: "+", Sub: "-", Mul: "*", Div: "/", Rem: "%", Shl: "<<", Shr: ">>", And: "&", Or: "|", Xor: "^",
	Eq: "==", Ne: "!=", Lt: "<", Le: "<=", Gt: ">", Ge: ">=", LAnd: "&&", LOr: "||", PtrAdd: "+p", PtrSub: "-p"}

func (op BinOp) String() string {
	if int(op) < len(binOpNames) {
		return binOpNames[op]
	}
	return "?"
}

// ExprString renders an expression.
func ExprString(e Expr) string {
	switch x := e.(type) {
	case nil:
		return "<nil>"
	case *Const:
		if x.Type.Kind == FloatType {
			return strconv.FormatFloat(math.Float64frombits(uint64(x.Value)), 'g', -1, 64)
		}
		if x.Type.Kind == IntType && !x.Type.Signed && x.Type.Bits == 64 {
			return strconv.FormatUint(uint64(x.Value), 10)
		}
		return strconv.FormatInt(x.Value, 10)
	case *VarRef:
		return x.Var.Name
	case *Deref:
		var cs []string
		for i, c := range x.Cells {
			if i == 4 {
				cs = append(cs, fmt.Sprintf("+%d", len(x.Cells)-4))
				break
			}
			cs = append(cs, c.Name)
		}
		return fmt.Sprintf("*%v(%s){%s}", x.Type, ExprString(x.Addr), strings.Join(cs, ","))
	case *AddrOf:
		if x.Offset != 0 {
			return fmt.Sprintf("&%s+%d", x.Object.Name, x.Offset)
		}
		return "&" + x.Object.Name
	case *Unary:
		op := map[UnOp]string{Neg: "-", Not: "!", BitNot: "~"}[x.Op]
		return op + "(" + ExprString(x.X) + ")"
	case *Binary:
		return "(" + ExprString(x.X) + " " + x.Op.String() + " " + ExprString(x.Y) + ")"
	case *Cast:
		return fmt.Sprintf("(%v)%s", x.Type, ExprString(x.X))
	}
	return fmt.Sprintf("%T", e)
}

// WriteDot writes one Graphviz cluster per thread template.
func (p *Program) WriteDot(w io.Writer) {
	bw := bufio.NewWriter(w)
	defer bw.Flush()
	fmt.Fprintln(bw, "digraph chorus {")
	fmt.Fprintln(bw, "  node [shape=box, fontname=\"monospace\", fontsize=10];")
	for _, t := range p.Templates {
		label := t.Name
		if t.Unbounded {
			label += " (unbounded)"
		}
		fmt.Fprintf(bw, "  subgraph cluster_%d {\n    label=%s;\n", t.ID, strconv.Quote(label))
		for _, l := range t.Locs {
			attrs := ""
			if l.Atomic {
				attrs = ", style=filled, fillcolor=lightgrey"
			}
			if _, ok := l.Act.(*CheckAct); ok {
				attrs += ", color=red"
			}
			fmt.Fprintf(bw, "    n%d [label=%s%s];\n", l.ID, strconv.Quote(fmt.Sprintf("%v: %s", l, ActionString(l.Act))), attrs)
		}
		for _, l := range t.Locs {
			for _, s := range l.Succs {
				fmt.Fprintf(bw, "    n%d -> n%d;\n", l.ID, s.ID)
			}
		}
		fmt.Fprintln(bw, "  }")
	}
	fmt.Fprintln(bw, "}")
}
