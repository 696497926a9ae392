package dfg

import (
	"slices"

	"chorus/cfg"
	"chorus/domains"
)

// Fact is a bound on one variable that holds whenever a thread stands at
// a location, established by an analysis outside the DFG (for example
// the counter bounds of interference/counter.go). WithFacts makes the
// solver meet every state it computes at that location with the bound.
//
// Why this is sound: Φ(v) covers every real state at v by induction on
// the length of an execution (DESIGN.md §3); a fact holds of every real
// state at v by its own argument, so the meet of the two still covers
// them. A fact must not depend on Φ itself (it is applied during the
// iteration, before the fixpoint), unless its premises are checked at the
// fixpoint and the run is redone without it when they fail (as
// analysis does for the one-way flags of interference/oneway.go).
type Fact struct {
	Var    *cfg.Var
	Lo, Hi int64
	// Ne: the fact is Var ≠ Lo instead (Hi unused; the one-way flags of
	// interference/oneway.go). Domains represent it exactly for 0 (a
	// hole) and at an end of the range, and otherwise not at all.
	Ne bool
}

// WithFacts gives the solver bounds per location ID (see Fact).
func WithFacts(facts map[int][]Fact) Option {
	return func(o *options) { o.facts = facts }
}

// applyFacts meets st's cells with the facts of its location. A cell the
// location does not track is left alone (no value to refine).
func (s *Solver) applyFacts(st *State, fs []Fact) {
	for _, f := range fs {
		c := s.part.CellOf(f.Var)
		i, ok := slices.BinarySearch(st.cells, c)
		if !ok || st.vals[i] == nil {
			continue
		}
		d := s.part.IndexInCell(f.Var)
		v := st.vals[i]
		if f.Ne {
			st.vals[i] = v.Assume(domains.LinCons{Expr: domains.LinExpr{Terms: []domains.Term{{Var: d, Coef: 1}}, Const: -f.Lo}, Op: domains.NeZero})
			continue
		}
		v = v.Assume(domains.LinCons{Expr: domains.LinExpr{Terms: []domains.Term{{Var: d, Coef: -1}}, Const: f.Lo}, Op: domains.LeZero})
		v = v.Assume(domains.LinCons{Expr: domains.LinExpr{Terms: []domains.Term{{Var: d, Coef: 1}}, Const: -f.Hi}, Op: domains.LeZero})
		st.vals[i] = v
	}
}
