package analysis

// Messages in source terms: the variables and expressions of a check's
// invariant and of its interfering writes, named as the C source names
// them rather than by IR temporaries ("t35") or function-qualified locals
// ("worker.i#1"). Rendering only: nothing here changes a status.

import (
	"cmp"
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
	if c.Interference == nil && c.Status != Unproven {
		return nil
	}
	// Memoized per check (the report and the warning's explanation both
	// ask; on memcached.c the unproven checks have 10 M edges in all, and
	// hashing per edge made Writes a quarter of the run: so the names,
	// values and write identities are interned once per cell and per
	// source, and each edge costs array lookups).
	r.writesMu.Lock()
	defer r.writesMu.Unlock()
	if ws, ok := r.writes[c.Check]; ok && c.Check != nil {
		return slices.Clip(ws)
	}
	// (built here, not kept: InterferenceOf)
	edges := r.InterferenceOf(c)
	if len(edges) == 0 {
		return nil
	}
	subject, op, k, filter := checkSubject(c.Check)
	if r.wr == nil {
		r.wr = &writeNames{srcIndex: map[srcWrite]int32{}, nameIndex: map[string]int32{}, bySig: map[uint64][]writesOf{}}
	}
	wr := r.wr
	// Without the filter the writes depend only on the (source, cell)
	// sequence of c.Interference, which many checks share (memcached.c:
	// 30 checks with the same 203,294 writes): a check with the same
	// sequence as an earlier one gets its list.
	var sig uint64
	if !filter {
		sig = sourceCellHash(edges)
		for _, m := range wr.bySig[sig] {
			if m.same(edges) {
				r.memoWrites(c, m.out)
				return slices.Clip(m.out)
			}
		}
	}
	var out []Write
	// seen: the writes in out, as (source write, name) index pairs (a
	// Write is its source's position and value and its cell's name).
	seen := map[uint64]bool{}
	// emitted: the (source, cell) pairs already in out (the same Write
	// again: skipped before building it). c.Interference comes sorted by
	// source (interferenceInto), so a pair repeats only within its
	// source's run of edges: emittedIn[cell] == run marks the pair of the
	// current run; a list in another order takes the map.
	bySource := slices.IsSortedFunc(edges, func(a, b dfg.Edge) int { return cmp.Compare(a.Src.ID, b.Src.ID) })
	var emittedIn []int32
	var emitted map[uint64]bool
	if !bySource {
		emitted = map[uint64]bool{}
	}
	run, cur := int32(0), -1
	for _, e := range edges {
		cell := int(e.Cell)
		if bySource {
			if e.Src.ID != cur {
				cur = e.Src.ID
				run++
			}
			if cell >= len(emittedIn) {
				emittedIn = append(emittedIn, make([]int32, cell+1-len(emittedIn))...)
			}
			if emittedIn[cell] == run {
				continue
			}
		} else if emitted[uint64(e.Src.ID)<<32|uint64(uint32(e.Cell))] {
			continue
		}
		name := r.writeName(e.Cell)
		val := r.writtenBy(e.Src)
		if val.ok && filter && r.carriesSubject(e, c.Check.Loc, subject) && !canViolate(val.iv, op, k) {
			continue // this write cannot break the check
		}
		if bySource {
			emittedIn[cell] = run
		} else {
			emitted[uint64(e.Src.ID)<<32|uint64(uint32(e.Cell))] = true
		}
		key := uint64(val.key)<<32 | uint64(name)
		if !seen[key] {
			seen[key] = true
			out = append(out, Write{Pos: e.Src.Pos, Var: wr.names[name], Value: val.str})
		}
	}
	// Memoized only within writesMemoBudget (the same out in both memos
	// counts once): past it a result is recomputed when asked again,
	// the same list.
	if wr.kept+len(out) > writesMemoBudget {
		return slices.Clip(out)
	}
	wr.kept += len(out)
	r.memoWrites(c, out)
	if !filter {
		wr.bySig[sig] = append(wr.bySig[sig], newWritesOf(edges, out))
	}
	return slices.Clip(out)
}

// writesMemoBudget bounds the Writes entries the memos keep (about 80
// bytes each, plus the kept sequences): ddverify/floppy.c has thousands
// of unproven checks, each reached by thousands of writes.
var writesMemoBudget = 1 << 22

func (r *Result) memoWrites(c CheckResult, out []Write) {
	if c.Check != nil {
		if r.writes == nil {
			r.writes = map[*cfg.Check][]Write{}
		}
		r.writes[c.Check] = out
	}
}

// writesOf is an unfiltered Writes result and the (source, cell)
// sequence of the edges it came from: the sequence itself (sourceCellKeys:
// 8 bytes an edge instead of the edge's 24) when it has at most
// maxKeptKeys edges, else only its length and a second, independent hash
// (ddverify/floppy.c: thousands of unproven checks with distinct
// sequences of up to millions of edges, all kept, did not fit in 12 GB).
// A long sequence then matches another with the same length and both
// 64-bit hashes; only the explanation of a warning depends on it, never a
// status.
type writesOf struct {
	keys  []uint64
	n     int
	hash2 uint64
	out   []Write
}

// maxKeptKeys bounds the sequences writesOf keeps for an exact
// comparison.
const maxKeptKeys = 1 << 14

