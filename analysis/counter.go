package analysis

import (
	"chorus/dfg"
	"chorus/interference"
)

// counterFacts turns the engine's counter bounds (interference/counter.go)
// into solver facts by location ID.
func counterFacts(cf []interference.CounterFact) map[int][]dfg.Fact {
	out := map[int][]dfg.Fact{}
	for _, f := range cf {
		out[f.Loc.ID] = append(out[f.Loc.ID], dfg.Fact{Var: f.Var, Lo: f.Lo, Hi: f.Hi})
	}
	return out
}
