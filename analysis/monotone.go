package analysis

import (
	"chorus/cfg"
	"chorus/dfg"
	"chorus/interference"
)

// Monotone globals (relational mode): a global that every thread only
// ever increases (or only ever decreases) — a counter under a lock, a
// maximum, a flag set once. Interference into a mixed cell then keeps
// "g moved only upwards since this thread last saw it" instead of
// forgetting g (dfg.WithMonotone), which proves the pthread-ext idiom
//
//	lock(); v = value; value = v + 1; unlock();  assert(value > v);
//
// The premise is a rely/guarantee argument checked at the fixpoint:
//
//  1. monotoneCandidates picks the globals of mixed cells written only by
//     strong single-cell assignments (besides InitGlobals and main's code
//     before its first spawn, which run while no other thread exists),
//     with a direction.
//  2. The analysis runs assuming the candidates monotone.
//  3. monotoneFailures checks every such assignment at the fixpoint:
//     Φ(w) ⊨ src ≥ g (≤ for decreasing). Those that fail are dropped and
//     the analysis is redone (at most twice; then with none).
//
// Why the checked fixpoint is sound (any number of threads): by induction
// on the length of an execution. Suppose every state of its first n steps
// lies in Φ. Then every write of a candidate among them ran from a state
// in Φ(w), so it moved g in its direction; the premise of WithMonotone
// holds for the prefix, and the fixpoint argument (DFG plus the game's
// edges, each step justified by the steps before it) puts step n+1 in Φ
// too. The check covers every write of g another thread could make at any
// time (unreachable writes never run; pre-spawn writes of main have no
// other thread to be foreign to), whatever the number of threads.

// monotoneCandidates returns the candidate monotone globals of p and
// their directions (+1 up, -1 down).
func monotoneCandidates(p *cfg.Program, part *dfg.Partition, anyTemplate bool) monoSet {
	if len(p.Templates) == 0 {
		return monoSet{}
	}
	for _, l := range p.Locs {
		if s, ok := l.Act.(*cfg.Spawn); ok {
			for _, t := range s.Targets {
				if t == p.Templates[0] {
					return monoSet{} // main runs InitGlobals again: not handled
				}
			}
		}
	}
	early := interference.PreSpawnMain(p)
	hint := map[*cfg.Var]int{} // bit 1: up seen, bit 2: down seen
	hintBy := map[*cfg.Var]map[*cfg.Template]int{}
	bad := map[*cfg.Var]bool{}
	consider := func(v *cfg.Var) bool {
		if v.Scope != cfg.Global || v.Type.Kind != cfg.IntType {
			return false
		}
		return part.Cell(part.CellOf(v)).Mixed()
	}
	markAll := func(e cfg.Expr) {
		switch x := e.(type) {
		case *cfg.VarRef:
			bad[x.Var] = true
		case *cfg.Deref:
			for _, c := range x.Cells {
				bad[c] = true
			}
		}
	}
	for _, l := range p.Locs {
		switch a := l.Act.(type) {
		case *cfg.Assign:
			g := strongTarget(a.Dst)
			if g == nil {
				markAll(a.Dst)
				continue
			}
			if early[l.ID] || !consider(g) {
				continue
			}
			h := directionHint(a.Src, g)
			hint[g] |= h
			if hintBy[g] == nil {
				hintBy[g] = map[*cfg.Template]int{}
			}
			hintBy[g][l.Template] |= h
		case *cfg.Havoc:
			markAll(a.Dst)
		case *cfg.Alloc:
			markAll(a.Dst)
			if a.Site != nil {
				for _, c := range a.Site.Cells {
					bad[c] = true
				}
			}
		case *cfg.Spawn:
			if a.Handle != nil {
				markAll(a.Handle)
			}
		case *cfg.Acquire:
			markAll(a.Lock)
		case *cfg.Release:
			markAll(a.Lock)
		}
	}
	out := monoSet{all: map[*cfg.Var]int{}}
	for g, h := range hint {
		if bad[g] || h == 3 {
			continue
		}
		if h == 2 {
			out.all[g] = -1
		} else {
			out.all[g] = 1
		}
	}
	// Per template with one instance: only the other templates' writes
	// count (dfg.WithMonotoneIn).
	for _, t := range p.Templates {
		if t.Unbounded && !anyTemplate {
			continue
		}
		var extra map[*cfg.Var]int
		for g, by := range hintBy {
			if bad[g] || out.all[g] != 0 {
				continue
			}
			h := 0
			for u, x := range by {
				if u != t {
					h |= x
				}
			}
			switch h {
			case 3:
				continue
			case 2:
				h = -1
			default:
				h = 1
			}
			if extra == nil {
				extra = map[*cfg.Var]int{}
			}
			extra[g] = h
		}
		if extra == nil {
			continue
		}
		for g, d := range out.all {
			extra[g] = d
		}
		if out.in == nil {
			out.in = map[*cfg.Template]map[*cfg.Var]int{}
		}
		out.in[t] = extra
	}
	return out
}

