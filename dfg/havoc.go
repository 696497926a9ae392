package dfg

// havocTracksOld makes a Havoc track the old value of the one-variable
// cells it writes weakly (a test switch; off in every real run).
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
var havocTracksOld bool
