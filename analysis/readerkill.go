package analysis

import "chorus/cfg"

// LocalKills lists the mixed cells l defines in its own thread without
// writing a global of them (dfg.Graph.LocalKills): the reader kills of
// interference/readerkill.go.
func (a *cellsAdapter) LocalKills(l *cfg.Loc) []int { return toInts(a.g.LocalKills(l)) }
