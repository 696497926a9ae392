package analysis

// The slice of one unproven check: the part of the final data flow graph
// whose values can make the check fail, in source terms (issue 16).
//
// From the check site, the walk goes backwards along DFG edges —
// sequential and interference alike — keeping an edge u —X→ v only when
// the values it carries (X right after act(u) from Φ(u)) meet the values
// that are bad at v, and carries the bad values back through act(u)
// (dfg.Solver.Pre: a linear assignment x := y + 1 turns "x < 0" into
// "y < -1"; an assume keeps them). It stops at the actions that introduce
// bad values from nothing (havoc, constants, initial values, the ⊥
// source); a constant assignment made bad by the branch that led to it
// (t := 0 from lowering &&) follows the branch conditions instead. Bad
// values are per variable (a box per conjunct of the check, a few disjoint
// intervals per variable after that): a relation between two variables is
// not followed, so a slice may hold an edge that cannot carry a bad value
// — never miss one that can (every test meets over-approximations), as
// long as the walk is not cut.
//
// The location-level slice is then shown per C statement: locations of
// one template on one source line are one node; edges inside a node are
// dropped (except interference, which is another thread running the same
// statement), and φ locations (which pass a value on without writing it)
// are skipped over. A budget bounds both the walk (edges examined) and
// the statements shown (the nearest to the check), and the Slice says
// what it cut.

import (
	"fmt"
	"go/token"
	"slices"
	"sort"
	"strings"
	"time"

	"chorus/cfg"
	"chorus/dfg"
	"chorus/domains"
)

// Slice is the explanation of one unproven check.
type Slice struct {
	Check *cfg.Check
	// Failing describes the states at the check on which its condition
	// fails, e.g. "t10 in [-2147483648, -1]".
	Failing string
	Nodes   []*SliceNode // Nodes[0] is the check's statement
	Edges   []*SliceEdge // sorted by target, then source
	// Cut says what the budget left out ("" when nothing): statements not
	// shown, or a walk stopped before it was complete.
	Cut string
	// CutStatements counts the statements with relevant edges that are
	// not shown; CutEdges the relevant edges into shown statements from
	// them.
	CutStatements, CutEdges int
	// Truncated: the walk stopped at its step budget, so sources beyond
	// it are missing entirely.
	Truncated bool
}

// NodeKind says what a statement of a slice does.
type NodeKind int

// The node kinds.
const (
	NodeCheck  NodeKind = iota // the check itself
	NodeWrite                  // computes a bad value from values it reads
	NodeTest                   // a branch condition (assume) the bad values pass
	NodeSource                 // introduces bad values: havoc, constant, initial value
	NodeAny                    // the ⊥ source: any value (uninitialized or unknown)
)

func (k NodeKind) String() string {
	return [...]string{"check", "write", "test", "source", "any"}[k]
}

// SliceNode is one C statement of a slice (the locations of one template
// on one source line), or the ⊥ source.
type SliceNode struct {
	ID       int
	Kind     NodeKind
	Template string         // the thread template ("" for ⊥)
	Pos      token.Position // of its first location (file:line:col)
	Actions  []string       // the IR actions of its locations, in ID order
	Locs     []*cfg.Loc
	// Introduces says how a NodeSource or NodeAny node makes bad values
	// ("havoc", "constant 0", "initial value", "any value").
	Introduces string
	// Values are the intervals at the statement (before its first
	// relevant location) of the variables whose bad values the slice
	// follows there, e.g. "counter in [-2147483648, 0]".
	Values string
	Locks  []string // lock words held by a thread standing there (must-lockset)
	Atomic bool     // inside an atomic section
	// Dist is the number of statement-to-statement steps back from the check.
	Dist int
}

// SliceEdge is a DFG edge (or several on the same statements) of a slice:
// the values of Vars flowing From → To.
type SliceEdge struct {
	From, To     int // node IDs
	Interference bool
	// Control marks a branch edge: the values at To are bad because the
	// thread took the branch (Via) at From, not because of data flowing.
	Control bool
	// Back marks a feedback edge: its source is no farther from the check
	// than its target (values going around a loop, or back and forth
	// between statements). The other edges form a DAG leading to the
	// check; renderers may leave feedback edges out (and say so).
	Back bool
	// Vars lists the variables carried, their values ("counter in [-5,
	// 7]") and the part of them that can make the check fail.
	Vars []SliceVar
	// For interference edges: the writing thread's template, the locks it
	// surely holds and whether it is inside an atomic section; the locks
	// the reading thread surely holds.
	Writer       string
	WriterLocks  []string
	WriterAtomic bool
	ReaderLocks  []string
	// Via lists the conditions of the branches (assumes) the values come
	// out of, e.g. "(counter <= 0)": a test passes values on, it does not
	// make them.
	Via []string
}

