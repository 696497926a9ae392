package dfg

import (
	"maps"
	"slices"
	"sync/atomic"

	"chorus/cfg"
)

// Published initial values. A thread reads the initial value of a global
// X along a sequential edge init —X→ r when it has not written X itself
// on its path to r: the edge stands for "no thread wrote X since program
// start". When the thread has seen a flag that some thread sets only
// after writing X, that is impossible:
//
//	thr: lock(m); switch (state) {
//	     case 0: seed = 1; state = 1; unlock(m); monitor(); break;   // the setter
//	     case 1: unlock(m); read = seed; ...                         // seed's init (0) is stale here
//	     }
//
// (SV-COMP pthread-ext/08_rand_cas, 07_rand; lazily initialized
// singletons.) Premises, checked on the program text only:
//
//   - P1 (the flag) f is a global register (not address-taken, not
//     thread-local) with a constant initial value c0, and every write of
//     f other than InitGlobals is f := c with a constant c ≠ c0;
//   - P2 (the setter) on every path from its template's entry to each
//     such write of f, the thread has definitely written (a strong,
//     non-assume write) every global of X at a location other than
//     InitGlobals;
//   - P3 (the reader) on every path from r's template's entry to r, the
//     thread saw f ≠ c0: an assume that is false when f, or a local
//     register holding a value loaded from f (t := f, copies of t), is
//     c0; or its own write of f.
//
// Then the edge init —X→ r is dropped, and replaced by interference
// edges w —X→ r from every location w ≠ init that writes a global of X
// (more edges are always sound; they give r a value in the first round,
// before the interference game has run, where the dropped edge gave the
// only one).
//
// Why this is sound for any number of threads: let a thread stand at r
// at time τ. By P3 it observed f ≠ c0 at some earlier τo (its load of f,
// or its own write). f starts at c0 and only writes f := c ≠ c0 change it
// (P1), so some thread executed such a write before τo; by P2 that thread
// had written all globals of X after program start before its write of
// f. So some write of X happened after InitGlobals and before τ: the
// last write of X before τ is not InitGlobals, and the init's values of
// X are not X's values at r. The last writer is another location, which
// reaches r along a sequential edge (the same thread) or an interference
// edge (the game's edges cover every cross-thread last writer); in a
// mixed cell the replacement edges are interference edges, so the
// thread's locals stay its own (a thread that has not written the cell
// has them unconstrained, as ∃L of the foreign value says); and where
// other sequential sources of a mixed cell reach r, the dropped edge is
// put back (restore: it also stood for the paths on which the thread's
// locals of the cell are unwritten, which ∃G of the other sources would
// constrain wrongly; prec_publish_mixed.c). Budgeted:
// programs up to pubMaxLocs locations, cells of up to 64 globals.

const pubMaxLocs = 1000

// pubOff turns the rule off (tests comparing with and without it).
var pubOff atomic.Bool

// pubRule decides which sequential edges from InitGlobals are stale.
type pubRule struct {
	g       *Graph
	init    *cfg.Loc
	unsound bool // UnsoundPublish: P2 not checked
	flags   []*pubFlag
	cells   map[CellID]*pubCell
	held    map[CellID][]*cfg.Loc // targets of dropped edges, per cell
}

type pubFlag struct {
	v       *cfg.Var
	c0      int64
	setters []*cfg.Loc
	saw     []bool // by Loc.ID: P3 holds before the location's action
}

type pubCell struct {
	flags []*pubFlag // flags whose setters satisfy P2 for the cell
}

// newPubRule returns nil when the program is too large or has no flag.
func newPubRule(g *Graph) *pubRule {
	p := g.prog
	if pubOff.Load() || g.pubNo || len(p.Locs) == 0 || len(p.Locs) > pubMaxLocs || len(p.Templates) == 0 {
		return nil
	}
	init := p.Templates[0].Entry
	if _, ok := init.Act.(*cfg.InitGlobals); !ok {
		return nil
	}
	r := &pubRule{g: g, init: init, cells: map[CellID]*pubCell{}, held: map[CellID][]*cfg.Loc{}}
	for _, v := range p.Vars {
		if v.Scope != cfg.Global || v.IsCell() || v.ThreadLocal || !v.Type.IsInt() {
			continue
		}
		c0 := int64(0)
		if v.Init != nil {
			c, ok := v.Init.(*cfg.Const)
			if !ok {
				continue
			}
			c0 = c.Value
		}
		f := &pubFlag{v: v, c0: c0}
		ok := true
		for _, l := range p.Locs {
			if l == init || !r.realWriter(l) {
				continue
			}
			for _, w := range g.acc[l.ID].writes {
				if w.v != v {
					continue
				}
				a, isAssign := l.Act.(*cfg.Assign)
				c, isConst := cfg.Expr(nil), false
				if isAssign {
					c = a.Src
					_, isConst = c.(*cfg.Const)
				}
				if !isAssign || w.weak || cfg.StrongTarget(a.Dst) != v || !isConst || c.(*cfg.Const).Value == c0 {
					ok = false
				}
			}
			if !ok {
				break
			}
			if a, isAssign := l.Act.(*cfg.Assign); isAssign && cfg.StrongTarget(a.Dst) == v {
				f.setters = append(f.setters, l)
			}
		}
		if ok && len(f.setters) > 0 {
			f.saw = r.sawAnalysis(f)
			r.flags = append(r.flags, f)
		}
	}
	if len(r.flags) == 0 {
		return nil
	}
	return r
}

