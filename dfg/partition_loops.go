package dfg

import "chorus/cfg"

// Loop counters (relational mode, mixed cells): a thread's loop that
// steps a local counter (i := i ± c) and also steps a global (g := e with
// e reading g, a counter the loop pushes up or down) gets the counter and
// the global in one cell, so the octagon can relate them: "the producer's
// i-th iteration has pushed at most i items" (top ≤ i). No statement
// relates the two directly, so the union-find of NewPartition never
// merges them.
//
// This only chooses which variables share a cell; the meaning of a mixed
// cell and its soundness argument (mixed.go) are unchanged, whatever the
// number of threads: a bigger cell tracks more relations, each one
// justified by the same equations. Merges respect the size cap and run
// after the other merges, so they never take the place of one of them.

// loopCounterPairs returns, per template, pairs (i, g): i a non-parameter
// local integer register of t stepped by a constant inside a cycle of t's
// location graph, g a global integer variable written from its own value
// (g := g ± c through temporaries: the Src mentions a variable of g's
// cell-to-be, a temporary loaded from g in the same cycle) in the same
// cycle.
func loopCounterPairs(p *cfg.Program) [][2]*cfg.Var {
	var out [][2]*cfg.Var
	for _, t := range p.Templates {
		comp := cfg.CyclicComponents(t)
		counters := map[int][]*cfg.Var{}  // by component
		loaded := map[*cfg.Var]*cfg.Var{} // temporary -> global it was loaded from
		for _, l := range t.Locs {
			a, ok := l.Act.(*cfg.Assign)
			if !ok {
				continue
			}
			dst := relVars(nil, a.Dst)
			src := relVars(nil, a.Src)
			if len(dst) != 1 {
				continue
			}
			d := dst[0]
			if d.Scope == cfg.Local && len(src) == 1 && src[0].Scope == cfg.Global {
				if _, isRef := a.Src.(*cfg.VarRef); isRef {
					loaded[d] = src[0]
				} else if x, ok := a.Src.(*cfg.Deref); ok && len(x.Cells) == 1 {
					loaded[d] = src[0]
				}
			}
		}
		seen := map[[2]*cfg.Var]bool{}
		for _, l := range t.Locs {
			c, ok := comp[l]
			if !ok {
				continue
			}
			a, ok := l.Act.(*cfg.Assign)
			if !ok {
				continue
			}
			ref, ok := a.Dst.(*cfg.VarRef)
			if !ok || ref.Var.Scope != cfg.Local || !ref.Var.Type.IsInt() || isParam(p, ref.Var) {
				continue
			}
			if stepsItself(a.Src, ref.Var) {
				counters[c] = append(counters[c], ref.Var)
			}
		}
		for _, l := range t.Locs {
			c, ok := comp[l]
			if !ok || len(counters[c]) == 0 {
				continue
			}
			a, ok := l.Act.(*cfg.Assign)
			if !ok {
				continue
			}
			dst := relVars(nil, a.Dst)
			if len(dst) != 1 || dst[0].Scope != cfg.Global {
				continue
			}
			g := dst[0]
			step := stepsItself(a.Src, g)
			if !step {
				if b, ok := stripCasts(a.Src).(*cfg.Binary); ok && (b.Op == cfg.Add || b.Op == cfg.Sub) {
					if r, ok := stripCasts(b.X).(*cfg.VarRef); ok && loaded[r.Var] == g {
						if _, ok := stripCasts(b.Y).(*cfg.Const); ok {
							step = true
						}
					}
				}
			}
			if !step {
				continue
			}
			for _, i := range counters[c] {
				k := [2]*cfg.Var{i, g}
				if !seen[k] {
					seen[k] = true
					out = append(out, k)
				}
			}
		}
	}
	return out
}

// stepsItself reports whether src is v ± constant (through casts).
func stepsItself(src cfg.Expr, v *cfg.Var) bool {
	b, ok := stripCasts(src).(*cfg.Binary)
	if !ok || (b.Op != cfg.Add && b.Op != cfg.Sub) {
		return false
	}
	r, ok := stripCasts(b.X).(*cfg.VarRef)
	if !ok || r.Var != v {
		return false
	}
	_, ok = stripCasts(b.Y).(*cfg.Const)
	return ok
}

func stripCasts(e cfg.Expr) cfg.Expr {
	for {
		c, ok := e.(*cfg.Cast)
		if !ok {
			return e
		}
		e = c.X
	}
}