// SliceVar is one variable an edge carries.
type SliceVar struct {
	Name        string
	Carried     domains.Interval // what the edge carries
	Bad         domains.Interval // the part of it the slice follows
	CarriedText string           // "in [-5, 7]" or "= 0"
	BadText     string
}

// Label renders the variables as "counter in [-5, 7]".
func (e *SliceEdge) Label() string {
	var parts []string
	for _, v := range e.Vars {
		parts = append(parts, v.Name+" "+v.CarriedText)
	}
	return strings.Join(parts, ", ")
}

// SliceOption configures Result.Slice.
type SliceOption func(*sliceConfig)

type sliceConfig struct {
	maxStatements int
	maxSteps      int
	timeLimit     time.Duration
}

// WithSliceTimeLimit stops the walk after d (0: no limit, the default);
// the slice then says it was cut.
func WithSliceTimeLimit(d time.Duration) SliceOption {
	return func(c *sliceConfig) { c.timeLimit = d }
}

// WithSliceStatements bounds the statements a slice shows (default 12).
func WithSliceStatements(n int) SliceOption {
	return func(c *sliceConfig) { c.maxStatements = max(n, 1) }
}

// WithSliceSteps bounds the work of the walk: the DFG edges it examines
// (default 20,000; a hub counts once per source it stands for). Large
// drivers whose bad values spread to every value reach it (aztcd, on a
// loaded machine: 0.8 s per slice with 50,000); the walk visits in
// breadth-first order, so the nearest statements are found long before.
func WithSliceSteps(n int) SliceOption { return func(c *sliceConfig) { c.maxSteps = max(n, 1) } }

// sliceWalk is the location-level state of the walk.
type sliceWalk struct {
	r      *Result
	g      *dfg.Graph
	s      *dfg.Solver
	part   *dfg.Partition
	check  *cfg.Loc
	want   map[*cfg.Loc]map[*cfg.Var][]domains.Interval // bad values right after act(u), per variable
	grows  map[*cfg.Loc]map[*cfg.Var]int
	pres   map[*cfg.Loc][]dfg.Box // bad values at u (before act(u)), one box per wanted variable
	edges  map[locEdge]*locEdgeInfo
	order  []locEdge
	queue  []*cfg.Loc
	queued map[*cfg.Loc]bool
	steps  int
	// controlled: constant assignments whose branches were followed;
	// ctl: the bad values at those branches (kept apart from pres, which
	// wantAfter recomputes).
	controlled map[*cfg.Loc]bool
	ctl        map[*cfg.Loc][]dfg.Box
}

type locEdge struct {
	src, dst     *cfg.Loc // src nil: ⊥
	cell         dfg.CellID
	interference bool
}

type locEdgeInfo struct {
	carried, bad map[*cfg.Var]domains.Interval
	vars         []*cfg.Var
}

