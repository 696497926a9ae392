package interp

import (
	"errors"
	"fmt"
	"math"
	"math/big"

	"chorus/cfg"
)

// InstID names a memory object instance (one per global object, one per
// LocalObject per thread instance, one per Alloc execution). 0 is no
// instance: a Value with Obj == 0 is a plain integer (or a null/forged
// pointer).
type InstID int32

// Value is a concrete value.
//
// Integers of a bounded type are kept in N, wrapped to their type:
// sign-extended for signed types, zero-extended for unsigned ones (an
// unsigned 64-bit value keeps its bits, so N < 0 means N + 2^64).
// Mathematical integers (cfg.MathInt) that do not fit an int64 use Big,
// which is never mutated once stored (values share it freely).
//
// Pointers are (Obj, N): the instance they point into and the byte
// offset. Obj stays attached through casts to integer types and through
// integer addition/subtraction, so a pointer survives (intptr_t)p + 4 and
// a round trip through memory. Floating values keep the float64 bits in N.
type Value struct {
	Obj InstID
	N   int64
	Big *big.Int
}

// IntValue is the Value of a plain integer.
func IntValue(n int64) Value { return Value{N: n} }

// IsPointer reports whether v points into an object instance.
func (v Value) IsPointer() bool { return v.Obj != 0 }

func (v Value) String() string {
	switch {
	case v.Obj != 0:
		return fmt.Sprintf("&#%d+%d", v.Obj, v.N)
	case v.Big != nil:
		return v.Big.String()
	}
	return fmt.Sprint(v.N)
}

// Equal reports whether two values are identical.
func (v Value) Equal(w Value) bool {
	if v.Obj != w.Obj || v.N != w.N {
		return false
	}
	if v.Big == nil || w.Big == nil {
		return v.Big == nil && w.Big == nil
	}
	return v.Big.Cmp(w.Big) == 0
}

// errRuntime marks errors of the interpreted program (invalid memory
// access, division by zero, ...) as opposed to malformed IR; both end the
// thread's step with an ErrorEvent.
type runtimeError struct{ msg string }

func (e *runtimeError) Error() string { return e.msg }

func rtErr(format string, args ...any) error {
	return &runtimeError{fmt.Sprintf(format, args...)}
}

// IsRuntimeError reports whether err is an error of the interpreted
// program rather than of the IR.
func IsRuntimeError(err error) bool {
	var r *runtimeError
	return errors.As(err, &r)
}

var (
	two64   = new(big.Int).Lsh(big.NewInt(1), 64)
	mask64  = new(big.Int).Sub(two64, big.NewInt(1))
	minI64  = big.NewInt(math.MinInt64)
	maxI64  = big.NewInt(math.MaxInt64)
	bigZero = new(big.Int)
)

// num is a mathematical integer: small when big == nil.
type num struct {
	small int64
	big   *big.Int
}

func (a num) toBig() *big.Int {
	if a.big != nil {
		return a.big
	}
	return big.NewInt(a.small)
}

func normBig(b *big.Int) num {
	if b.IsInt64() {
		return num{small: b.Int64()}
	}
	return num{big: b}
}

func (a num) sign() int {
	if a.big != nil {
		return a.big.Sign()
	}
	switch {
	case a.small < 0:
		return -1
	case a.small > 0:
		return 1
	}
	return 0
}

func cmpNum(a, b num) int {
	if a.big == nil && b.big == nil {
		switch {
		case a.small < b.small:
			return -1
		case a.small > b.small:
			return 1
		}
		return 0
	}
	return a.toBig().Cmp(b.toBig())
}

// mathOf is the mathematical integer v denotes when read at type t.
func mathOf(v Value, t cfg.Type) num {
	if v.Big != nil {
		return num{big: v.Big}
	}
	if t.Kind != cfg.FloatType && !t.Signed && t.Bits == 64 && v.N < 0 {
		return num{big: new(big.Int).SetUint64(uint64(v.N))}
	}
	if t.Kind == cfg.PtrType && v.Obj == 0 && v.N < 0 {
		// Pointers are unsigned addresses.
		return num{big: new(big.Int).SetUint64(uint64(v.N))}
	}
	return num{small: v.N}
}

// low64 is a's two's-complement bits modulo 2^64.
func (a num) low64() uint64 {
	if a.big == nil {
		return uint64(a.small)
	}
	return new(big.Int).And(a.big, mask64).Uint64() // And on negatives is two's complement
}