// realWriter reports whether l's action may change a variable (assumes
// and checks only refine).
func (r *pubRule) realWriter(l *cfg.Loc) bool {
	switch l.Act.(type) {
	case *cfg.Assume, *cfg.CheckAct:
		return false
	}
	return len(r.g.acc[l.ID].writes) > 0
}

// stale reports whether the sequential edge e is a stale edge from
// InitGlobals (and records it for its replacement edges).
func (r *pubRule) stale(dst *cfg.Loc, e edge) bool {
	if r == nil || e.Src != r.init || dst == nil || e.Cell == ControlCell || e.Interference ||
		r.g.IsHub(e.Src) || r.g.IsHub(dst) {
		return false
	}
	pc := r.cell(e.Cell)
	for _, f := range pc.flags {
		if f.saw[dst.ID] {
			r.held[e.Cell] = append(r.held[e.Cell], dst)
			return true
		}
	}
	return false
}

// cell computes (once) the flags that publish cell x (P2).
func (r *pubRule) cell(x CellID) *pubCell {
	if pc, ok := r.cells[x]; ok {
		return pc
	}
	pc := &pubCell{}
	r.cells[x] = pc
	var gs []*cfg.Var
	for _, v := range r.g.part.Cell(x).Vars {
		if v.Scope == cfg.Global {
			if v.Summary || v.ThreadLocal {
				return pc
			}
			gs = append(gs, v)
		}
	}
	if len(gs) == 0 || len(gs) > 64 {
		return pc
	}
	var wrote map[*cfg.Template][]uint64
	for _, f := range r.flags {
		if r.unsound {
			pc.flags = append(pc.flags, f)
			continue
		}
		if wrote == nil {
			wrote = map[*cfg.Template][]uint64{}
		}
		all := uint64(1)<<len(gs) - 1
		if len(gs) == 64 {
			all = ^uint64(0)
		}
		ok := true
		for _, s := range f.setters {
			in, done := wrote[s.Template]
			if !done {
				in = r.wroteAnalysis(s.Template, gs)
				wrote[s.Template] = in
			}
			if in[s.ID]&all != all {
				ok = false
				break
			}
		}
		if ok {
			pc.flags = append(pc.flags, f)
		}
	}
	return pc
}

// wroteAnalysis returns, by Loc.ID, the bitset of gs that every path from
// t's entry has strongly written (outside InitGlobals) before the
// location's action: a forward must-analysis (meet: intersection).
func (r *pubRule) wroteAnalysis(t *cfg.Template, gs []*cfg.Var) []uint64 {
	p := r.g.prog
	idx := map[*cfg.Var]int{}
	for i, v := range gs {
		idx[v] = i
	}
	in := make([]uint64, len(p.Locs))
	seen := make([]bool, len(p.Locs))
	gen := func(l *cfg.Loc) uint64 {
		if l == r.init || !r.realWriter(l) {
			return 0
		}
		var b uint64
		for _, w := range r.g.acc[l.ID].writes {
			if i, ok := idx[w.v]; ok && !w.weak {
				b |= 1 << i
			}
		}
		return b
	}
	work := []*cfg.Loc{t.Entry}
	seen[t.Entry.ID] = true
	for len(work) > 0 {
		l := work[len(work)-1]
		work = work[:len(work)-1]
		out := in[l.ID] | gen(l)
		for _, s := range l.Succs {
			if s.Template != t || s == t.Entry {
				continue // the entry starts empty
			}
			if !seen[s.ID] {
				seen[s.ID] = true
				in[s.ID] = out
				work = append(work, s)
			} else if n := in[s.ID] & out; n != in[s.ID] {
				in[s.ID] = n
				work = append(work, s)
			}
		}
	}
	return in
}