// Slice computes the slice of an unproven check (nil for a proven or
// unreachable one, or when the result has no solver).
func (r *Result) Slice(c CheckResult, opts ...SliceOption) *Slice {
	if c.Status != Unproven || c.Check == nil || c.Check.Loc == nil || r.Solver == nil || r.Graph == nil {
		return nil
	}
	act, ok := c.Check.Loc.Act.(*cfg.CheckAct)
	if !ok {
		return nil
	}
	cfgs := sliceConfig{maxStatements: 12, maxSteps: 20000}
	for _, o := range opts {
		o(&cfgs)
	}
	loc := c.Check.Loc
	// A check fails when one of its conjuncts does: one box of bad values
	// per conjunct keeps "i < 0 or i >= 10" apart (their hull would be
	// every value).
	var failing []dfg.Box
	var failText []string
	for _, conj := range conjuncts(act.Cond, nil) {
		if b, ok := r.Solver.At(loc).Failing(conj); ok {
			b = narrowedOnly(b, r.Solver.At(loc))
			failing = append(failing, b)
			failText = append(failText, boxText(b, loadedFrom(loc)))
		}
	}
	if len(failing) == 0 {
		return nil
	}
	w := &sliceWalk{
		r: r, g: r.Graph, s: r.Solver, part: r.Graph.Partition(), check: loc,
		want: map[*cfg.Loc]map[*cfg.Var][]domains.Interval{}, grows: map[*cfg.Loc]map[*cfg.Var]int{},
		pres: map[*cfg.Loc][]dfg.Box{loc: failing}, edges: map[locEdge]*locEdgeInfo{},
		queued: map[*cfg.Loc]bool{}, controlled: map[*cfg.Loc]bool{},
		ctl: map[*cfg.Loc][]dfg.Box{},
	}
	w.push(loc)
	truncated, timedOut := false, false
	start := time.Now()
	for len(w.queue) > 0 {
		if w.steps >= cfgs.maxSteps {
			truncated = true
			break
		}
		if cfgs.timeLimit > 0 && time.Since(start) > cfgs.timeLimit {
			truncated, timedOut = true, true
			break
		}
		u := w.queue[0]
		w.queue = w.queue[1:]
		w.queued[u] = false
		w.visit(u)
	}
	sl := w.present(cfgs.maxStatements)
	sl.Check = c.Check
	sl.Failing = strings.Join(failText, " or ")
	sl.Truncated = truncated
	var cut []string
	if sl.CutStatements > 0 {
		cut = append(cut, fmt.Sprintf("%d more statement(s) with %d edge(s) into those shown", sl.CutStatements, sl.CutEdges))
	}
	switch {
	case timedOut:
		cut = append(cut, fmt.Sprintf("the walk stopped after %v (%d edges examined); sources farther back are missing", cfgs.timeLimit, w.steps))
	case truncated:
		cut = append(cut, fmt.Sprintf("the walk stopped after examining %d edges; sources farther back are missing", w.steps))
	}
	sl.Cut = strings.Join(cut, "; ")
	return sl
}

func (w *sliceWalk) push(u *cfg.Loc) {
	if !w.queued[u] {
		w.queued[u] = true
		w.queue = append(w.queue, u)
	}
}

// visit follows the edges into u whose carried values meet the bad
// values at u, and widens the bad values wanted after each source.
func (w *sliceWalk) visit(u *cfg.Loc) {
	pres := append(slices.Clone(w.pres[u]), w.ctl[u]...)
	if len(pres) == 0 {
		return
	}
	for _, he := range w.g.Edges(u) {
		if he.Cell == dfg.ControlCell {
			continue
		}
		vars := w.part.Cell(he.Cell).Vars
		var rel []dfg.Box // the boxes that say something about the cell
		for _, pre := range pres {
			if slices.ContainsFunc(vars, func(x *cfg.Var) bool { _, ok := pre[x]; return ok }) {
				rel = append(rel, pre)
			}
		}
		if len(rel) == 0 {
			continue
		}
		for _, e := range w.g.Expand(he) {
			w.steps++
			for _, pre := range rel {
				w.follow(e, vars, pre)
				if e.AlsoInterference {
					// a sequential edge that is also an interference
					// edge from another instance of its source (dfg/mixed.go)
					ie := e
					ie.Interference, ie.AlsoInterference = true, false
					w.follow(ie, vars, pre)
				}
			}
		}
	}
}

// follow records e when, for every variable of its cell that pre
// constrains, the values e carries meet pre's; then the source must
// produce those values.
func (w *sliceWalk) follow(e dfg.Edge, cellVars []*cfg.Var, pre dfg.Box) {
	var vars []*cfg.Var
	carried := map[*cfg.Var]domains.Interval{}
	bad := map[*cfg.Var]domains.Interval{}
	for _, x := range cellVars {
		iv, ok := pre[x]
		if !ok {
			continue
		}
		c := w.s.PostInterval(e.Src, x)
		m := c.Meet(iv)
		if m.IsEmpty() {
			return
		}
		vars = append(vars, x)
		carried[x], bad[x] = c, m
	}
	if len(vars) == 0 {
		return
	}
	k := locEdge{src: e.Src, dst: e.Dst, cell: e.Cell, interference: e.Interference}
	info := w.edges[k]
	if info == nil {
		info = &locEdgeInfo{carried: map[*cfg.Var]domains.Interval{}, bad: map[*cfg.Var]domains.Interval{}}
		w.edges[k] = info
		w.order = append(w.order, k)
	}
	for _, x := range vars {
		if _, ok := info.carried[x]; !ok {
			info.vars = append(info.vars, x)
			info.carried[x], info.bad[x] = carried[x], bad[x]
		} else {
			info.bad[x] = info.bad[x].Join(bad[x])
		}
	}
	if e.Src == nil {
		return
	}
	w.wantAfter(e.Src, bad)
}