// wrapNum converts the mathematical integer a to type t: wrap-around for
// bounded integer and pointer types, no change for MathInt.
func wrapNum(a num, t cfg.Type) Value {
	bits := t.Bits
	signed := t.Signed
	switch t.Kind {
	case cfg.PtrType:
		signed = false
	case cfg.FloatType:
		return floatValue(numToFloat(a))
	}
	if bits == 0 {
		if a.big != nil {
			return normBigValue(a.big)
		}
		return Value{N: a.small}
	}
	return Value{N: wrapBits(a.low64(), bits, signed)}
}

func wrapBits(u uint64, bits int, signed bool) int64 {
	if bits >= 64 {
		return int64(u)
	}
	mask := uint64(1)<<uint(bits) - 1
	u &= mask
	if signed && u>>(uint(bits)-1)&1 == 1 {
		u |= ^mask
	}
	return int64(u)
}

func normBigValue(b *big.Int) Value {
	if b.IsInt64() {
		return Value{N: b.Int64()}
	}
	return Value{Big: b}
}

func numToFloat(a num) float64 {
	if a.big != nil {
		f, _ := new(big.Float).SetInt(a.big).Float64()
		return f
	}
	return float64(a.small)
}

func floatValue(f float64) Value { return Value{N: int64(math.Float64bits(f))} }

func floatOf(v Value, t cfg.Type) float64 {
	if t.Kind == cfg.FloatType {
		return math.Float64frombits(uint64(v.N))
	}
	return numToFloat(mathOf(v, t))
}

// convert converts v of type from to type to (C conversion semantics:
// integers wrap, pointers keep their provenance, floats truncate toward
// zero when converted to integers).
func convert(v Value, from, to cfg.Type) (Value, error) {
	if to.Kind == cfg.FloatType {
		f := floatOf(v, from)
		if to.Bits == 32 {
			f = float64(float32(f))
		}
		return floatValue(f), nil
	}
	if from.Kind == cfg.FloatType {
		f := math.Float64frombits(uint64(v.N))
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return Value{}, rtErr("conversion of a non-finite floating value to an integer")
		}
		b, _ := new(big.Float).SetFloat64(math.Trunc(f)).Int(nil)
		return wrapNum(normBig(b), to), nil
	}
	if v.Obj != 0 {
		// A pointer or an integer made from one: keep the provenance and
		// the offset. Narrowing a pointer is implementation-defined in C;
		// the interpreter keeps it whole so it can come back.
		return Value{Obj: v.Obj, N: v.N}, nil
	}
	return wrapNum(mathOf(v, from), to), nil
}

// truth reports whether v (of type t) is non-zero.
func truth(v Value, t cfg.Type) bool {
	if v.Obj != 0 || v.Big != nil {
		return true
	}
	if t.Kind == cfg.FloatType {
		return math.Float64frombits(uint64(v.N)) != 0
	}
	return v.N != 0
}

func boolValue(b bool) Value {
	if b {
		return Value{N: 1}
	}
	return Value{}
}

// maxShift bounds shifts of mathematical integers (a MathInt shift by more
// is reported rather than allocating a huge number).
const maxShift = 4096

// binaryOp computes x op y (x of type tx, y of type ty) and wraps the
// result to t. Signed overflow wraps here: whether it is an error is
// decided by the OverflowCheck the frontend puts before the location.
func binaryOp(op cfg.BinOp, x Value, tx cfg.Type, y Value, ty cfg.Type, t cfg.Type) (Value, error) {
	if tx.Kind == cfg.FloatType || ty.Kind == cfg.FloatType || t.Kind == cfg.FloatType {
		if op <= cfg.Div || (op >= cfg.Eq && op <= cfg.LOr) {
			return floatBinary(op, floatOf(x, tx), floatOf(y, ty), t)
		}
		return Value{}, rtErr("operator %d on floating values", op)
	}
	if x.Obj != 0 || y.Obj != 0 {
		return pointerBinary(op, x, tx, y, ty, t)
	}
	a, b := mathOf(x, tx), mathOf(y, ty)
	switch op {
	case cfg.Eq:
		return boolValue(cmpNum(a, b) == 0), nil
	case cfg.Ne:
		return boolValue(cmpNum(a, b) != 0), nil
	case cfg.Lt:
		return boolValue(cmpNum(a, b) < 0), nil
	case cfg.Le:
		return boolValue(cmpNum(a, b) <= 0), nil
	case cfg.Gt:
		return boolValue(cmpNum(a, b) > 0), nil
	case cfg.Ge:
		return boolValue(cmpNum(a, b) >= 0), nil
	case cfg.LAnd:
		return boolValue(a.sign() != 0 && b.sign() != 0), nil
	case cfg.LOr:
		return boolValue(a.sign() != 0 || b.sign() != 0), nil
	}
	r, err := arith(op, a, b, tx, t)
	if err != nil {
		return Value{}, err
	}
	return wrapNum(r, t), nil
}

