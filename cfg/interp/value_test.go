package interp

import (
	"math"
	"math/big"
	"testing"

	"chorus/cfg"
	"chorus/cfg/interp/irtest"
)

var (
	i8  = cfg.Type{Kind: cfg.IntType, Bits: 8, Signed: true}
	u8  = cfg.Type{Kind: cfg.IntType, Bits: 8}
	u64 = cfg.Type{Kind: cfg.IntType, Bits: 64}
)

func TestBinaryC(t *testing.T) {
	u64max := Value{N: -1} // the bits of 2^64-1
	tests := []struct {
		name   string
		op     cfg.BinOp
		x      Value
		tx     cfg.Type
		y      Value
		ty     cfg.Type
		t      cfg.Type
		want   string
		errors bool
	}{
		{"signed add wraps", cfg.Add, IntValue(math.MaxInt32), cfg.Int32, IntValue(1), cfg.Int32, cfg.Int32, "-2147483648", false},
		{"unsigned sub wraps", cfg.Sub, IntValue(0), cfg.Uint32, IntValue(1), cfg.Uint32, cfg.Uint32, "4294967295", false},
		{"u64 max + 1", cfg.Add, u64max, u64, IntValue(1), u64, u64, "0", false},
		{"u64 max > 0", cfg.Gt, u64max, u64, IntValue(0), u64, cfg.Bool, "1", false},
		{"u64 max as math", cfg.Add, u64max, u64, IntValue(1), u64, cfg.MathInt, "18446744073709551616", false},
		{"div truncates", cfg.Div, IntValue(-7), cfg.Int32, IntValue(2), cfg.Int32, cfg.Int32, "-3", false},
		{"rem sign of dividend", cfg.Rem, IntValue(-7), cfg.Int32, IntValue(2), cfg.Int32, cfg.Int32, "-1", false},
		{"rem positive dividend", cfg.Rem, IntValue(7), cfg.Int32, IntValue(-2), cfg.Int32, cfg.Int32, "1", false},
		{"INT_MIN / -1 wraps", cfg.Div, IntValue(math.MinInt32), cfg.Int32, IntValue(-1), cfg.Int32, cfg.Int32, "-2147483648", false},
		{"INT64_MIN / -1 wraps", cfg.Div, IntValue(math.MinInt64), cfg.Int64, IntValue(-1), cfg.Int64, cfg.Int64, "-9223372036854775808", false},
		{"INT64_MIN / -1 exact", cfg.Div, IntValue(math.MinInt64), cfg.Int64, IntValue(-1), cfg.Int64, cfg.MathInt, "9223372036854775808", false},
		{"div by zero", cfg.Div, IntValue(1), cfg.Int32, IntValue(0), cfg.Int32, cfg.Int32, "", true},
		{"arith shift", cfg.Shr, IntValue(-8), cfg.Int32, IntValue(1), cfg.Int32, cfg.Int32, "-4", false},
		{"logical shift", cfg.Shr, IntValue(0xFFFFFFF8), cfg.Uint32, IntValue(1), cfg.Int32, cfg.Uint32, "2147483644", false},
		{"u64 logical shift", cfg.Shr, u64max, u64, IntValue(60), cfg.Int32, u64, "15", false},
		{"shl wraps", cfg.Shl, IntValue(0x80000001), cfg.Uint32, IntValue(1), cfg.Int32, cfg.Uint32, "2", false},
		{"shl too far", cfg.Shl, IntValue(1), cfg.Int32, IntValue(32), cfg.Int32, cfg.Int32, "", true},
		{"mul i64 wraps", cfg.Mul, IntValue(1 << 32), cfg.Int64, IntValue(1 << 32), cfg.Int64, cfg.Int64, "0", false},
		{"mul exact", cfg.Mul, IntValue(1 << 32), cfg.Int64, IntValue(1 << 32), cfg.Int64, cfg.MathInt, "18446744073709551616", false},
		{"and negative", cfg.And, IntValue(-1), cfg.Int32, IntValue(0xF0), cfg.Int32, cfg.Int32, "240", false},
		{"xor", cfg.Xor, IntValue(0x0F), cfg.Int32, IntValue(0xFF), cfg.Int32, cfg.Int32, "240", false},
		{"lt signed", cfg.Lt, IntValue(-1), cfg.Int32, IntValue(0), cfg.Int32, cfg.Bool, "1", false},
		{"lt unsigned", cfg.Lt, IntValue(4294967295), cfg.Uint32, IntValue(0), cfg.Uint32, cfg.Bool, "0", false},
		{"land", cfg.LAnd, IntValue(2), cfg.Int32, IntValue(0), cfg.Int32, cfg.Bool, "0", false},
		{"lor", cfg.LOr, IntValue(2), cfg.Int32, IntValue(0), cfg.Int32, cfg.Bool, "1", false},
	}
	for _, tc := range tests {
		got, err := binaryOp(tc.op, tc.x, tc.tx, tc.y, tc.ty, tc.t)
		if tc.errors {
			if err == nil || !IsRuntimeError(err) {
				t.Errorf("%s: got %v, %v; want a runtime error", tc.name, got, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if s := mathOf(got, tc.t).toBig().String(); s != tc.want {
			t.Errorf("%s: got %s, want %s", tc.name, s, tc.want)
		}
	}
}

func TestMathIntNeverWraps(t *testing.T) {
	// ((x+x)*x - 1) with x = 2^62 needs ~125 bits.
	x := IntValue(1 << 62)
	s, err := binaryOp(cfg.Add, x, cfg.MathInt, x, cfg.MathInt, cfg.MathInt)
	if err != nil {
		t.Fatal(err)
	}
	p, err := binaryOp(cfg.Mul, s, cfg.MathInt, x, cfg.MathInt, cfg.MathInt)
	if err != nil {
		t.Fatal(err)
	}
	r, err := binaryOp(cfg.Sub, p, cfg.MathInt, IntValue(1), cfg.MathInt, cfg.MathInt)
	if err != nil {
		t.Fatal(err)
	}
	want := new(big.Int).Lsh(big.NewInt(1), 125)
	want.Sub(want, big.NewInt(1))
	if r.Big == nil || r.Big.Cmp(want) != 0 {
		t.Fatalf("got %v, want %v", r, want)
	}
	// Back in range, the value is small again (canonical form).
	back, _ := binaryOp(cfg.Sub, r, cfg.MathInt, r, cfg.MathInt, cfg.MathInt)
	if back.Big != nil || back.N != 0 {
		t.Fatalf("r - r = %#v, want canonical 0", back)
	}
}

func TestUnaryAndConvert(t *testing.T) {
	neg, _ := unaryOp(cfg.Neg, IntValue(math.MinInt32), cfg.Int32, cfg.Int32)
	if neg.N != math.MinInt32 {
		t.Errorf("-INT_MIN = %v, want wrap to INT_MIN", neg)
	}
	negExact, _ := unaryOp(cfg.Neg, IntValue(math.MinInt32), cfg.Int32, cfg.MathInt)
	if negExact.N != 1<<31 {
		t.Errorf("-INT_MIN exact = %v", negExact)
	}
	bn, _ := unaryOp(cfg.BitNot, IntValue(0), cfg.Int32, cfg.Uint32)
	if bn.N != 0xFFFFFFFF {
		t.Errorf("~0u = %v", bn)
	}
	not, _ := unaryOp(cfg.Not, IntValue(5), cfg.Int32, cfg.Bool)
	if not.N != 0 {
		t.Errorf("!5 = %v", not)
	}
	conv := []struct {
		v        Value
		from, to cfg.Type
		want     int64
	}{
		{IntValue(300), cfg.Int32, u8, 44},
		{IntValue(200), cfg.Int32, i8, -56},
		{IntValue(-1), i8, cfg.Uint32, 0xFFFFFFFF},
		{IntValue(-1), cfg.Int32, u64, -1}, // bits of 2^64-1
		{Value{N: -1}, u64, cfg.Int32, -1},
		{IntValue(0x1_0000_0005), cfg.Int64, cfg.Int32, 5},
	}
	for _, c := range conv {
		got, err := convert(c.v, c.from, c.to)
		if err != nil || got.N != c.want {
			t.Errorf("(%v)%v from %v = %v, %v; want %d", c.to, c.v, c.from, got, err, c.want)
		}
	}
	// Pointers keep provenance through integer casts and arithmetic.
	p := Value{Obj: 3, N: 8}
	asInt, _ := convert(p, irtest.Ptr64, u64)
	plus, _ := binaryOp(cfg.Add, asInt, u64, IntValue(4), u64, u64)
	back, _ := convert(plus, u64, irtest.Ptr64)
	if back.Obj != 3 || back.N != 12 {
		t.Errorf("(T*)((uintptr_t)p + 4) = %v", back)
	}
	// Floats truncate toward zero.
	f, _ := convert(floatValue(-2.75), cfg.Type{Kind: cfg.FloatType, Bits: 64}, cfg.Int32)
	if f.N != -2 {
		t.Errorf("(int)-2.75 = %v", f)
	}
}
