package domains

// This file fixes the contract between the domains and their clients (the
// dfg solver, the interference engine). Implementations: interval.go,
// octagon.go. Clients depend only on what is declared here.

// Value is an abstract value over Dim() integer variables numbered
// 0..Dim()-1 (a cell's variables; the solver maps IR variables to these
// dense indices). Values are immutable from the client's point of view:
// every operation returns a new Value (implementations may share storage
// copy-on-write) and never modifies its receiver or arguments.
//
// All operations are sound over-approximations over the mathematical
// integers; machine-integer wrapping is the client's job (see Wrap).
type Value interface {
	Dim() int
	IsBottom() bool
	IsTop() bool

	Join(o Value) Value
	Meet(o Value) Value
	// Widen(o) with o ⊒ receiver; thresholds is a sorted set of constants
	// bounds may jump to before going to ±∞ (nil: standard widening).
	Widen(o Value, thresholds []int64) Value
	Narrow(o Value) Value
	Leq(o Value) bool
	Equal(o Value) bool

	// Assign x := e for a linear e.
	Assign(x int, e LinExpr) Value
	// AssignInterval x := any value in iv (non-linear fallback, havoc).
	AssignInterval(x int, iv Interval) Value
	// Forget x (x := any value).
	Forget(x int) Value
	// Assume a linear constraint.
	Assume(c LinCons) Value

	// Bounds of a linear expression over the value (⊥ value: empty interval).
	Bounds(e LinExpr) Interval
	// Entails reports whether every point satisfies c.
	Entails(c LinCons) bool

	// Constraints lists constraints whose conjunction is the value (for Z3
	// and for printing). A bottom value gives one unsatisfiable constraint.
	Constraints() []LinCons

	// AddDims appends n unconstrained variables; Project keeps only the
	// listed variables, renumbered 0..len(keep)-1 in that order.
	AddDims(n int) Value
	Project(keep []int) Value

	String(names func(int) string) string
}

// Domain creates values of one kind.
type Domain interface {
	Name() string // "interval" or "octagon"
	Top(dim int) Value
	Bottom(dim int) Value
}