// arith computes a op b exactly (before wrapping); tx is the left
// operand's type (for the kind of right shift) and t the result type.
func arith(op cfg.BinOp, a, b num, tx, t cfg.Type) (num, error) {
	if a.big == nil && b.big == nil {
		x, y := a.small, b.small
		switch op {
		case cfg.Add, cfg.PtrAdd:
			s := x + y
			if (x^s)&(y^s) >= 0 {
				return num{small: s}, nil
			}
		case cfg.Sub, cfg.PtrSub:
			s := x - y
			if (x^y)&(x^s) >= 0 {
				return num{small: s}, nil
			}
		case cfg.Mul:
			if x > math.MinInt32 && x <= math.MaxInt32 && y > math.MinInt32 && y <= math.MaxInt32 {
				return num{small: x * y}, nil
			}
		case cfg.Div, cfg.Rem:
			if y == 0 {
				return num{}, rtErr("division by zero")
			}
			if !(x == math.MinInt64 && y == -1) {
				if op == cfg.Div {
					return num{small: x / y}, nil // Go truncates toward zero, like C
				}
				return num{small: x % y}, nil // sign of the dividend, like C
			}
		case cfg.And:
			return num{small: x & y}, nil
		case cfg.Or:
			return num{small: x | y}, nil
		case cfg.Xor:
			return num{small: x ^ y}, nil
		}
	}
	A, B := a.toBig(), b.toBig()
	r := new(big.Int)
	switch op {
	case cfg.Add, cfg.PtrAdd:
		r.Add(A, B)
	case cfg.Sub, cfg.PtrSub:
		r.Sub(A, B)
	case cfg.Mul:
		r.Mul(A, B)
	case cfg.Div, cfg.Rem:
		if B.Sign() == 0 {
			return num{}, rtErr("division by zero")
		}
		q, m := new(big.Int).QuoRem(A, B, new(big.Int)) // truncated, like C
		if op == cfg.Div {
			r = q
		} else {
			r = m
		}
	case cfg.And:
		r.And(A, B)
	case cfg.Or:
		r.Or(A, B)
	case cfg.Xor:
		r.Xor(A, B)
	case cfg.Shl, cfg.Shr:
		return shift(op, a, b, t)
	default:
		return num{}, fmt.Errorf("unknown binary operator %d", op)
	}
	return normBig(r), nil
}

// shift computes a << b or a >> b. For a bounded result type, a shift
// count outside [0, width) is undefined in C; the interpreter reports it
// as a runtime error so that differential tests notice it.
func shift(op cfg.BinOp, a, b num, t cfg.Type) (num, error) {
	if b.sign() < 0 {
		return num{}, rtErr("negative shift count")
	}
	limit := int64(t.Bits)
	if t.Bits == 0 {
		limit = maxShift
	}
	if b.big != nil || b.small >= limit {
		return num{}, rtErr("shift count %v out of range for %v", b.toBig(), t)
	}
	n := uint(b.small)
	if op == cfg.Shl {
		if a.big == nil && n < 62 && a.small >= -(1<<(62-n)) && a.small < 1<<(62-n) {
			return num{small: a.small << n}, nil
		}
		return normBig(new(big.Int).Lsh(a.toBig(), n)), nil
	}
	// a is the operand's mathematical value: floor division by 2^n is the
	// arithmetic shift for signed operands and the logical one for
	// unsigned operands (whose value is non-negative).
	if a.big == nil {
		return num{small: a.small >> n}, nil
	}
	return normBig(new(big.Int).Rsh(a.big, n)), nil
}

func floatBinary(op cfg.BinOp, a, b float64, t cfg.Type) (Value, error) {
	switch op {
	case cfg.Add:
		return convFloatResult(a+b, t), nil
	case cfg.Sub:
		return convFloatResult(a-b, t), nil
	case cfg.Mul:
		return convFloatResult(a*b, t), nil
	case cfg.Div:
		return convFloatResult(a/b, t), nil
	case cfg.Eq:
		return boolValue(a == b), nil
	case cfg.Ne:
		return boolValue(a != b), nil
	case cfg.Lt:
		return boolValue(a < b), nil
	case cfg.Le:
		return boolValue(a <= b), nil
	case cfg.Gt:
		return boolValue(a > b), nil
	case cfg.Ge:
		return boolValue(a >= b), nil
	case cfg.LAnd:
		return boolValue(a != 0 && b != 0), nil
	case cfg.LOr:
		return boolValue(a != 0 || b != 0), nil
	}
	return Value{}, rtErr("operator %d on floating values", op)
}