// sawAnalysis returns, by Loc.ID, whether every path from the location's
// template entry has seen f ≠ c0 before the location's action (P3): a
// forward must-analysis of (saw, the local registers holding a loaded
// value of f).
func (r *pubRule) sawAnalysis(f *pubFlag) []bool {
	p := r.g.prog
	type fact struct {
		saw    bool
		copies map[*cfg.Var]bool
	}
	meet := func(a, b fact) (fact, bool) { // a ⊓ b, changed (w.r.t. a)
		out := fact{saw: a.saw && b.saw, copies: map[*cfg.Var]bool{}}
		for v := range a.copies {
			if b.copies[v] {
				out.copies[v] = true
			}
		}
		return out, out.saw != a.saw || len(out.copies) != len(a.copies)
	}
	transfer := func(l *cfg.Loc, in fact) fact {
		out := fact{saw: in.saw, copies: in.copies}
		drop := func(v *cfg.Var) {
			if v != nil && out.copies[v] {
				c := map[*cfg.Var]bool{}
				for k := range out.copies {
					if k != v {
						c[k] = true
					}
				}
				out.copies = c
			}
		}
		switch a := l.Act.(type) {
		case *cfg.Assume:
			if out.saw {
				break
			}
			vars := []*cfg.Var{f.v}
			for v := range out.copies {
				vars = append(vars, v)
			}
			for _, v := range vars {
				if x, ok := cfg.EvalFlags(a.Cond, cfg.FlagEnv{}.With(v.ID, f.c0)); ok && x == 0 {
					out.saw = true
					break
				}
			}
		case *cfg.Assign:
			dst := cfg.StrongTarget(a.Dst)
			if dst == f.v {
				out.saw = true // its own write f := c ≠ c0 (P1)
				break
			}
			if dst == nil || dst.Scope != cfg.Local || dst.IsCell() {
				break
			}
			src := cfg.StrongTarget(a.Src)
			if src != nil && (src == f.v || out.copies[src]) {
				c := map[*cfg.Var]bool{dst: true}
				for k := range out.copies {
					c[k] = true
				}
				out.copies = c
			} else {
				drop(dst)
			}
		default:
			for _, w := range r.g.acc[l.ID].writes {
				drop(w.v)
			}
		}
		return out
	}
	saw := make([]bool, len(p.Locs))
	for _, t := range p.Templates {
		facts := map[int]fact{t.Entry.ID: {copies: map[*cfg.Var]bool{}}}
		work := []*cfg.Loc{t.Entry}
		for len(work) > 0 {
			l := work[len(work)-1]
			work = work[:len(work)-1]
			out := transfer(l, facts[l.ID])
			for _, s := range l.Succs {
				if s.Template != t || s == t.Entry {
					continue
				}
				old, ok := facts[s.ID]
				if !ok {
					facts[s.ID] = out
					work = append(work, s)
					continue
				}
				if n, changed := meet(old, out); changed {
					facts[s.ID] = n
					work = append(work, s)
				}
			}
		}
		for id, fa := range facts {
			saw[id] = fa.saw
		}
	}
	return saw
}

// restore puts back, as sequential edges, the dropped edges into a mixed
// cell at a location that has other sequential sources of the cell: there
// the dropped edge also stood for the paths on which the thread has not
// yet written its locals of the cell (∃L of the init's value in the
// sequential join, mixed.go), which the other sources do not cover. Called
// at the end of the reaching definitions, before the relays.
func (r *pubRule) restore() {
	if r == nil {
		return
	}
	for _, x := range r.heldCells() {
		dsts := r.held[x]
		if !r.g.part.Cell(x).Mixed() {
			continue
		}
		var keep []*cfg.Loc
		for _, d := range dsts {
			other := false
			for _, e := range r.g.edges[d.ID] {
				if e.Cell == x && !e.Interference && e.Src != r.init {
					other = true
					break
				}
			}
			if other {
				r.g.addEdge(d, edge{Src: r.init, Cell: x})
			} else {
				keep = append(keep, d)
			}
		}
		r.held[x] = keep
	}
}

// heldCells lists the cells of held in increasing order: the edges a
// location gets are added in that order, and a map's order would make the
// graph differ between identical runs (the order of one location's edges
// on prec_publish_mixed.c varied; statuses did not).
func (r *pubRule) heldCells() []CellID { return slices.Sorted(maps.Keys(r.held)) }

// replace adds the replacement interference edges of the dropped ones:
// from every location other than InitGlobals that writes a global of the
// cell. Called at the end of build (interference edges come after the
// sequential ones of a location).
func (r *pubRule) replace() {
	if r == nil || len(r.held) == 0 {
		return
	}
	g := r.g
	p := g.prog
	for _, x := range r.heldCells() {
		dsts := r.held[x]
		var srcs []*cfg.Loc
		for _, l := range p.Locs {
			if l == r.init || !r.realWriter(l) {
				continue
			}
			for _, w := range g.acc[l.ID].writes {
				if w.v.Scope == cfg.Global && g.part.CellOf(w.v) == x {
					srcs = append(srcs, l)
					break
				}
			}
		}
		for _, d := range dsts {
			if !g.Tracks(d, x) {
				continue
			}
			for _, s := range srcs {
				if g.addEdge(d, edge{Src: s, Cell: x, Interference: true}) {
					g.nInterf++
				} else if g.part.Cell(x).Mixed() {
					g.markAlsoInterference(s, x, d)
				}
			}
		}
	}
	r.held = map[CellID][]*cfg.Loc{}
}

// WithoutPublish switches the rule off for g (sound: the edges stay).
// Call before the first build.
func (g *Graph) WithoutPublish() { g.pubNo = true }

// UnsoundPublish is UNSOUND, for the oracle's mutation tests only: the
// setter premise P2 is not checked, so a flag publishes every cell. Call
// before the first build.
func (g *Graph) UnsoundPublish() { g.pubUnsound = true }
