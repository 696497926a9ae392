package dfg

// havocTracksOld makes a Havoc track the old value of the one-variable
// cells it writes weakly. It is ON by default for now: with it off, the
// states at every location but the havocs are the same on the test
// programs (TestHavocOldValueNotNeeded), yet on ddverify/cm206.c and
// applicom.c the final statuses differ (15 more checks proven, e.g. an
// invariant n in [0, 9] at genhd.c:27 in an unbounded template whose
// racing increments could in principle exceed 9). Until the difference is
// explained (precision from the game's positions, or a lost interference
// source), the old value stays tracked; floppy.c's graph is larger for it.
//
// Why the old value of a havocked one-variable cell is not an input
// (graph.go build): a Havoc writes the full range of each cell's type
// (transfer.go post: ivForm(typeRange) through write, and for a cell the
// access does not denote faithfully typeRange(c.Type), so both cases give
// the cell's type box), and a weak write joins that with the old value.
// Every value a one-variable cell can hold is in its type box (the ⊥
// source gives the box, assignments wrap into the type, assumes only
// refine, interference edges carry other threads' such values), so the
// join is the box whatever the old value was, and the solver gives a cell
// that is written but not tracked its box (Solver.computePost). The post
// of the Havoc is therefore the same with or without the old value: this
// is a property of one action's transfer function, independent of which
// thread runs it or how many threads there are. What changes is only
// that the Havoc no longer needs the cell's reaching definitions, so the
// cell's liveness region ends at the Havoc: on ddverify/floppy.c about
// ten thousand unknown-call havocs of the same 337 address-taken globals
// made every such global live across the whole program (175k locations,
// 135k edges per cell).
var havocTracksOld = true