// monoSet is the monotone globals for every template (all) and, for
// templates with one instance, those whose other templates' writes move
// them in one direction (in; dfg.WithMonotoneIn).
type monoSet struct {
	all map[*cfg.Var]int
	in  map[*cfg.Template]map[*cfg.Var]int
}

func (m monoSet) size() int {
	n := len(m.all)
	for _, x := range m.in {
		n += len(x) - len(m.all)
	}
	return n
}

// monoFailed names the candidates that failed: in template t's map (nil:
// the map for all templates).
type monoFailed map[*cfg.Template]map[*cfg.Var]bool

// without returns m minus the failures.
func (m monoSet) without(f monoFailed) monoSet {
	drop := func(mono map[*cfg.Var]int, bad map[*cfg.Var]bool) map[*cfg.Var]int {
		out := map[*cfg.Var]int{}
		for g, d := range mono {
			if !bad[g] {
				out[g] = d
			}
		}
		return out
	}
	out := monoSet{all: drop(m.all, f[nil])}
	for t, x := range m.in {
		if out.in == nil {
			out.in = map[*cfg.Template]map[*cfg.Var]int{}
		}
		out.in[t] = drop(x, f[t])
	}
	return out
}

// strongTarget returns the one variable an assignment to dst surely
// writes: a register, or a Deref with exactly one faithful non-summary
// cell. Otherwise nil.
func strongTarget(dst cfg.LValue) *cfg.Var {
	switch x := dst.(type) {
	case *cfg.VarRef:
		return x.Var
	case *cfg.Deref:
		if len(x.Cells) == 1 && !x.Cells[0].Summary && x.Cells[0].Type == x.Type {
			return x.Cells[0]
		}
	}
	return nil
}

// directionHint guesses which way src moves g: 1 (up) for g' = x + c
// with c > 0 or x - c with c < 0, 2 (down) for the opposite, 0 when it
// cannot tell (the check at the fixpoint decides).
func directionHint(src cfg.Expr, g *cfg.Var) int {
	for {
		c, ok := src.(*cfg.Cast)
		if !ok {
			break
		}
		src = c.X
	}
	b, ok := src.(*cfg.Binary)
	if !ok {
		return 0
	}
	k, ok := b.Y.(*cfg.Const)
	if !ok && b.Op == cfg.Add {
		k, ok = b.X.(*cfg.Const)
	}
	if !ok || k.Value == 0 {
		return 0
	}
	up := k.Value > 0
	switch b.Op {
	case cfg.Add:
	case cfg.Sub:
		up = !up
	default:
		return 0
	}
	if !g.Type.Signed && k.Value < 0 {
		return 0 // an unsigned constant's bits: no direction
	}
	if up {
		return 1
	}
	return 2
}

// monotoneFailures returns the candidates with a write that the
// invariants do not show moving in the candidate's direction: for the map
// of all templates every write counts, for a template's own map only the
// writes of the other templates.
func monotoneFailures(p *cfg.Program, s *dfg.Solver, mono monoSet) monoFailed {
	early := interference.PreSpawnMain(p)
	failed := monoFailed{}
	moves := map[*cfg.Loc]map[int]bool{} // the write's truth per direction, computed once
	holds := func(l *cfg.Loc, a *cfg.Assign, d int) bool {
		if moves[l] == nil {
			moves[l] = map[int]bool{}
		}
		if r, ok := moves[l][d]; ok {
			return r
		}
		op := cfg.Ge
		if d < 0 {
			op = cfg.Le
		}
		cond := &cfg.Binary{Op: op, X: a.Src, Y: a.Dst, Type: cfg.Bool}
		r := false
		switch s.At(l).Truth(cond) {
		case dfg.True, dfg.Bottom:
			r = true
		}
		moves[l][d] = r
		return r
	}
	check := func(t *cfg.Template, m map[*cfg.Var]int) {
		for _, l := range p.Locs {
			a, ok := l.Act.(*cfg.Assign)
			if !ok || early[l.ID] || (t != nil && l.Template == t) {
				continue
			}
			g := strongTarget(a.Dst)
			d := m[g]
			if g == nil || d == 0 || failed[t][g] {
				continue
			}
			if !holds(l, a, d) {
				if failed[t] == nil {
					failed[t] = map[*cfg.Var]bool{}
				}
				failed[t][g] = true
			}
		}
	}
	check(nil, mono.all)
	for t, m := range mono.in {
		check(t, m)
	}
	return failed
}