// wantAfter adds bad to the values wanted after act(u) — per variable a
// short list of disjoint intervals, so that "i < 0 or i >= 10" stays two
// (their hull would be every value) — and when that grows recomputes u's
// bad values before it and visits u again. A variable whose wanted values
// grew three times goes to all the values u can give it (the walk must
// end; wider bad values only keep more edges).
func (w *sliceWalk) wantAfter(u *cfg.Loc, bad map[*cfg.Var]domains.Interval) {
	cur := w.want[u]
	if cur == nil {
		cur = map[*cfg.Var][]domains.Interval{}
		w.want[u] = cur
		w.grows[u] = map[*cfg.Var]int{}
	}
	changed := false
	for x, iv := range bad {
		list := cur[x]
		if slices.ContainsFunc(list, func(o domains.Interval) bool { return o.Includes(iv) }) {
			continue
		}
		if len(list) > 0 {
			w.grows[u][x]++
		}
		list = addInterval(list, iv)
		if w.grows[u][x] > 3 || len(list) > 4 {
			h := w.s.PostInterval(u, x).Meet(hull(list))
			if w.grows[u][x] > 3 {
				h = w.s.PostInterval(u, x)
			}
			list = []domains.Interval{h}
		}
		cur[x] = list
		changed = true
	}
	if !changed {
		return
	}
	if a, ok := u.Act.(*cfg.Assign); ok && !readsVars(a.Src) && !w.controlled[u] {
		w.controlled[u] = true
		w.branchesInto(u)
	}
	w.pres[u] = w.pres[u][:0]
	for _, x := range sortedKeys(cur) {
		for _, iv := range cur[x] {
			if pre, ok := w.s.Pre(u, dfg.Box{x: iv}); ok && len(pre) > 0 {
				w.pres[u] = append(w.pres[u], narrowedOnly(pre, w.s.At(u)))
			}
		}
	}
	w.push(u)
}

// addInterval adds iv to a sorted list of disjoint intervals, merging
// those it overlaps or touches.
func addInterval(list []domains.Interval, iv domains.Interval) []domains.Interval {
	out := []domains.Interval{}
	for _, o := range list {
		touch := iv.Lo.Cmp(o.Hi.Add(domains.Finite(1))) <= 0 && o.Lo.Cmp(iv.Hi.Add(domains.Finite(1))) <= 0
		if touch {
			iv = iv.Join(o)
		} else {
			out = append(out, o)
		}
	}
	out = append(out, iv)
	sort.Slice(out, func(i, j int) bool { return out[i].Lo.Cmp(out[j].Lo) < 0 })
	return out
}

func hull(list []domains.Interval) domains.Interval {
	h := list[0]
	for _, o := range list[1:] {
		h = h.Join(o)
	}
	return h
}

func sortedKeys[T any](m map[*cfg.Var]T) []*cfg.Var {
	vs := make([]*cfg.Var, 0, len(m))
	for x := range m {
		vs = append(vs, x)
	}
	sort.Slice(vs, func(i, j int) bool { return vs[i].ID < vs[j].ID })
	return vs
}

// narrowedOnly drops from a box of bad values the variables it does not
// narrow (their bad values are all their values at the location) when it
// narrows some other variable: in "m > 0 && j > 0" with j = 3 everywhere,
// only m's values can break the check, and j's sources explain nothing.
func narrowedOnly(b dfg.Box, st *dfg.State) dfg.Box {
	narrowed := func(x *cfg.Var) bool { return !b[x].Includes(st.Interval(x)) }
	some := false
	for x := range b {
		some = some || narrowed(x)
	}
	if !some {
		return b
	}
	out := dfg.Box{}
	for x, iv := range b {
		if narrowed(x) {
			out[x] = iv
		}
	}
	return out
}

