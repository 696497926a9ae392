package cfg

import (
	"errors"
	"strings"
	"testing"
)

// TestPackedLayouts: a struct or union gcc lays out differently from cc
// (which ignores __attribute__((packed))) is rejected; a packed type whose
// natural layout already is gcc's is lowered. Each rejected layout was
// checked against gcc (offsetof/sizeof).
func TestPackedLayouts(t *testing.T) {
	rejected := []string{
		// gcc: i at 1, size 5 (cc: 4, 8)
		"struct __attribute__((packed)) p { char c; int i; };\nint main(void) { struct p s = {1, 2}; return s.i; }",
		// only the size differs: gcc 28, cc 32 (sizeof, strides, bounds)
		"struct p { int a; char h[8]; long long f; int l; } __attribute__((__packed__));\nint main(void) { struct p s = {1}; return s.a; }",
		// a packed member type aligns to 1 inside an unpacked struct: v at 1
		"typedef union { unsigned u; } __attribute__((packed)) un;\nstruct q { char c; un v; };\nint main(void) { struct q x = {1, {3}}; return x.v.u; }",
		// packed bit-fields are not recomputed
		"struct __attribute__((packed)) p { char a; int b : 4; };\nint main(void) { struct p s = {1, 2}; return s.b; }",
		// packed and aligned(4): b at 1, size 4
		"struct __attribute__((packed, aligned(4))) p { char a; short b; char c; };\nint main(void) { struct p s = {1, 2}; return s.b; }",
		// #pragma pack, which cc ignores
		"#pragma pack(push, 1)\nstruct p { char c; int i; };\n#pragma pack(pop)\nint main(void) { struct p s = {1, 2}; return s.i; }",
		"#pragma pack(2)\nstruct p { char c; int i; };\nint main(void) { return 0; }",
		// a packed member (the attribute on the member, after or before
		// it): i at 1, size 5 in gcc; at file scope and in a function
		"struct p { char c; int i __attribute__((packed)); };\nint main(void) { struct p s = {1, 2}; return s.i; }",
		"struct p { char c; __attribute__((__packed__)) int i; };\nint main(void) { struct p s = {1, 2}; return s.i; }",
		"int main(void) { struct l { char c; int i __attribute__((packed)); } v = {1, 2}; return v.i; }",
		// only sizeof of the type, which cc folds into a constant (no
		// object, no member access): gcc 5, cc 8
		"struct u { char c; int i; } __attribute__((packed));\nint main(void) { return sizeof(struct u) == 5; }",
		"struct s { char c; int i __attribute__((packed)); };\nint main(void) { return sizeof(struct s); }",
		// through a pointer only
		"struct __attribute__((packed)) p { char c; int i; };\nint f(struct p *q) { return q->i; }\nint main(void) { char b[8] = {0}; return f((struct p *)b); }",
	}
	for _, src := range rejected {
		_, err := Build("test.c", []byte(src), Options{DataModel: LP64})
		var e *Error
		if !errors.As(err, &e) || !strings.Contains(e.Error(), "unsupported:") || !strings.Contains(e.Error(), "packed") {
			t.Errorf("%q: got %v, want an unsupported packed layout error", src, err)
		}
	}
	accepted := []string{
		"struct __attribute__((packed)) p { int a; int b; };\nint main(void) { struct p s = {1, 2}; return s.b; }",
		"typedef union { unsigned u; } __attribute__((packed)) un;\nint main(void) { un x = {3}; return x.u; }",
		"struct p { char a; int b; };\nint main(void) { struct p s = {1, 2}; return s.b; }",
		// packed members already at their natural offsets (toshiba.c's
		// registers)
		"struct r { unsigned a; unsigned b __attribute__((__packed__)); unsigned c __attribute__((__packed__)); };\nint main(void) { struct r s = {1, 2, 3}; return s.c; }",
		"struct p { int a : 3; int b; char c; };\nint main(void) { struct p s = {1, 2}; return s.b; }",
		"#pragma pack(push)\n#pragma pack(pop)\n#pragma once\nstruct p { char c; int i; };\nint main(void) { struct p s = {1, 2}; return s.i; }",
	}
	for _, src := range accepted {
		if _, err := Build("test.c", []byte(src), Options{DataModel: LP64}); err != nil {
			t.Errorf("%q: %v", src, err)
		}
	}
}

