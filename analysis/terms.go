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
// edge order (interferenceInto's: by source location, stably). Where it
// is cheap to tell (the check compares one variable with a constant and
// the writer assigns that variable), writes whose values cannot violate
// the check are left out.
func (r *Result) Writes(c CheckResult) []Write {
	if c.Interference == nil && c.Status != Unproven {
		return nil
	}
	r.writesMu.Lock()
	defer r.writesMu.Unlock()
	if ws, ok := r.writes[c.Check]; ok && c.Check != nil {
		return slices.Clip(ws)
	}
	if r.wr == nil {
		r.wr = &writeNames{srcIndex: map[srcWrite]int32{}, nameIndex: map[string]int32{}, byGroups: map[uint64][]writesOfGroups{}}
	}
	var out []Write
	var groups []dfg.Edge // writesInto's stored edges, when its result depends on nothing else
	switch {
	case c.Interference != nil:
		out = r.writesOfEdges(c, c.Interference)
	case c.Check != nil && c.Check.Loc != nil && r.Graph != nil:
		var shared bool
		out, groups, shared = r.writesInto(c)
		if shared {
			r.memoWrites(c, out) // (counted where first kept)
			return slices.Clip(out)
		}
	}
	if len(out) == 0 {
		return nil
	}
	// Memoized only within writesMemoBudget: past it a result is
	// recomputed when asked again, the same list.
	if r.wr.kept+len(out) <= writesMemoBudget {
		r.wr.kept += len(out)
		r.memoWrites(c, out)
		if groups != nil {
			h := groupsHash(groups)
			r.wr.byGroups[h] = append(r.wr.byGroups[h], writesOfGroups{groupKeys(groups), out})
		}
	}
	return slices.Clip(out)
}

// writesOfGroups is a writesInto result and the stored edges it came
// from, as (source, cell) pairs: checks whose sites read the same
// stored edges (memcached.c: 30 checks with the same 203,294 writes,
// through the same hubs) share it.
type writesOfGroups struct {
	keys []uint64
	out  []Write
}

// sourceCellKey is the (source, cell) pair of e as one integer.
func sourceCellKey(e dfg.Edge) uint64 { return uint64(e.Src.ID)<<32 | uint64(uint32(e.Cell)) }

// groupKeys is the (source, cell) sequence of the stored edges es.
func groupKeys(es []dfg.Edge) []uint64 {
	keys := make([]uint64, len(es))
	for i, e := range es {
		keys[i] = sourceCellKey(e)
	}
	return keys
}

// groupsHash hashes the (source, cell) sequence of es (FNV-1a).
func groupsHash(es []dfg.Edge) uint64 {
	h := uint64(14695981039346656037)
	for _, e := range es {
		h ^= sourceCellKey(e)
		h *= 1099511628211
	}
	return h
}

// writesOfEdges is Writes of an explicit list of edges, in its order.
func (r *Result) writesOfEdges(c CheckResult, edges []dfg.Edge) []Write {
	subject, op, k, filter := checkSubject(c.Check)
	var out []Write
	seen := map[uint64]bool{} // the writes in out, as writeKeys
	for _, e := range edges {
		val := r.writtenBy(e.Src)
		if val.ok && filter && r.carriesSubject(e, c.Check.Loc, subject) && !canViolate(val.iv, op, k) {
			continue // this write cannot break the check
		}
		key := writeKey(val.key, r.writeName(e.Cell))
		if !seen[key] {
			seen[key] = true
			out = append(out, r.writeOf(key))
		}
	}
	return out
}