// branchesInto follows control dependence for a constant assignment u
// (t := 0 from lowering "m > 0 && j > 0"): the value is bad because the
// thread took the branches leading to u. The assumes on the CFG paths into
// u within its statement that can hold become sources of bad values too,
// with the values of their variables under which they hold; a control edge
// assume → u links them.
func (w *sliceWalk) branchesInto(u *cfg.Loc) {
	seen := map[*cfg.Loc]bool{u: true}
	stack := slices.Clone(u.Preds)
	for budget := 32; len(stack) > 0 && budget > 0; budget-- {
		l := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[l] || keyOf(l) != keyOf(u) {
			continue
		}
		seen[l] = true
		a, ok := l.Act.(*cfg.Assume)
		if !ok {
			stack = append(stack, l.Preds...)
			continue
		}
		st := w.s.At(l)
		holds, ok := st.Failing(&cfg.Unary{Op: cfg.Not, X: a.Cond, Type: cfg.Bool})
		if !ok {
			continue // the branch cannot be taken: no path through it
		}
		stack = append(stack, l.Preds...)
		if len(holds) == 0 {
			continue
		}
		k := locEdge{src: l, dst: u, cell: dfg.ControlCell}
		if w.edges[k] == nil {
			w.edges[k] = &locEdgeInfo{}
			w.order = append(w.order, k)
		}
		w.ctl[l] = append(w.ctl[l], narrowedOnly(holds, st))
		w.push(l)
	}
}

// conjuncts splits a condition at its top-level &&.
func conjuncts(e cfg.Expr, out []cfg.Expr) []cfg.Expr {
	if b, ok := e.(*cfg.Binary); ok && b.Op == cfg.LAnd {
		return conjuncts(b.Y, conjuncts(b.X, out))
	}
	return append(out, e)
}

func sortedVars(b dfg.Box) []*cfg.Var {
	vs := make([]*cfg.Var, 0, len(b))
	for x := range b {
		vs = append(vs, x)
	}
	sort.Slice(vs, func(i, j int) bool { return vs[i].ID < vs[j].ID })
	return vs
}

// loadedFrom maps the registers loaded in the check's statement (t10 :=
// counter, lowered from "assert(counter >= 0)") to the variable they copy,
// so that the failing values read in source terms.
func loadedFrom(check *cfg.Loc) map[*cfg.Var]*cfg.Var {
	m := map[*cfg.Var]*cfg.Var{}
	seen := map[*cfg.Loc]bool{}
	stack := []*cfg.Loc{check}
	for len(stack) > 0 && len(seen) < 32 {
		l := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[l] || keyOf(l) != keyOf(check) {
			continue
		}
		seen[l] = true
		stack = append(stack, l.Preds...)
		if a, ok := l.Act.(*cfg.Assign); ok {
			if d, ok := a.Dst.(*cfg.VarRef); ok && d.Var.Type == a.Src.ExprType() {
				if src := subjectVar(a.Src); src != nil && m[d.Var] == nil {
					m[d.Var] = src
				}
			}
		}
	}
	return m
}

// boxText is boxString with loaded registers named by their source.
func boxText(b dfg.Box, from map[*cfg.Var]*cfg.Var) string {
	var parts []string
	for _, x := range sortedVars(b) {
		name := displayName(x)
		if y := from[x]; y != nil {
			name = displayName(y)
		}
		parts = append(parts, name+" "+valueText(b[x]))
	}
	return strings.Join(parts, " ∧ ")
}

// stmtKey identifies a statement: the locations of one template on one
// source line (nil template: the ⊥ source).
type stmtKey struct {
	tmpl *cfg.Template
	file string
	line int
}

func keyOf(l *cfg.Loc) stmtKey {
	if l == nil {
		return stmtKey{}
	}
	return stmtKey{tmpl: l.Template, file: l.Pos.Filename, line: l.Pos.Line}
}