// TestAlignofGCC: where gcc's alignof differs from the constant cc folds
// (alignof of an expression; __alignof__ of an 8-byte scalar with -m32),
// the unit is unsupported; the found wrong proofs were
// assert(__alignof__(buf) != 1) for char buf[64] and, with -m32,
// assert(__alignof__(long long) != 8). The values that agree stay.
func TestAlignofGCC(t *testing.T) {
	rejected := []struct {
		model DataModel
		src   string
	}{
		{LP64, "char buf[64];\nint main(void) { return __alignof__(buf) != 1; }"},
		{LP64, "struct s { long long x; } v;\nint main(void) { return _Alignof(v.x); }"},
		{LP64, "enum { A = __alignof__(\"ab\") };\nint main(void) { return A; }"},
		{ILP32, "int main(void) { return __alignof__(long long) != 8; }"},
		{ILP32, "int main(void) { int k = __alignof(double[2]) + 1; return k; }"},
		{ILP32, "int main(void) { enum { A = __alignof__(unsigned long long) }; return A; }"},
	}
	for _, r := range rejected {
		_, err := Build("test.c", []byte(r.src), Options{DataModel: r.model})
		var e *Error
		if !errors.As(err, &e) || !strings.Contains(e.Error(), "unsupported:") || !strings.Contains(e.Error(), "alignof") {
			t.Errorf("%v %q: got %v, want an unsupported alignof error", r.model, r.src, err)
		}
	}
	accepted := []struct {
		model DataModel
		src   string
	}{
		{LP64, "int main(void) { return __alignof__(long long) != 8; }"},
		{ILP32, "int main(void) { return _Alignof(long long) != 4; }"},
		{ILP32, "#include <stddef.h>\nint main(void) { return sizeof(size_t); }"},
		{ILP32, "struct s { long long x; };\nint main(void) { return __alignof__(struct s) + __alignof__(int) + __alignof__(long double); }"},
	}
	for _, r := range accepted {
		if _, err := Build("test.c", []byte(r.src), Options{DataModel: r.model}); err != nil {
			t.Errorf("%v %q: %v", r.model, r.src, err)
		}
	}
}

// TestBitfieldLayouts: unpacked structs with bit-fields whose gcc layout
// (checked against gcc's binaries by hand: sizes, offsets and the byte a
// bit-field's bits land in) is not cc's are unsupported; those cc lays out
// as gcc does stay. sizeof(struct { char c; unsigned a : 4; }) != 4 was
// proven (cc: 8).
func TestBitfieldLayouts(t *testing.T) {
	rejected := []string{
		"struct b { char c; unsigned a : 4; };",                  // gcc: a in byte 1, size 4 (cc 8)
		"struct b { unsigned long long a : 40; char c; };",       // gcc: c at 5, size 8 (cc 8, 16)
		"struct b { char c; unsigned a : 4; unsigned b : 28; };", // gcc: a at bit 8
		"struct b { char c; unsigned long long a : 20; };",       // gcc: size 8 (cc 16)
	}
	accepted := []string{
		"struct b { short s; unsigned a : 20; };",
		"struct b { unsigned a : 1; };",
		"struct b { char c; int : 0; char d; };",
		"struct b { char a : 3; char b : 6; };",
		"struct b { unsigned a : 31; unsigned b : 2; };",
		"struct b { char c[3]; unsigned a : 9; };",
		"struct b { int i; unsigned short a : 5; char c; };",
		"struct b { unsigned long long a : 33; unsigned b : 31; };",
		"struct b { _Bool f : 1; char c; };",
		"struct b { char c; short a : 9; };",
		"union b { unsigned long long a : 5; char c; };",
	}
	for _, model := range []DataModel{LP64, ILP32} {
		for _, def := range rejected {
			src := def + "\nint main(void) { struct b x = {0}; return sizeof x; }"
			_, err := Build("test.c", []byte(src), Options{DataModel: model})
			var e *Error
			if !errors.As(err, &e) || !strings.Contains(e.Error(), "laid out differently") {
				t.Errorf("%v %q: got %v, want an unsupported layout error", model, def, err)
			}
		}
		for _, def := range accepted {
			kind := "struct"
			if strings.HasPrefix(def, "union") {
				kind = "union"
			}
			src := def + "\nint main(void) { " + kind + " b x = {0}; return sizeof x; }"
			if _, err := Build("test.c", []byte(src), Options{DataModel: model}); err != nil {
				t.Errorf("%v %q: %v", model, def, err)
			}
		}
	}
}

// TestWideBitfieldArithmetic: gcc computes +, -, *, << and unary - and ~
// on a bit-field of a type wider than int in the bit-field's own width
// (x.a + 1 == 0 for unsigned long long a : 40 at its maximum), the IR in
// the declared type: (x.a << 1) != 0 was proven. Such units are
// unsupported; narrow bit-fields (promoted to int by gcc too), full-width
// ones, and the operators that cannot exceed the width stay.
func TestWideBitfieldArithmetic(t *testing.T) {
	def := "struct s { unsigned long long a : 40; long long b : 33; unsigned long long c : 20; unsigned long long d : 64; } x;\n"
	rejected := []string{"x.a + 1", "2 * (x.a)", "x.a << 1", "~x.a", "-x.b", "1 - x.b"}
	accepted := []string{"x.c + 1", "x.d * 2", "x.a & 3", "x.a >> 1", "x.a / 3", "x.a++", "x.a += 5", "(unsigned long long)x.a + 1"}
	for _, e := range rejected {
		src := def + "int main(void) { unsigned long long y = " + e + "; return y != 0; }"
		_, err := Build("test.c", []byte(src), Options{DataModel: LP64})
		var ce *Error
		if !errors.As(err, &ce) || !strings.Contains(ce.Error(), "bit-field of a wider type") {
			t.Errorf("%q: got %v, want an unsupported wide bit-field error", e, err)
		}
	}
	for _, e := range accepted {
		src := def + "int main(void) { unsigned long long y = " + e + "; return y != 0; }"
		if _, err := Build("test.c", []byte(src), Options{DataModel: LP64}); err != nil {
			t.Errorf("%q: %v", e, err)
		}
	}
}
