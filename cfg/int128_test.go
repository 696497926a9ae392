package cfg

import (
	"errors"
	"strings"
	"testing"
)

// TestInt128Unsupported: __int128 was modelled as 64 bits, and
// x = 1ULL << 63; x *= 2; x == 0 was proven for an unsigned __int128
// (gcc: x is 2^64). A unit using it is unsupported.
func TestInt128Unsupported(t *testing.T) {
	for _, src := range []string{
		"int main(void) { unsigned __int128 x = 1ULL << 63; x *= 2; return x == 0; }",
		"__int128 g;\nint main(void) { return g != 0; }",
		"int main(void) { long long a = 5; return (int)((__int128)a * a); }",
	} {
		_, err := Build("test.c", []byte(src), Options{DataModel: LP64})
		var e *Error
		if !errors.As(err, &e) || !strings.Contains(e.Error(), "128-bit") {
			t.Errorf("%q: got %v, want an unsupported 128-bit integer error", src, err)
		}
	}
}

// TestSizeofFunctionUnsupported: gcc's sizeof of a function is 1, cc's 8,
// and sizeof(f) != 1 was proven.
func TestSizeofFunctionUnsupported(t *testing.T) {
	for _, src := range []string{
		"void f(void) {}\nint main(void) { return sizeof(f) != 1; }",
		"void f(void) {}\nint main(void) { void (*p)(void) = f; return sizeof *p; }",
	} {
		_, err := Build("test.c", []byte(src), Options{DataModel: LP64})
		var e *Error
		if !errors.As(err, &e) || !strings.Contains(e.Error(), "sizeof of a function") {
			t.Errorf("%q: got %v, want an unsupported sizeof of a function error", src, err)
		}
	}
	ok := "void f(void) {}\nint main(void) { void (*p)(void) = f; return sizeof(p) != 8; }"
	if _, err := Build("test.c", []byte(ok), Options{DataModel: LP64}); err != nil {
		t.Errorf("sizeof of a function pointer: %v", err)
	}
}
