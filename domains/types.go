package domains

// Bound is an integer or ±∞. The zero value is the integer 0.
// Arithmetic on bounds saturates to ±∞ on int64 overflow (sound: an
// interval only grows).
type Bound struct {
	Inf int8  // -1: -∞, +1: +∞, 0: finite
	V   int64 // the value when finite
}

// Interval is [Lo, Hi]; it is empty (⊥) when Lo > Hi.
type Interval struct{ Lo, Hi Bound }

// Term is Coef·x_Var.
type Term struct {
	Var  int
	Coef int64
}

// LinExpr is Σ Terms + Const, with at most one term per variable and no
// zero coefficients (see Normalize).
type LinExpr struct {
	Terms []Term
	Const int64
}

// ConsOp is the relation of a linear constraint to zero.
type ConsOp uint8

const (
	LeZero ConsOp = iota // e ≤ 0
	EqZero               // e = 0
	NeZero               // e ≠ 0
)

// LinCons is the constraint Expr Op 0.
type LinCons struct {
	Expr LinExpr
	Op   ConsOp
}