func convFloatResult(f float64, t cfg.Type) Value {
	if t.Kind == cfg.FloatType {
		if t.Bits == 32 {
			f = float64(float32(f))
		}
		return floatValue(f)
	}
	v, err := convert(floatValue(f), cfg.Type{Kind: cfg.FloatType, Bits: 64}, t)
	if err != nil {
		return Value{}
	}
	return v
}

// pointerBinary handles operations where an operand points into an
// object instance.
func pointerBinary(op cfg.BinOp, x Value, tx cfg.Type, y Value, ty cfg.Type, t cfg.Type) (Value, error) {
	switch op {
	case cfg.Eq, cfg.Ne, cfg.Lt, cfg.Le, cfg.Gt, cfg.Ge:
		// Pointers into different instances compare by instance id
		// (unspecified in C for the ordering; equality is exact).
		c := 0
		switch {
		case x.Obj != y.Obj:
			if x.Obj < y.Obj {
				c = -1
			} else {
				c = 1
			}
		case x.N < y.N:
			c = -1
		case x.N > y.N:
			c = 1
		}
		switch op {
		case cfg.Eq:
			return boolValue(c == 0), nil
		case cfg.Ne:
			return boolValue(c != 0), nil
		case cfg.Lt:
			return boolValue(c < 0), nil
		case cfg.Le:
			return boolValue(c <= 0), nil
		case cfg.Gt:
			return boolValue(c > 0), nil
		}
		return boolValue(c >= 0), nil
	case cfg.LAnd:
		return boolValue(truth(x, tx) && truth(y, ty)), nil
	case cfg.LOr:
		return boolValue(truth(x, tx) || truth(y, ty)), nil
	case cfg.Add, cfg.PtrAdd:
		if x.Obj != 0 && y.Obj != 0 {
			return Value{}, rtErr("addition of two pointers")
		}
		if x.Obj == 0 {
			x, y, tx, ty = y, x, ty, tx
		}
		off := mathOf(y, ty)
		if off.big != nil {
			return Value{}, rtErr("pointer offset %v out of range", off.big)
		}
		return Value{Obj: x.Obj, N: x.N + off.small}, nil
	case cfg.Sub, cfg.PtrSub:
		if x.Obj != 0 && y.Obj != 0 {
			if x.Obj != y.Obj {
				return Value{}, rtErr("subtraction of pointers into different objects")
			}
			return wrapNum(num{small: x.N - y.N}, t), nil
		}
		if x.Obj == 0 {
			return Value{}, rtErr("integer minus pointer")
		}
		off := mathOf(y, ty)
		if off.big != nil {
			return Value{}, rtErr("pointer offset %v out of range", off.big)
		}
		return Value{Obj: x.Obj, N: x.N - off.small}, nil
	}
	return Value{}, rtErr("operator %d on a pointer value is not supported by the interpreter", op)
}

// unaryOp computes op x (x of type tx) wrapped to t.
func unaryOp(op cfg.UnOp, x Value, tx, t cfg.Type) (Value, error) {
	if op == cfg.Not {
		return boolValue(!truth(x, tx)), nil
	}
	if x.Obj != 0 {
		return Value{}, rtErr("arithmetic on a pointer value")
	}
	if tx.Kind == cfg.FloatType || t.Kind == cfg.FloatType {
		if op == cfg.Neg {
			return convFloatResult(-floatOf(x, tx), t), nil
		}
		return Value{}, rtErr("~ on a floating value")
	}
	a := mathOf(x, tx)
	switch op {
	case cfg.Neg:
		if a.big == nil && a.small != math.MinInt64 {
			return wrapNum(num{small: -a.small}, t), nil
		}
		return wrapNum(normBig(new(big.Int).Neg(a.toBig())), t), nil
	case cfg.BitNot:
		if a.big == nil {
			return wrapNum(num{small: ^a.small}, t), nil
		}
		return wrapNum(normBig(new(big.Int).Not(a.big)), t), nil
	}
	return Value{}, fmt.Errorf("unknown unary operator %d", op)
}

func floatBits32(v Value) uint32 {
	return math.Float32bits(float32(math.Float64frombits(uint64(v.N))))
}

func float32frombits(b uint32) float32 { return math.Float32frombits(b) }
