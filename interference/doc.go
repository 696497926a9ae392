// Package interference computes the cross-thread data flow edges of
// DESIGN.md §4: observable conditions, the abstraction Φ̂ of the current
// invariants, the enabling conditions, compat via literal clashes and Z3
// (internal/z3), a must-lockset analysis, atomic sections, spawn facts,
// and the two-thread game (the rules) evaluated on the datalog engine
// (package datalog; a built-in worklist evaluation of the same rules is
// kept for cross-checking), incrementally across rounds of the outer loop.
//
// It owns interference/ only; it reads the IR (package cfg) and is told
// about the data flow graph and the invariants through the small Cells
// and Invariants interfaces (package analysis adapts package dfg to them),
// so it never depends on the solver's internals. It does no I/O.
//
// # Algorithm
//
// New collects the observable conditions C: every conjunct of an assume
// that reads only global registers or exactly-addressed non-summary global
// cells, in canonical form (<, <=, == with a polarity), and the lock
// condition m == 0 of every lock word acquired as one concrete mutex.
// enabled(v) is the literal set of assume(c) / acquire(m) (empty for other
// actions). It then computes game positions (see positions.go for the
// compression of thread-local runs and why it is sound), the must-lockset
// (lockset.go), atomic(a) from cfg.Loc.Atomic, spawn(s, e) from the spawn
// targets and mod from Cells.Mod (assumes included).
//
// Each Round evaluates Φ̂(b) at every position b (each condition True,
// False or Unknown under the invariants, or the position is unreachable),
// decides compat(b, class) for every class of enabling literals (memoized
// by the literal set; Z3 over the exact machine-integer semantics of the
// conditions, unknown answers counted satisfiable), adds the new compat
// facts to the datalog program and evaluates the rules incrementally. New
// edge(w, X, b) facts become DFG edges w —X→ b and w —X→ l for the
// non-positions l of the runs leading to b, wherever the invariant there
// needs X (Cells.Uses).
//
// Three games, from precise to scalable, each producing a superset of the
// edges of the one before (tested on the fixtures, the SV-COMP tasks and
// generated programs):
//
//   - exact: the rules above; flow is cubic in the positions, so it is
//     bounded by WithMaxTuples (3 M facts by default);
//   - coarse (coarse.go): forgets the writer's position in a flow but keeps
//     the pairs and the reader's kills; evaluated on bit matrices (a pair
//     row per position, a flow row per writer), bounded by 1 GiB;
//   - flow-insensitive (flat.go): no pairs; every writer that can run to
//     every reader of its cell, main's own writes excepted, returned as
//     blocks (Block) for the caller to route through one dfg hub each.
//
// Round moves down a level when a game exceeds its bound, and skips a
// level up front when its size estimate already does (aztcd: 13,000
// positions, coarse; floppy: 51,000 positions, flow-insensitive).
// RoundStats says which game ran.
//
// Precision rules (each with its soundness argument in its file):
// lock-protected cells and their relays (protect.go), joins with thread
// handles (join.go). They filter edges in usesCell / mapEdges and ask the
// DFG for relays (LockRelays). One-way flags (once.go) hold edges back
// while premises about Φ hold, re-examined in every Round.
//
// Locks built from atomic sections (cfg.Release.Custom, cfg/atomiclock.go)
// take part in the must-lockset only when every custom release of the
// lock is made by a thread that surely holds it (checkedLocksets): unlike
// pthread_mutex_unlock, releasing another thread's such lock is defined.
//
// Semantic choices that follow the reference interpreter (cfg/interp): a
// thread that ends inside an atomic section (a location without
// successors) frees the others; a thread stuck at the failing arm of a
// local branch is represented by the same thread on the passing arm.
package interference