// present groups the location-level slice into statements, keeps the
// nearest maxStatements of them and labels the edges.
func (w *sliceWalk) present(maxStatements int) *Slice {
	order, infos := w.contract()
	// Distances: 0-1 BFS backwards from the check, an edge inside one
	// statement costing 0.
	into := map[*cfg.Loc][]locEdge{}
	for _, k := range order {
		into[k.dst] = append(into[k.dst], k)
	}
	dist := map[*cfg.Loc]int{w.check: 0}
	distBot := -1
	// 0-1 BFS: locations reached by a 0-weight edge go on a stack popped
	// before the queue (a deque's front).
	var zero []*cfg.Loc
	queue := []*cfg.Loc{w.check}
	for len(zero) > 0 || len(queue) > 0 {
		var v *cfg.Loc
		if n := len(zero); n > 0 {
			v, zero = zero[n-1], zero[:n-1]
		} else {
			v, queue = queue[0], queue[1:]
		}
		for _, k := range into[v] {
			d := dist[v]
			if keyOf(k.src) != keyOf(v) || k.interference {
				d++
			}
			if k.src == nil {
				if distBot < 0 || d < distBot {
					distBot = d
				}
				continue
			}
			if old, ok := dist[k.src]; ok && old <= d {
				continue
			}
			dist[k.src] = d
			if d == dist[v] {
				zero = append(zero, k.src)
			} else {
				queue = append(queue, k.src)
			}
		}
	}
	// Statements with their distance.
	type stmt struct {
		key  stmtKey
		locs []*cfg.Loc
		dist int
	}
	stmts := map[stmtKey]*stmt{}
	for l, d := range dist {
		k := keyOf(l)
		st := stmts[k]
		if st == nil {
			st = &stmt{key: k, dist: d}
			stmts[k] = st
		}
		st.locs = append(st.locs, l)
		st.dist = min(st.dist, d)
	}
	if distBot >= 0 {
		stmts[stmtKey{}] = &stmt{dist: distBot}
	}
	all := make([]*stmt, 0, len(stmts))
	for _, st := range stmts {
		slices.SortFunc(st.locs, func(a, b *cfg.Loc) int { return a.ID - b.ID })
		all = append(all, st)
	}
	checkKey := keyOf(w.check)
	sort.Slice(all, func(i, j int) bool {
		a, b := all[i], all[j]
		if (a.key == checkKey) != (b.key == checkKey) {
			return a.key == checkKey
		}
		if a.dist != b.dist {
			return a.dist < b.dist
		}
		if (a.key.tmpl == nil) != (b.key.tmpl == nil) {
			return b.key.tmpl == nil
		}
		return a.locs[0].ID < b.locs[0].ID
	})
	sl := &Slice{}
	shown := map[stmtKey]*SliceNode{}
	for i, st := range all {
		if i >= maxStatements {
			break
		}
		n := w.node(st.key, st.locs)
		n.ID, n.Dist = len(sl.Nodes), st.dist
		sl.Nodes = append(sl.Nodes, n)
		shown[st.key] = n
	}
	sl.CutStatements = len(all) - len(sl.Nodes)
	// Edges between shown statements, merged per (from, to, interference).
	type ekey struct {
		from, to int
		interf   bool
		control  bool
	}
	merged := map[ekey]*SliceEdge{}
	var keys []ekey
	for _, k := range order {
		to, ok := shown[keyOf(k.dst)]
		if !ok {
			continue
		}
		from, ok := shown[keyOf(k.src)]
		if !ok {
			sl.CutEdges++
			continue
		}
		if from == to && !k.interference {
			continue
		}
		ek := ekey{from: from.ID, to: to.ID, interf: k.interference, control: k.cell == dfg.ControlCell}
		e := merged[ek]
		if e == nil {
			e = &SliceEdge{From: from.ID, To: to.ID, Interference: k.interference, Control: ek.control}
			if k.interference {
				e.Writer = k.src.Template.Name
				e.WriterLocks = w.locks(k.src)
				e.WriterAtomic = k.src.Atomic
				e.ReaderLocks = w.locks(k.dst)
			}
			merged[ek] = e
			keys = append(keys, ek)
		}
		if k.src == nil {
			// the ⊥ source: no action
		} else if a, ok := k.src.Act.(*cfg.Assume); ok {
			if c := dfg.ExprString(a.Cond); !slices.Contains(e.Via, c) {
				e.Via = append(e.Via, c)
			}
		}
		info := infos[k]
		for _, x := range info.vars {
			e.addVar(x, info.carried[x], info.bad[x])
		}
	}
	for _, ek := range keys {
		e := merged[ek]
		e.Back = e.From != e.To && sl.Nodes[e.From].Dist <= sl.Nodes[e.To].Dist
		sl.Edges = append(sl.Edges, e)
	}
	sort.SliceStable(sl.Edges, func(i, j int) bool {
		a, b := sl.Edges[i], sl.Edges[j]
		if a.To != b.To {
			return a.To < b.To
		}
		return a.From < b.From
	})
	return sl
}

// transparent reports whether the edge's source passes the cell's value
// on without writing it (a φ location of the DFG, dfg/doc.go): such a
// source explains nothing and is skipped over in the presentation.
func (w *sliceWalk) transparent(k locEdge) bool {
	return k.src != nil && k.cell != dfg.ControlCell && k.src != w.check &&
		!slices.Contains(w.g.Mod(k.src), k.cell)
}

