package cfg

import (
	"fmt"
	"go/token"

	"modernc.org/cc/v4"
)

// 128-bit integers (__int128, unsigned __int128).
//
// The IR's integer values are at most 64 bits wide. A 128-bit scalar keeps
// a 64-bit IR type (scalarType) so that registers, temporaries and calls
// work unchanged, but no 64-bit value is ever taken for a 128-bit one:
//
//   - every value of a 128-bit type is any value (wideValue): a read of a
//     128-bit lvalue (load), and every expression of a 128-bit type
//     (rvalue), after its operands are lowered for their side effects and
//     checks; cc's folded constants of a 128-bit type are not used
//     (constValue);
//   - a conversion from a 128-bit type, or into one, is any value of the
//     target type (conv), so comparisons in a 128-bit type compare two
//     unknowns; the one exception is a constant whose value the target's
//     64-bit IR type holds exactly (x / 2, x * 0 keep their trivial checks);
//   - an object holding a 128-bit scalar is a blob (leaves): reading its
//     bytes through another type (a union member, a cast pointer, memcpy)
//     gives any value;
//   - the checks of 128-bit arithmetic compare unknown operands with the
//     64-bit range (stricter than the real one: never proven wrongly), and
//     a shift's count is checked against 128.
//
// Modelling the type as 64 bits, as chorus once did, proved x == 0 after
// unsigned __int128 x = 1ULL << 63; x *= 2 (testdata/gccdiff/int128.c).
// Each line with such a value gets one note (an approximation, which
// confirm and the exploration proofs fence off: the havocs of a line all
// sit at the note's position).

// isWideInt reports whether t is a 128-bit integer type.
func isWideInt(t cc.Type) bool {
	if t == nil {
		return false
	}
	switch t.Kind() {
	case cc.Int128, cc.UInt128:
		return true
	}
	return false
}

// wideValue is any value of C type t, standing for a value of a 128-bit
// type (or one converted from or to it) at n (nil: the current position).
func (b *builder) wideValue(n cc.Node, t cc.Type) Expr {
	save := b.pos
	b.pos = b.widePos(n)
	v := b.nondet(t)
	b.pos = save
	return v
}

// wideTruth is 0 or 1, either: the outcome of comparing values of a
// 128-bit type at n (a relational or equality operator, a case label).
func (b *builder) wideTruth(n cc.Node) Expr {
	save := b.pos
	b.pos = b.widePos(n)
	u8 := Type{Kind: IntType, Bits: 8}
	r := b.temp(u8)
	b.emit(&Havoc{Dst: &VarRef{Var: r}})
	t, _ := b.branch(&Binary{Op: Le, X: &VarRef{Var: r}, Y: &Const{Type: u8, Value: 1}, Type: Bool})
	b.cur = t
	b.pos = save
	return &Cast{X: &VarRef{Var: r}, Type: Bool}
}

// widePos is the position of the havocs of 128-bit values at n (nil: the
// current position): the first such position on its line, which carries
// the line's note.
func (b *builder) widePos(n cc.Node) token.Position {
	pos := b.pos
	if n != nil {
		if p := posOf(n); p.Line > 0 {
			pos = p
		}
	}
	if b.wideAt == nil {
		b.wideAt = map[string]token.Position{}
	}
	line := fmt.Sprintf("%s:%d", pos.Filename, pos.Line)
	if first, ok := b.wideAt[line]; ok {
		return first
	}
	b.wideAt[line] = pos
	b.note("wide:"+line, pos, "128-bit integer values are any value here (over-approximated)")
	return pos
}

// exactWideConst converts the constant k of C type from into the C type
// to, one of them 128 bits wide, when to's IR type holds the converted
// value exactly; ok is false otherwise.
func (b *builder) exactWideConst(k *Const, from, to cc.Type) (Expr, bool) {
	if k.Type.Kind != IntType || from == nil || isWideInt(from) || !cc.IsIntegerType(from) || !cc.IsIntegerType(to) {
		return nil, false
	}
	tt, ok := b.scalarType(to)
	if !ok {
		return nil, false
	}
	// k.Value is the C value for a signed type; for an unsigned one it is
	// uint64(k.Value). A signed 128-bit target (IR int64) holds it unless
	// it is an unsigned value past 2^63; an unsigned one (IR uint64)
	// unless it is negative.
	fromSigned := cc.IsSignedInteger(from)
	if !isWideInt(to) || (tt.Signed && !fromSigned && k.Value < 0) || (!tt.Signed && fromSigned && k.Value < 0) {
		return nil, false
	}
	return &Const{Type: tt, Value: k.Value}, true
}
