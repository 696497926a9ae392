package dfg

// havocTracksOld makes a Havoc track the old value of the one-variable
// cells it writes weakly (a test switch; off in every real run).
//
// It was on for a while because, with it off, ddverify/cm206.c and
// applicom.c prove 15 more checks (6 and 9), among them an invariant n in
// [0, 9] at genhd.c:27 in the template ddv_2, which cfg marks Unbounded.
// Settled (session 2026-11-27c): the rule changes no state and no
// interference edge there; it changes which game runs. With the old value
// tracked, the coarse game's flow facts pass its bound
// (interference.DefaultMaxCoarseFlows, 32 M: cm206 34.9 M, applicom
// 37.1 M) and the engine falls back to the flow-insensitive game; without
// it they stay under (30.4 M, 18.7 M) and the coarse game runs. Forcing
// the coarse game with the old value tracked (no flow bound) gives exactly
// the statuses of the rule on both drivers. And the coarse game is right
// on cm206: ddv_2 is Unbounded only syntactically (main's shared body
// __cm206_init is called before ddv_2's spawn and again, through a cdev
// fops pointer, after it, so its return closes a cycle through the spawn
// site), but that second call sits behind "if (number_cdev_registered ==
// 0) return;" and no code ever registers a cdev, so Φ is ⊥ there, the
// game derives no second ddv_2 and no concurrent alloc_disk: the racing
// increments do not exist. testdata/check/havoc_race.c pins the shape
// (havocs around racing increments stay unproven in an unbounded template,
// proven with one instance), and the oracle's open programs of kind
// gen.OpenHavoc (unknown calls writing what they are handed) compare it
// with concrete externals (DropHavocs is caught).
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
//
// Interference, any number of threads: an interference edge of such a
// cell into the Havoc is rejected (AddEdge: not tracked there), which
// loses nothing, since no other thread's value of the cell can change
// the Havoc's post; the game still counts the Havoc as a writer of the
// cell (mod, so its box reaches other threads' readers) and as a kill for
// a reader passing it, whose later reads get the Havoc's post, the box,
// sequentially: it contains whatever another thread wrote before.
var havocTracksOld = false