// contract replaces every edge out of a transparent source by edges from
// the sources that feed it (through chains of them), carrying what those
// sources carry; an edge becomes interference when a part of it is.
func (w *sliceWalk) contract() ([]locEdge, map[locEdge]*locEdgeInfo) {
	into := map[*cfg.Loc][]locEdge{}
	for _, k := range w.order {
		into[k.dst] = append(into[k.dst], k)
	}
	// feeders returns the non-transparent edges reaching u's value of
	// cell through transparent locations (memoized per location and cell;
	// false when the work budget is spent: the edge is then kept as is).
	type memoKey struct {
		u    *cfg.Loc
		cell dfg.CellID
	}
	memo := map[memoKey][]locEdge{}
	work := 0
	var collect func(u *cfg.Loc, cell dfg.CellID, seen map[*cfg.Loc]bool, out []locEdge) []locEdge
	collect = func(u *cfg.Loc, cell dfg.CellID, seen map[*cfg.Loc]bool, out []locEdge) []locEdge {
		if seen[u] {
			return out
		}
		seen[u] = true
		for _, k := range into[u] {
			work++
			if k.cell != cell {
				continue
			}
			if w.transparent(k) {
				out = collect(k.src, cell, seen, out)
			} else {
				out = append(out, k)
			}
		}
		return out
	}
	feeders := func(u *cfg.Loc, cell dfg.CellID) ([]locEdge, bool) {
		k := memoKey{u, cell}
		if f, ok := memo[k]; ok {
			return f, true
		}
		if work > 100000 {
			return nil, false
		}
		f := collect(u, cell, map[*cfg.Loc]bool{}, nil)
		memo[k] = f
		return f, true
	}
	var order []locEdge
	infos := map[locEdge]*locEdgeInfo{}
	add := func(k locEdge, carriedFrom, badFrom *locEdgeInfo) {
		info := infos[k]
		if info == nil {
			info = &locEdgeInfo{carried: map[*cfg.Var]domains.Interval{}, bad: map[*cfg.Var]domains.Interval{}}
			infos[k] = info
			order = append(order, k)
		}
		for _, x := range badFrom.vars {
			c, ok := carriedFrom.carried[x]
			if !ok {
				continue
			}
			b := c.Meet(badFrom.bad[x])
			if b.IsEmpty() {
				continue
			}
			if old, ok := info.carried[x]; ok {
				info.carried[x], info.bad[x] = old.Join(c), info.bad[x].Join(b)
			} else {
				info.vars = append(info.vars, x)
				info.carried[x], info.bad[x] = c, b
			}
		}
		if k.cell == dfg.ControlCell && len(badFrom.vars) == 0 {
			return // a control edge carries no values
		}
		if len(info.vars) == 0 {
			delete(infos, k)
			order = order[:len(order)-1]
		}
	}
	for _, k := range w.order {
		var fs []locEdge
		ok := w.transparent(k)
		if ok {
			fs, ok = feeders(k.src, k.cell)
		}
		if !ok {
			add(k, w.edges[k], w.edges[k])
			continue
		}
		for _, f := range fs {
			nk := locEdge{src: f.src, dst: k.dst, cell: k.cell, interference: f.interference || k.interference}
			add(nk, w.edges[f], w.edges[k])
		}
	}
	return order, infos
}

func (e *SliceEdge) addVar(x *cfg.Var, carried, bad domains.Interval) {
	for i := range e.Vars {
		v := &e.Vars[i]
		if v.Name == displayName(x) {
			v.Carried, v.Bad = v.Carried.Join(carried), v.Bad.Join(bad)
			v.CarriedText, v.BadText = valueText(v.Carried), valueText(v.Bad)
			return
		}
	}
	e.Vars = append(e.Vars, SliceVar{Name: displayName(x), Carried: carried, Bad: bad,
		CarriedText: valueText(carried), BadText: valueText(bad)})
}

// locks names the lock words a thread standing at l surely holds.
func (w *sliceWalk) locks(l *cfg.Loc) []string {
	if l == nil || w.r.Engine == nil {
		return nil
	}
	var out []string
	for _, v := range w.r.Engine.HeldLocks(l) {
		out = append(out, v.Name)
	}
	return out
}

