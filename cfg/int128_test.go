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
