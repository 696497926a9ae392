// Package dfg owns the data flow graph of DESIGN.md §3: variable cells,
// mod/use sets, the sequential DFG built from reaching definitions per
// thread template, the control-reachability pseudo-cell, and the fixpoint
// solver over the DFG (generic over domains.Domain). It touches no other
// package; the interference engine adds cross-thread edges through
// Graph.AddEdge and reads invariants through Solver.At / State. It does no
// I/O except Graph.WriteDot to a caller's writer, and prints nothing.
//
// # Cells
//
// A Partition maps every cfg.Var to a Cell. Non-relational: one cell per
// variable. Relational: union-find over the variables of each assignment
// and each assume/check condition when all are Globals or all are Locals of
// one template; then (MixedCells) the same over those that relate one
// template's locals with globals, into mixed cells (mixed.go: what an edge
// from another thread means for them; with MixedMultiOwner a cell may
// hold several templates' locals); only integer variables and single
// non-summary memory cells take part; a cell is capped at
// MaxRelationalCellVars variables, SmallProgramCellVars in small programs
// (a skipped union loses relations only).
// Cell 0 is ControlCell, the control pseudo-cell. Relays (relay.go) are
// identity definitions the interference engine asks for after lock
// acquires and joins.
//
// # Graph
//
// mod(v): the cells act(v) may write — assigned variables, every cell a
// store through a pointer may denote (weak when it names several cells or a
// summary cell), Havoc/Alloc destinations, lock words of Acquire/Release,
// a Spawn's handle and the spawned templates' parameters, every global for
// InitGlobals, and the variables of an assume's or a check's condition
// (DESIGN.md §3: assumes count as writes). In(v), the cells tracked at v:
// the cells act(v) reads, the cells it writes whose old value is an input
// (weak writes, writes to part of a relational cell — not a strong write
// replacing a one-variable cell, nor InitGlobals or a spawned parameter),
// the cells of Need, and the cells v is a φ location of (below).
//
// Edges u —X→ v for X ∈ In(v) and every definition u of X reaching v along
// the CFG of v's template. Every write kills, weak ones included: a weak
// writer tracks X, so its post already joins the old value and its edge
// carries what the earlier definitions would (same values, far fewer edges
// than keeping both). Reaching definitions are computed per cell over its
// liveness region only (backward from the locations tracking it through
// locations not writing it), then a forward dataflow there. A merge point
// reached by at least 8 definitions of X becomes a φ location of X: it
// tracks X, leaves it unchanged, and is the one definition the locations
// below it see (SSA's remedy for quadratic def-use chains).
//
// Shared bodies (cfg.Body): at the landing location after a return
// site's assume, a cell none of whose variables is in the body's Mod takes
// its definitions from that return's call site instead of the return site
// (call-to-return bypass; the control cell never bypasses; at the return
// site itself a thread returning elsewhere may stand stuck, so none there).
//
// At a template's entry: main's entry gets the ⊥ source (any value; its own
// InitGlobals then defines the globals); another template's entry gets, for
// a global cell, the definitions reaching the ends of its spawn sites; for
// the cell of its parameter, the spawn sites (a spawn writes the child's
// parameter); for its other locals, ⊥. Control edges follow the CFG, plus
// spawn site → spawned entry, plus ⊥ → main's entry.
//
// # Equations and solver
//
// Φ(v) is the product over X ∈ In(v) of ⨆ { post_u(Φ(u))|X : u —X→ v },
// where ⊥ contributes the box of X's type ranges; Φ(v) = ⊥ when no control
// source of v has a non-⊥ post, or some tracked cell has no non-⊥ source.
// post_u evaluates act(u) on the product of the cells it reads or writes
// laid side by side in one value (so relations between cells are used
// during the action and dropped after), then projects back onto each cell.
//
// The solver iterates a worklist ordered by a weak topological order
// (Bourdoncle) of the location graph of the DFG. An evaluation after the
// first recomputes only the cells one of whose edges may carry a new value
// (Solver.evalIncr; equal to a full evaluation, checked in this package's
// tests): a location whose state changes marks its out-edges (a hub's are
// marked when its value changes), so an evaluation touches only what
// changed; a cell with many edges keeps their join in a tree of partial
// joins (cellTree). States record which cells an evaluation changed, so
// joins at heads and equality tests look at those only. At component
// heads it joins,
// and after WithWideningDelay joins widens — with thresholds: the program's
// constants c-1, c, c+1 and type bounds, plus WithThresholds — only the
// cells that flow back into the head from inside its component. A head
// that has widened 16 times in one Solve continues with the short ladder
// (0, ±1, type bounds, WithThresholds): on drivers whose interference edges
// make components with thousands of heads, climbing every program constant
// one step at a time did not finish in minutes. Then
// WithNarrowing passes sweep the WTO (narrowing at heads). A later Solve
// after AddEdge restarts from the previous invariants, seeded with the
// targets of the new edges; it then verifies that the result is a
// post-fixpoint of all equations (re-iterating where not) before narrowing,
// since narrowed invariants need not be one.
//
// Large programs: above 400,000 edges (WithOrderThreshold) the order is a
// depth-first reverse postorder with back-edge targets as heads (linear;
// Bourdoncle's construction is quadratic on giant components). AddHub
// (hub.go) routes a block of interference edges of one cell through one
// synthetic node whose value is the cached join of its sources.
//
// # Transfer functions and soundness choices
//
//   - Integer expressions are linearized: sums and products by constants of
//     registers and single faithful non-summary cells go to the domain
//     exactly; the rest through interval arithmetic. Each operation's
//     mathematical result is kept exact only while its bounds fit its type;
//     otherwise it is wrapped (two's complement: exact within one period,
//     the type's range beyond). Unsigned arithmetic and casts always wrap.
//     Signed Add/Sub/Mul/Div/Rem/Neg evaluated by a location's action,
//     reading only thread-local registers, are clamped to the type (cfg
//     places an OverflowCheck before each; paths continuing past it have no
//     overflow); with a shared operand, which another thread may change
//     between check and use, they wrap. Signed Shl always wraps (no check:
//     GCC defines the shift into the sign bit). Queries (State.Eval/Truth) never
//     clamp. MathInt never wraps. Pointer- and float-valued expressions are
//     ⊤; the variables are never constrained.
//   - Reading a summary cell gives its interval only (no relation: it stands
//     for many locations). A cell whose type differs from the access's is
//     not a faithful copy (cfg): reading gives the access type's range,
//     writing leaves the cell any value of its type. An access with a
//     constant address checks the offset too; otherwise a same-typed cell is
//     taken to be accessed at its offset (misaligned same-type access is UB).
//   - Assign to a register: strong. Store: strong iff exactly one non-summary
//     cell, else each cell joins old and new. Havoc, Alloc, Spawn handle:
//     the destination's type range. Assume and CheckAct: refinement by the
//     condition (&&: sequential, ||: join, !: negation, comparisons of
//     linear sides exactly, a non-linear side by its interval bound, other
//     conditions as e ≠ 0; pointer conditions are not used). Acquire: assume
//     lock == 0 (only when the lock is one strong cell), then := 1. Release:
//     := 0. Join, atomic markers, Skip, Output: identity.
//   - InitGlobals: Global registers get Var.Init (0 when nil); cells of
//     global and string objects get Object.Init (a summary cell: the join of
//     the initial values it covers, with 0 unless they cover all its bytes);
//     heap cells 0 when every Alloc of the site zeroes, else their type
//     range (cells cannot be read before their object exists).
//   - State.Truth(c) is True when refining by ¬c gives ⊥ (refinement is
//     sound) or the domain Entails a linear comparison; False symmetric.
//     For a condition over registers of one cell X it also decides source
//     by source: True when every source of X is an assume/check of c (or of
//     a conjunction containing c) or has c True on its own post value —
//     sound because the value of X at the location is one of theirs; this
//     recovers d != 0 after if (d != 0), which intervals cannot hold.
//   - Cells without integer variables are never put in a frame (⊤).
package dfg