// node builds the SliceNode of a statement.
func (w *sliceWalk) node(k stmtKey, locs []*cfg.Loc) *SliceNode {
	if k.tmpl == nil {
		return &SliceNode{Kind: NodeAny, Introduces: "any value (uninitialized, or not known at thread start)"}
	}
	n := &SliceNode{Template: k.tmpl.Name, Pos: locs[0].Pos, Locs: locs, Kind: NodeTest}
	for _, l := range locs {
		n.Actions = append(n.Actions, dfg.ActionString(l.Act))
		if l.Pos.Column > 0 && (n.Pos.Column == 0 || l.Pos.Column < n.Pos.Column) {
			n.Pos.Column = l.Pos.Column
		}
	}
	n.Locks = w.locks(locs[0])
	n.Atomic = locs[0].Atomic
	var values []string
	seen := map[*cfg.Var]bool{}
	for _, l := range locs {
		if l == w.check {
			n.Kind = NodeCheck
		}
		for _, x := range sortedKeys(w.want[l]) {
			if n.Kind != NodeCheck && writes(l.Act, x) {
				if intro := introduces(l.Act); intro != "" {
					n.Kind, n.Introduces = NodeSource, intro
				} else if n.Kind != NodeSource {
					n.Kind = NodeWrite
				}
			}
		}
		for _, pre := range w.pres[l] {
			for _, x := range sortedVars(pre) {
				iv := w.s.At(l).Interval(x)
				if !seen[x] && !iv.Equal(typeRangeOf(x)) {
					seen[x] = true
					values = append(values, displayName(x)+" "+valueText(iv))
				}
			}
		}
	}
	n.Values = strings.Join(values, ", ")
	return n
}

// writes reports whether act really changes x (an assume or a check only
// filters its values).
func writes(act cfg.Action, x *cfg.Var) bool {
	switch a := act.(type) {
	case *cfg.Assign:
		return lvalueHas(a.Dst, x)
	case *cfg.Havoc:
		return lvalueHas(a.Dst, x)
	case *cfg.Alloc:
		return lvalueHas(a.Dst, x)
	case *cfg.Acquire:
		return lvalueHas(a.Lock, x)
	case *cfg.Release:
		return lvalueHas(a.Lock, x)
	case *cfg.Spawn:
		for _, t := range a.Targets {
			if t.Param == x {
				return true
			}
		}
		return a.Handle != nil && lvalueHas(a.Handle, x)
	case *cfg.InitGlobals:
		return x.Scope == cfg.Global
	}
	return false
}

func lvalueHas(lv cfg.LValue, x *cfg.Var) bool {
	switch d := lv.(type) {
	case *cfg.VarRef:
		return d.Var == x
	case *cfg.Deref:
		return slices.Contains(d.Cells, x)
	}
	return false
}

// introduces names how act makes a value from nothing ("" when the value
// it writes is computed from variables it reads).
func introduces(act cfg.Action) string {
	switch a := act.(type) {
	case *cfg.Havoc:
		return "any value (nondeterministic input or unknown function)"
	case *cfg.Alloc:
		return "fresh allocation"
	case *cfg.InitGlobals:
		return "initial value"
	case *cfg.Acquire:
		return "lock acquired (1)"
	case *cfg.Release:
		return "lock released (0)"
	case *cfg.Assign:
		if c, ok := a.Src.(*cfg.Const); ok {
			return fmt.Sprintf("constant %d", c.Value)
		}
		if !readsVars(a.Src) {
			return "constant " + dfg.ExprString(a.Src)
		}
	case *cfg.Spawn:
		if a.Arg == nil || !readsVars(a.Arg) {
			return "thread argument"
		}
	}
	return ""
}

// readsVars reports whether e reads a register or memory.
func readsVars(e cfg.Expr) bool {
	found := false
	cfg.InspectExpr(e, func(x cfg.Expr) bool {
		switch x.(type) {
		case *cfg.VarRef, *cfg.Deref:
			found = true
		}
		return !found
	})
	return found
}

// typeRangeOf is the range of x's type: a value that says nothing is left
// out of a node's values.
func typeRangeOf(x *cfg.Var) domains.Interval { return dfg.TypeRange(x.Type) }

// displayName is a variable's name as in the C source: a local without its
// function prefix ("main.k" is k).
func displayName(x *cfg.Var) string {
	if x.Scope == cfg.Local {
		if i := strings.LastIndexByte(x.Name, '.'); i >= 0 && i+1 < len(x.Name) {
			return x.Name[i+1:]
		}
	}
	return x.Name
}

// valueText renders an interval after a variable's name: "in [-5, 7]",
// "= 0", "none".
func valueText(iv domains.Interval) string {
	s := intervalString(iv)
	if strings.HasPrefix(s, "in ") || s == "none" {
		return s
	}
	return "= " + s
}
