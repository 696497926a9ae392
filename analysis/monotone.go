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
func monotoneCandidates(p *cfg.Program, part *dfg.Partition) map[*cfg.Var]int {
	if len(p.Templates) == 0 {
		return nil
	}
	for _, l := range p.Locs {
		if s, ok := l.Act.(*cfg.Spawn); ok {
			for _, t := range s.Targets {
				if t == p.Templates[0] {
					return nil // main runs InitGlobals again: not handled
				}
			}
		}
	}
	early := interference.PreSpawnMain(p)
	hint := map[*cfg.Var]int{} // bit 1: up seen, bit 2: down seen
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
			hint[g] |= directionHint(a.Src, g)
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
	out := map[*cfg.Var]int{}
	for g, h := range hint {
		if bad[g] || h == 3 {
			continue
		}
		if h == 2 {
			out[g] = -1
		} else {
			out[g] = 1
		}
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
// invariants do not show moving in the candidate's direction.
func monotoneFailures(p *cfg.Program, s *dfg.Solver, mono map[*cfg.Var]int) map[*cfg.Var]bool {
	early := interference.PreSpawnMain(p)
	failed := map[*cfg.Var]bool{}
	for _, l := range p.Locs {
		a, ok := l.Act.(*cfg.Assign)
		if !ok || early[l.ID] {
			continue
		}
		g := strongTarget(a.Dst)
		d := mono[g]
		if g == nil || d == 0 || failed[g] {
			continue
		}
		op := cfg.Ge
		if d < 0 {
			op = cfg.Le
		}
		cond := &cfg.Binary{Op: op, X: a.Src, Y: a.Dst, Type: cfg.Bool}
		switch s.At(l).Truth(cond) {
		case dfg.True, dfg.Bottom:
		default:
			failed[g] = true
		}
	}
	return failed
}
