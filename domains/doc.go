// Package domains is chorus's data module (DESIGN.md §1, §3): abstract
// domains behind one interface, linear expressions and constraints, and
// the interval arithmetic the dfg transfer functions use for non-linear
// operations. It owns only this directory; it does no I/O, prints nothing
// and knows nothing of the IR, the DFG or threads (clients map their
// variables to dense indices 0..n-1).
//
// # The contract
//
// domain.go declares Value and Domain; types.go declares Bound, Interval,
// LinExpr and LinCons. Values are immutable. The contract is an
// interface and not a generic type parameter on purpose: the solver
// holds, per location, the product of small per-cell values in a
// []Value and must mix cells of one domain chosen at run time; generics
// would force the whole solver to be instantiated per domain and make a
// slice of heterogeneous cells impossible. Dynamic dispatch costs one
// indirect call per cell operation (a join, an assume), which then does
// O(n) to O(n³) work on the cell; no inner loop calls through the
// interface.
//
// Concat (product.go) lays cell values side by side (the product the
// solver forms), in O(N²) for octagons.
//
// # Soundness conventions
//
// Values denote sets of points of Z^n (mathematical integers). Every
// operation over-approximates its concrete counterpart; precision is
// optional, soundness is not. Machine-integer wrap-around is the
// client's job: Wrap, TypeRange and Fits convert between mathematical
// and C values. Bounds are int64 or ±∞; arithmetic that leaves int64
// saturates to ±∞ and never wraps (bound.go explains the rounding
// directions). Coefficient arithmetic on linear expressions reports
// overflow (ok = false) instead of producing a wrong expression; a
// constraint that cannot be normalized is ignored by Assume (sound) and
// an expression that cannot be normalized is evaluated term by term.
// Division and remainder exclude a zero divisor (it is a check site of
// its own: execution stops there). Shift amounts outside [0, 63] give ⊤
// for <<. A range above MaxInt64 (uint64 values) is represented with an
// upper bound +∞.
//
// # Intervals (interval.go)
//
// IntervalValue is a box. Assign evaluates e in interval arithmetic
// (the exact hull for a linear e over a box). Assume(e ≤ 0) propagates
// the constraint to every variable from the bounds of the other terms,
// for a few rounds; e = 0 is two inequalities; e ≠ 0 only cuts an end of
// e's range. Widening jumps unstable bounds to the next of a sorted set
// of thresholds (the program's constants), then to ±∞; narrowing only
// refines infinite bounds.
//
// # Disequalities (holes.go)
//
// Both values carry, per variable, an optional hole x ≠ 0 beside the
// convex part (holes.go explains the rules and why only 0): assume(x ≠ 0)
// creates it, joins keep it when both sides exclude 0 and create it when
// the ranges lie on both sides of 0, x := ±y copies it, and it cuts a
// range end equal to 0. Entails(e ≠ 0) and Assume(e = 0) use it;
// Constraints exports it as x ≠ 0.
//
// # Octagons (octagon.go, dbm.go)
//
// OctagonValue holds conjunctions of ±x ±y ≤ c (Miné, "The octagon
// abstract domain", HOSC 2006) as a difference-bound matrix over the 2n
// signed variables +x, -x, full (2n)×(2n) in a flat []int64 with an
// explicit +∞ sentinel. Values are kept in tight closure, the canonical
// form for integers (Floyd–Warshall, then tightening and one
// strengthening pass, after Bagnara, Hill & Zaffanella, VMCAI 2008);
// adding one constraint to a closed matrix costs O(n²) (incremental
// closure), and so does re-closing after a change of one variable's
// constraints (assignments). Join is the entrywise max of closed matrices, meet the
// entrywise min then closure. Widening (with the same thresholds as the
// intervals, per entry) and narrowing act on the left operand's raw
// matrix and return it unclosed, since closing it would break
// termination; a lazily computed, cached closure serves every other use.
// Assignments x := ±y + c, x := ±x + c, x := c and assumes of ±x ±y ≤ c
// are exact; other linear forms are linearized soundly through interval
// bounds of the other terms (and through pair bounds read from the
// matrix when two coefficients have equal magnitude). Octagon constants
// are limited to ±2^50 in the matrix (larger bounds are dropped, a sound
// weakening; see dbm.go for why this removes every overflow check from
// the cubic loop).
package domains