func newWritesOf(es []dfg.Edge, out []Write) writesOf {
	w := writesOf{n: len(es), out: out}
	if len(es) <= maxKeptKeys {
		w.keys = sourceCellKeys(es)
	} else {
		w.hash2 = sourceCellHash2(es)
	}
	return w
}

// same reports whether es has the (source, cell) sequence of w (its
// sourceCellHash is already known to be equal).
func (w writesOf) same(es []dfg.Edge) bool {
	if len(es) != w.n {
		return false
	}
	if w.keys != nil || w.n == 0 {
		return sameSourceCells(w.keys, es)
	}
	return sourceCellHash2(es) == w.hash2
}

// sourceCellHash2 hashes the (source, cell) sequence of es independently
// of sourceCellHash (a multiply-xorshift mix per element, position
// dependent).
func sourceCellHash2(es []dfg.Edge) uint64 {
	h := uint64(0x9e3779b97f4a7c15)
	for i, e := range es {
		x := sourceCellKey(e) ^ uint64(i)*0xbf58476d1ce4e5b9
		x ^= x >> 31
		x *= 0x94d049bb133111eb
		x ^= x >> 29
		h = (h ^ x) * 0xff51afd7ed558ccd
		h ^= h >> 32
	}
	return h
}

// sourceCellKey is the (source, cell) pair of e as one integer.
func sourceCellKey(e dfg.Edge) uint64 { return uint64(e.Src.ID)<<32 | uint64(uint32(e.Cell)) }

// sourceCellKeys returns the (source, cell) sequence of es.
func sourceCellKeys(es []dfg.Edge) []uint64 {
	out := make([]uint64, len(es))
	for i, e := range es {
		out[i] = sourceCellKey(e)
	}
	return out
}

// sourceCellHash hashes the (source, cell) sequence of es (FNV-1a).
func sourceCellHash(es []dfg.Edge) uint64 {
	h := uint64(14695981039346656037)
	for _, e := range es {
		h ^= sourceCellKey(e)
		h *= 1099511628211
	}
	return h
}

// sameSourceCells reports whether keys is the (source, cell) sequence of
// b.
func sameSourceCells(keys []uint64, b []dfg.Edge) bool {
	return slices.EqualFunc(keys, b, func(k uint64, y dfg.Edge) bool { return k == sourceCellKey(y) })
}

// writeNames interns, for Writes, the cells' names and the sources'
// (position, value) pairs.
type writeNames struct {
	cellName  []int32 // per cell: index in names + 1 (0: not yet)
	names     []string
	nameIndex map[string]int32
	written   []writtenValue // per source location ID (key 0: not yet)
	srcIndex  map[srcWrite]int32
	bySig     map[uint64][]writesOf // unfiltered results by sourceCellHash
	kept      int                   // Write entries in the memos' lists (writesMemoBudget)
}

// srcWrite is what a source contributes to a Write.
type srcWrite struct {
	pos   token.Position
	value string
}

// writeName returns the index in r.wr.names of cell id's name.
func (r *Result) writeName(id dfg.CellID) int32 {
	wr := r.wr
	c := int(id)
	if c >= len(wr.cellName) {
		wr.cellName = append(wr.cellName, make([]int32, c+1-len(wr.cellName))...)
	}
	if wr.cellName[c] == 0 {
		name := r.cellName(id)
		i, ok := wr.nameIndex[name]
		if !ok {
			i = int32(len(wr.names))
			wr.names = append(wr.names, name)
			wr.nameIndex[name] = i
		}
		wr.cellName[c] = i + 1
	}
	return wr.cellName[c] - 1
}

// writtenBy returns what src writes, with its interned key.
func (r *Result) writtenBy(src *cfg.Loc) writtenValue {
	wr := r.wr
	if src.ID >= len(wr.written) {
		wr.written = append(wr.written, make([]writtenValue, src.ID+1-len(wr.written))...)
	}
	if wr.written[src.ID].key == 0 {
		var val writtenValue
		if a, isAsg := src.Act.(*cfg.Assign); isAsg && a.Src.ExprType().IsInt() && r.Solver != nil {
			val = writtenValue{iv: r.Solver.At(src).Eval(a.Src), ok: true}
			val.str = intervalString(val.iv)
		}
		sw := srcWrite{src.Pos, val.str}
		i, ok := wr.srcIndex[sw]
		if !ok {
			i = int32(len(wr.srcIndex)) + 1
			wr.srcIndex[sw] = i
		}
		val.key = i
		wr.written[src.ID] = val
	}
	return wr.written[src.ID]
}

// writtenValue is the value an assignment writes (ok: it assigns an
// integer; str: its rendering, "" when not ok), for Writes; key: the
// interned (position, str) of its source.
type writtenValue struct {
	iv  domains.Interval
	ok  bool
	str string
	key int32
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
	// Memoized per template (every unproven check asked for its whole
	// template's temporaries: pcwd, 5% of the run); callers only read it.
	r.tempDefsMu.Lock()
	defer r.tempDefsMu.Unlock()
	if d, ok := r.tempDefsOf[t]; ok {
		return d
	}
	d := r.computeTempDefs(t)
	if r.tempDefsOf == nil {
		r.tempDefsOf = map[*cfg.Template]map[*cfg.Var]cfg.Expr{}
	}
	r.tempDefsOf[t] = d
	return d
}

func (r *Result) computeTempDefs(t *cfg.Template) map[*cfg.Var]cfg.Expr {
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
