package analysis

import (
	"slices"

	"chorus/cfg"
	"chorus/dfg"
	"chorus/interference"
)

// installDrops makes the graph leave out the sequential edges that stand
// for no execution (dfg.Graph.DropSequential):
//   - the handoff rule (interference/handoff.go): from main's pre-spawn
//     locations, of the cells it names, into the locations it names;
//   - owned globals (interference/owned.go): edges all of whose paths
//     pass an assume that fails in every execution (dfg.Graph.DeadPaths).
func installDrops(g *dfg.Graph, eng *interference.Engine, p *cfg.Program, c *config) {
	var preds []func(src, dst *cfg.Loc, c dfg.CellID) bool
	if drops := eng.HandoffDrops(); len(drops) > 0 {
		early := interference.PreSpawnMain(p)
		preds = append(preds, func(src, dst *cfg.Loc, c dfg.CellID) bool {
			if !early[src.ID] {
				return false
			}
			_, ok := slices.BinarySearch(drops[dst.ID], int(c))
			return ok
		})
	}
	if !c.noOwned {
		if dead := interference.OwnedDeadAssumes(p, c.mutation.ownedAnyTemplate); dead != nil {
			if f := g.DeadPaths(dead); f != nil {
				preds = append(preds, f)
			}
		}
	}
	switch len(preds) {
	case 0:
	case 1:
		g.DropSequential(preds[0])
	default:
		g.DropSequential(func(src, dst *cfg.Loc, c dfg.CellID) bool {
			for _, f := range preds {
				if f(src, dst, c) {
					return true
				}
			}
			return false
		})
	}
}

// WithOwnedGlobals turns the owned-globals rule (interference/owned.go)
// on (default) or off.
func WithOwnedGlobals(on bool) Option { return func(c *config) { c.noOwned = !on } }