// writesInto is Writes of the edges interferenceInto lists for c's site,
// without listing them. The list, expanded from hubs, is large where
// hubs are (ddverify/floppy.c: 149 M edges over 4,533 unproven checks,
// 13 s to list and order them, for 8.4 M writes), but a Write depends on
// an edge's source only through its position and value (writtenBy's key),
// which the many inlined copies of one function share. So Writes walks
// the stored edges (walkInterferenceGroups), and a hub's sources are read
// once per program as their distinct keys, each with its least source ID
// (hubWriters); a write comes first in the list at its least (source ID,
// stored edge) pair, the position its first edge has in interferenceInto's
// stable order by source. Where the filter applies to an edge (it
// carries the check's subject) its sources are read one by one.
//
// The result depends only on the sequence of stored edges when the
// filter applies to none of them: it then comes from, or is kept in,
// the memo of such sequences (byGroups); shared says it came from there,
// and groups is the sequence to keep it under (nil when filtered).
func (r *Result) writesInto(c CheckResult) (out []Write, groups []dfg.Edge, shared bool) {
	subject, op, k, filter := checkSubject(c.Check)
	var carries []bool // by stored edge: the filter applies to it (of its cell and destination only)
	filtered := false
	walkInterferenceGroups(r.Graph, c.Check.Loc, func(_ int, he dfg.Edge) {
		groups = append(groups, he)
		carries = append(carries, filter && r.carriesSubject(he, c.Check.Loc, subject))
		filtered = filtered || carries[len(carries)-1]
	})
	if !filtered {
		for _, m := range r.wr.byGroups[groupsHash(groups)] {
			if slices.EqualFunc(m.keys, groups, func(k uint64, e dfg.Edge) bool { return k == sourceCellKey(e) }) {
				r.wr.shared++
				return m.out, nil, true
			}
		}
	}
	type first struct {
		at  uint64 // the least (source ID, stored edge) of the write, as one integer
		key uint64
	}
	var firsts []first
	index := map[uint64]int{} // writeKey → index in firsts
	edge := uint64(0)
	offer := func(src int32, key uint64) {
		at := uint64(uint32(src))<<32 | edge
		if i, ok := index[key]; ok {
			firsts[i].at = min(firsts[i].at, at)
			return
		}
		index[key] = len(firsts)
		firsts = append(firsts, first{at, key})
	}
	for i, he := range groups {
		edge++
		name := r.writeName(he.Cell)
		srcs := r.Graph.HubSources(he.Src)
		if srcs == nil {
			srcs = []*cfg.Loc{he.Src}
		} else if !carries[i] {
			for _, hw := range r.hubWriters(he.Src, srcs) {
				offer(hw.src, writeKey(hw.key, name))
			}
			continue
		}
		for _, s := range srcs {
			val := r.writtenBy(s)
			if val.ok && carries[i] && !canViolate(val.iv, op, k) {
				continue // this write cannot break the check
			}
			offer(int32(s.ID), writeKey(val.key, name))
		}
	}
	slices.SortFunc(firsts, func(a, b first) int { return cmp.Compare(a.at, b.at) })
	out = make([]Write, len(firsts))
	for i, f := range firsts {
		out[i] = r.writeOf(f.key)
	}
	if filtered {
		groups = nil // (the result depends on the check's condition too)
	}
	return out, groups, false
}

// hubWriter is one distinct write identity among a hub's sources.
type hubWriter struct {
	src int32 // the least source ID with it
	key int32 // writtenBy's key
}

// hubWriters returns the distinct writtenBy keys of hub's sources srcs,
// memoized per hub (the sources of a hub never change after Analyze).
func (r *Result) hubWriters(hub *cfg.Loc, srcs []*cfg.Loc) []hubWriter {
	wr := r.wr
	if hw, ok := wr.hubWriters[hub]; ok {
		return hw
	}
	var hw []hubWriter
	at := map[int32]int{}
	for _, s := range srcs {
		key := r.writtenBy(s).key
		if i, ok := at[key]; ok {
			hw[i].src = min(hw[i].src, int32(s.ID))
			continue
		}
		at[key] = len(hw)
		hw = append(hw, hubWriter{int32(s.ID), key})
	}
	if wr.hubWriters == nil {
		wr.hubWriters = map[*cfg.Loc][]hubWriter{}
	}
	wr.hubWriters[hub] = hw
	return hw
}

// writeKey is a Write as one integer: its source's writtenBy key and its
// cell's name index. Writes with the same key are the same Write.
func writeKey(src, name int32) uint64 { return uint64(uint32(src))<<32 | uint64(uint32(name)) }

// writeOf is the Write of key.
func (r *Result) writeOf(key uint64) Write {
	sw := r.wr.srcWrites[int32(key>>32)-1]
	return Write{Pos: sw.pos, Var: r.wr.names[int32(uint32(key))], Value: sw.value}
}

// writesMemoBudget bounds the Writes entries the memo keeps (about 80
// bytes each): ddverify/floppy.c has thousands of unproven checks, each
// reached by thousands of writes.
var writesMemoBudget = 1 << 22

func (r *Result) memoWrites(c CheckResult, out []Write) {
	if c.Check != nil {
		if r.writes == nil {
			r.writes = map[*cfg.Check][]Write{}
		}
		r.writes[c.Check] = out
	}
}

// writeNames interns, for Writes, the cells' names and the sources'
// (position, value) pairs.
type writeNames struct {
	cellName   []int32 // per cell: index in names + 1 (0: not yet)
	names      []string
	nameIndex  map[string]int32
	written    []writtenValue // per source location ID (key 0: not yet)
	srcIndex   map[srcWrite]int32
	srcWrites  []srcWrite // by srcIndex's key - 1
	hubWriters map[*cfg.Loc][]hubWriter
	byGroups   map[uint64][]writesOfGroups // writesInto's unfiltered results by groupsHash
	shared     int                         // writesInto results taken from byGroups (for the tests)
	kept       int                         // Write entries in the memo's lists (writesMemoBudget)
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
			wr.srcWrites = append(wr.srcWrites, sw)
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
