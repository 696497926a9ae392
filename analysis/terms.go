package analysis

// Messages in source terms: the variables and expressions of a check's
// invariant and of its interfering writes, named as the C source names
// them rather than by IR temporaries ("t35") or function-qualified locals
// ("worker.i#1"). Rendering only: nothing here changes a status.

import (
	"fmt"
	"go/token"
	"regexp"
	"slices"
	"strings"

	"chorus/cfg"
	"chorus/dfg"
	"chorus/domains"
)

// Write is an interfering write of another thread that reaches a check.
type Write struct {
	Pos   token.Position
	Var   string // the variable written, in source terms
	Value string // the value written ("in [1, +oo]", "0"); "" when unknown
}

// Writes lists the interfering writes into c's site, deduplicated, in
// edge order. Where it is cheap to tell (the check compares one variable
// with a constant and the writer assigns that variable), writes whose
// values cannot violate the check are left out.
func (r *Result) Writes(c CheckResult) []Write {
	if len(c.Interference) == 0 {
		return nil
	}
	// Memoized per check (the report and the warning's explanation both
	// ask; on memcached.c each unproven check has thousands of edges, and
	// the two calls were a quarter of the run).
	r.writesMu.Lock()
	defer r.writesMu.Unlock()
	if ws, ok := r.writes[c.Check]; ok && c.Check != nil {
		return slices.Clip(ws)
	}
	subject, op, k, filter := checkSubject(c.Check)
	var out []Write
	seen := map[Write]bool{}
	if r.cellNames == nil {
		r.cellNames = map[dfg.CellID]string{}
		r.written = map[*cfg.Loc]writtenValue{}
	}
	// emitted: the (source, cell) pairs already in out (the same Write
	// again: skipped before building it)
	emitted := map[uint64]bool{}
	for _, e := range c.Interference {
		key := uint64(e.Src.ID)<<32 | uint64(e.Cell)
		if emitted[key] {
			continue
		}
		name, ok := r.cellNames[e.Cell]
		if !ok {
			name = r.cellName(e.Cell)
			r.cellNames[e.Cell] = name
		}
		w := Write{Pos: e.Src.Pos, Var: name}
		val, ok := r.written[e.Src]
		if !ok {
			if a, isAsg := e.Src.Act.(*cfg.Assign); isAsg && a.Src.ExprType().IsInt() && r.Solver != nil {
				val = writtenValue{iv: r.Solver.At(e.Src).Eval(a.Src), ok: true}
			}
			r.written[e.Src] = val
		}
		if val.ok {
			if filter && r.carriesSubject(e, c.Check.Loc, subject) && !canViolate(val.iv, op, k) {
				continue // this write cannot break the check
			}
			w.Value = intervalString(val.iv)
		}
		emitted[key] = true
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	if c.Check != nil {
		if r.writes == nil {
			r.writes = map[*cfg.Check][]Write{}
		}
		r.writes[c.Check] = out
	}
	return slices.Clip(out)
}

// writtenValue is the value an assignment writes (ok: it assigns an
// integer), for Writes.
type writtenValue struct {
	iv domains.Interval
	ok bool
}

// cellName names a cell by its variables in source terms.
func (r *Result) cellName(id dfg.CellID) string {
	cell := r.Graph.Partition().Cell(id)
	if len(cell.Vars) == 1 {
		return sourceName(cell.Vars[0])
	}
	names := make([]string, 0, len(cell.Vars))
	for _, v := range cell.Vars {
		names = append(names, sourceName(v))
	}
	return "{" + strings.Join(names, ", ") + "}"
}

// qualifiedLocal matches the IR names of locals, "func.name" or
// "func.name#2" (a second variable of that name in the function).
var qualifiedLocal = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*\.([A-Za-z_][A-Za-z0-9_]*)(#[0-9]+)?$`)

// tempName matches the IR's temporaries (cfg's builder names them tN).
var tempName = regexp.MustCompile(`^t[0-9]+$`)

// sourceName is the name the C source gives v.
func sourceName(v *cfg.Var) string {
	if v.Scope == cfg.Local {
		if m := qualifiedLocal.FindStringSubmatch(v.Name); m != nil {
			return m[1]
		}
	}
	return v.Name
}

func isTemp(v *cfg.Var) bool { return v.Scope == cfg.Local && tempName.MatchString(v.Name) }

// Invariant renders the invariant at c's site in source terms: the
// interval of each integer variable or expression of the check's
// condition, a temporary replaced by the C expression it holds.
func (r *Result) Invariant(c CheckResult) string {
	if c.Status == Unreachable || c.Check == nil || c.Check.Loc == nil || r.Solver == nil {
		return c.Message
	}
	act, ok := c.Check.Loc.Act.(*cfg.CheckAct)
	if !ok {
		return c.Message
	}
	st := r.Solver.At(c.Check.Loc)
	defs := r.tempDefs(c.Check.Loc.Template)
	var parts []string
	seen := map[*cfg.Var]bool{}
	var walk func(e cfg.Expr)
	walk = func(e cfg.Expr) {
		switch x := e.(type) {
		case *cfg.VarRef:
			v := x.Var
			if seen[v] || !v.Type.IsInt() {
				return
			}
			seen[v] = true
			parts = append(parts, fmt.Sprintf("%s %s", r.exprTerms(x, defs, 0), intervalString(st.Interval(v))))
		case *cfg.Unary:
			walk(x.X)
		case *cfg.Binary:
			walk(x.X)
			walk(x.Y)
		case *cfg.Cast:
			walk(x.X)
		}
	}
	walk(act.Cond)
	if len(parts) == 0 {
		return c.Message
	}
	s := strings.Join(parts, ", ")
	if strings.HasPrefix(c.Message, "fails whenever reached") {
		s = "fails whenever reached: " + s
	}
	return s
}

// tempDefs maps each temporary of template t assigned exactly once to the
// expression assigned.
func (r *Result) tempDefs(t *cfg.Template) map[*cfg.Var]cfg.Expr {
	defs := map[*cfg.Var]cfg.Expr{}
	multi := map[*cfg.Var]bool{}
	if t == nil {
		return defs
	}
	for _, l := range t.Locs {
		a, ok := l.Act.(*cfg.Assign)
		if !ok {
			continue
		}
		d, ok := a.Dst.(*cfg.VarRef)
		if !ok || !isTemp(d.Var) {
			continue
		}
		if _, dup := defs[d.Var]; dup {
			multi[d.Var] = true
		}
		defs[d.Var] = a.Src
	}
	for v := range multi {
		delete(defs, v)
	}
	return defs
}

// exprTerms renders e in C syntax, temporaries expanded to what they hold
// (to a small depth; beyond it, or when a temporary has several
// definitions, "the value computed at line N").
func (r *Result) exprTerms(e cfg.Expr, defs map[*cfg.Var]cfg.Expr, depth int) string {
	switch x := e.(type) {
	case *cfg.Const:
		return cfg.ExprString(x)
	case *cfg.VarRef:
		if isTemp(x.Var) {
			if d, ok := defs[x.Var]; ok && depth < 3 {
				return r.exprTerms(d, defs, depth+1)
			}
			return fmt.Sprintf("the value computed at line %d", x.Var.Pos.Line)
		}
		return sourceName(x.Var)
	case *cfg.Deref:
		if len(x.Cells) == 1 {
			return sourceName(x.Cells[0])
		}
		return "*" + paren(r.exprTerms(x.Addr, defs, depth+1))
	case *cfg.AddrOf:
		if x.Offset != 0 {
			return fmt.Sprintf("&%s+%d", x.Object.Name, x.Offset)
		}
		return "&" + x.Object.Name
	case *cfg.Unary:
		op := map[cfg.UnOp]string{cfg.Neg: "-", cfg.Not: "!", cfg.BitNot: "~"}[x.Op]
		return op + paren(r.exprTerms(x.X, defs, depth+1))
	case *cfg.Binary:
		op := x.Op.String()
		switch x.Op {
		case cfg.PtrAdd:
			op = "+"
		case cfg.PtrSub:
			op = "-"
		}
		return paren(r.exprTerms(x.X, defs, depth+1)) + " " + op + " " + paren(r.exprTerms(x.Y, defs, depth+1))
	case *cfg.Cast:
		return r.exprTerms(x.X, defs, depth) // conversions are implicit in C's reading
	}
	return cfg.ExprString(e)
}

// paren wraps s in parentheses unless it is a single name or number.
func paren(s string) string {
	if strings.ContainsAny(s, " ") {
		return "(" + s + ")"
	}
	return s
}
