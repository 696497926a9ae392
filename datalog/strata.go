package datalog

import (
	"fmt"
	"strings"
)

// stratum is one strongly connected component of the IDB dependency graph:
// its relations are computed together, after every stratum they depend on.
type stratum struct {
	index   int
	rels    []*Relation // IDB relations defined here
	rules   []*Rule
	inputs  []*Relation // relations read by the rules (positively or negatively), deduplicated
	negated []*Relation // relations read under negation (all in lower strata or EDB)
}

// stratify splits the IDB relations into strata (Tarjan's SCC algorithm on
// "head depends on body relation", which emits dependencies first, i.e. a
// valid evaluation order) and rejects negation inside a cycle, naming it.
func (p *Program) stratify() error {
	var idb []*Relation
	for _, r := range p.rels {
		if r.kind == IDB {
			idb = append(idb, r)
		}
	}
	deps := func(r *Relation) []*Relation {
		var out []*Relation
		for _, ru := range r.rules {
			for _, a := range ru.pos {
				if a.rel.kind == IDB {
					out = append(out, a.rel)
				}
			}
			for _, a := range ru.neg {
				if a.rel.kind == IDB {
					out = append(out, a.rel)
				}
			}
		}
		return out
	}
	index := map[*Relation]int{}
	low := map[*Relation]int{}
	onStack := map[*Relation]bool{}
	var stack []*Relation
	var sccs [][]*Relation
	var visit func(r *Relation)
	visit = func(r *Relation) {
		index[r] = len(index)
		low[r] = index[r]
		stack = append(stack, r)
		onStack[r] = true
		for _, d := range deps(r) {
			if _, seen := index[d]; !seen {
				visit(d)
				low[r] = min(low[r], low[d])
			} else if onStack[d] {
				low[r] = min(low[r], index[d])
			}
		}
		if low[r] == index[r] {
			var scc []*Relation
			for {
				top := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[top] = false
				scc = append(scc, top)
				if top == r {
					break
				}
			}
			sccs = append(sccs, scc)
		}
	}
	for _, r := range idb {
		if _, seen := index[r]; !seen {
			visit(r)
		}
	}
	comp := map[*Relation]int{}
	for i, scc := range sccs {
		for _, r := range scc {
			comp[r] = i
		}
	}
	// Negation inside an SCC makes the program unstratifiable.
	for _, scc := range sccs {
		for _, h := range scc {
			for _, ru := range h.rules {
				for _, a := range ru.neg {
					if a.rel.kind == IDB && comp[a.rel] == comp[h] {
						return fmt.Errorf("datalog: program is not stratifiable: %s depends negatively on %s in the cycle %s (rule %s)",
							h.name, a.rel.name, cycleString(h, a.rel, comp, deps), ru)
					}
				}
			}
		}
	}
	p.strata = p.strata[:0]
	for i, scc := range sccs {
		s := &stratum{index: i}
		// Keep declaration order inside a stratum for determinism.
		for _, r := range idb {
			if comp[r] == i {
				s.rels = append(s.rels, r)
				r.stratum = i
			}
		}
		seen := map[*Relation]bool{}
		negSeen := map[*Relation]bool{}
		for _, r := range s.rels {
			for _, ru := range r.rules {
				s.rules = append(s.rules, ru)
				for _, a := range ru.pos {
					if !seen[a.rel] {
						seen[a.rel] = true
						s.inputs = append(s.inputs, a.rel)
					}
				}
				for _, a := range ru.neg {
					if !seen[a.rel] {
						seen[a.rel] = true
						s.inputs = append(s.inputs, a.rel)
					}
					if !negSeen[a.rel] {
						negSeen[a.rel] = true
						s.negated = append(s.negated, a.rel)
					}
				}
			}
		}
		_ = scc
		p.strata = append(p.strata, s)
	}
	p.strataOK = true
	return nil
}

// cycleString renders h -> !b -> ... -> h: a shortest dependency path from
// b back to h (BFS inside the component).
func cycleString(h, b *Relation, comp map[*Relation]int, deps func(*Relation) []*Relation) string {
	prev := map[*Relation]*Relation{b: nil}
	queue := []*Relation{b}
	for len(queue) > 0 && !containsKey(prev, h) {
		x := queue[0]
		queue = queue[1:]
		for _, d := range deps(x) {
			if comp[d] != comp[h] || containsKey(prev, d) {
				continue
			}
			prev[d] = x
			queue = append(queue, d)
		}
	}
	var path []string
	if h != b {
		for x := h; x != nil && x != b; x = prev[x] {
			path = append(path, x.name)
		}
	}
	path = append(path, "!"+b.name)
	// path is h, ..., !b reversed relative to the dependency direction.
	var out []string
	out = append(out, h.name)
	for i := len(path) - 1; i >= 0; i-- {
		out = append(out, path[i])
	}
	return strings.Join(out, " -> ")
}

func containsKey(m map[*Relation]*Relation, k *Relation) bool {
	_, ok := m[k]
	return ok
}
