package dfg

import "chorus/cfg"

// DeadPaths returns a DropSequential predicate for the sequential edges
// all of whose CFG paths pass one of the dead locations (by Loc.ID: a
// location no thread passes, e.g. an assume that fails in every
// execution, interference/owned.go): src —c→ dst is dropped when dst
// cannot be reached from src's successors (or, for a source in another
// thread, from dst's template entry) along the CFG of dst's template
// without passing a dead location or another definition of c. The walk
// follows every successor (calls and returns of shared bodies included),
// so it finds every path the reaching definitions follow, and more.
// nil when dead is empty.
func (g *Graph) DeadPaths(dead []bool) func(src, dst *cfg.Loc, c CellID) bool {
	has := map[*cfg.Template]bool{}
	for id, d := range dead {
		if d {
			has[g.prog.Locs[id].Template] = true
		}
	}
	if len(has) == 0 {
		return nil
	}
	seen := make([]bool, len(g.prog.Locs))
	var work, visited []*cfg.Loc
	return func(src, dst *cfg.Loc, c CellID) bool {
		t := dst.Template
		if !has[t] || t == nil || t.Entry == nil {
			return false
		}
		work, visited = work[:0], visited[:0]
		push := func(l *cfg.Loc) {
			if l.Template == t && !seen[l.ID] {
				seen[l.ID] = true
				work = append(work, l)
				visited = append(visited, l)
			}
		}
		if src.Template == t {
			if dead[src.ID] {
				return true // src itself never completes
			}
			for _, s := range src.Succs {
				push(s)
			}
		} else {
			push(t.Entry)
		}
		found := false
		for len(work) > 0 && !found {
			l := work[len(work)-1]
			work = work[:len(work)-1]
			if l == dst {
				found = true
				break
			}
			if dead[l.ID] || g.gens(l, c) {
				continue
			}
			for _, s := range l.Succs {
				push(s)
			}
		}
		for _, l := range visited {
			seen[l.ID] = false
		}
		return !found
	}
}

// gens reports whether l defines cell c in its thread's data flow.
func (g *Graph) gens(l *cfg.Loc, c CellID) bool {
	for _, x := range g.gen[l.ID] {
		if x == c {
			return true
		}
	}
	return false
}
