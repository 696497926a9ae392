package analysis

import (
	"chorus/cfg"
	"chorus/dfg"
	"chorus/interference"
)

// oneWayRun carries the one-way flags (interference/oneway.go) left out
// of the next run of the analysis: those whose premise failed at the
// fixpoint of an earlier run. After two runs with failures, none is used.
type oneWayRun struct {
	drop []*cfg.Var
	runs int
	off  bool
}

func (o *oneWayRun) failed(vs []*cfg.Var) {
	if len(vs) == 0 {
		return
	}
	o.runs++

	o.drop = append(o.drop, vs...)
	if o.runs >= 2 {
		o.off = true
	}
}

// engineOpts returns opts with the options leaving out o's flags.
func (o *oneWayRun) engineOpts(opts []interference.Option) []interference.Option {
	if o == nil || (len(o.drop) == 0 && !o.off) {
		return opts
	}
	out := append([]interference.Option(nil), opts...)
	if o.off {
		return append(out, interference.WithOneWayFacts(false))
	}
	return append(out, interference.WithoutOneWayFlags(o.drop))
}

// addOneWayFacts adds the engine's one-way facts (f ≠ c0 at a location)
// to the solver facts by location ID.
func addOneWayFacts(out map[int][]dfg.Fact, fs []interference.OneWayFact) {
	for _, f := range fs {
		out[f.Loc.ID] = append(out[f.Loc.ID], dfg.Fact{Var: f.Var, Lo: f.C0, Ne: true})
	}
}
