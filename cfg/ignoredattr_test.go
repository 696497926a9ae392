package cfg

import (
	"errors"
	"strings"
	"testing"
)

// TestIgnoredAttributes: a packed enum, a u8 string literal and sizeof of a
// function (GNU: 1) or of an array of empty structs (gcc: 0) are unsupported, and a machine mode cc ignores makes a unit unsupported
// where it matters (u_int8_t x = 255; x++; x != 0 was proven with old
// glibc's mode typedefs): at a use of a file-scope typedef, at any other
// declaration. Typedefs nobody names (the headers of many SV-COMP tasks)
// and modes of the type's own size are accepted.
func TestIgnoredAttributes(t *testing.T) {
	const glibc = "typedef unsigned int u_int8_t __attribute__ ((__mode__ (__QI__)));\n" +
		"typedef unsigned int u_int64_t __attribute__ ((__mode__ (__DI__)));\n" +
		"typedef int register_t __attribute__ ((__mode__ (__word__)));\n"
	rejected := []struct {
		model DataModel
		src   string
		at    string
	}{
		{LP64, glibc + "int main(void) { u_int8_t x = 255; x++; return x != 0; }", "test.c:4:"},
		{LP64, glibc + "int main(void) { return sizeof(u_int64_t); }", "test.c:4:"},
		{LP64, glibc + "typedef u_int8_t byte;\nint main(void) { return 0; }", "test.c:4:"},
		{LP64, glibc + "struct s { u_int8_t a; char b; };\nint main(void) { return sizeof(struct s); }", "test.c:4:"},
		{LP64, glibc + "int main(void) { return sizeof(register_t); }", "test.c:4:"},
		{LP64, "int main(void) { typedef int T __attribute__((mode(QI))); return 0; }", "test.c:1:"},
		{LP64, "int main(void) { int x __attribute__((mode(HI))) = 1; return x; }", "test.c:1:"},
		{LP64, "int g __attribute__((mode(QI)));\nint main(void) { return 0; }", "test.c:1:"},
		{LP64, "int main(void) { struct { __attribute__((mode(QI))) int a; char b; } s; return sizeof s; }", "test.c:1:"},
		{LP64, "struct o { struct { int a __attribute__((mode(QI))); } in; };\nint main(void) { return 0; }", "test.c:1:"},
		{LP64, "typedef __attribute__((mode(QI))) int T;\nint main(void) { T x = 1; return x; }", "test.c:2:"},
		{LP64, "typedef int V __attribute__((mode(V4SI)));\nint main(void) { V x; return sizeof x; }", "test.c:2:"},
	}
	for _, r := range rejected {
		_, err := Build("test.c", []byte(r.src), Options{DataModel: r.model})
		var e *Error
		if !errors.As(err, &e) || !strings.Contains(e.Error(), "unsupported:") || !strings.Contains(e.Error(), "mode(") || !strings.Contains(e.Error(), r.at) {
			t.Errorf("%v %q: got %v, want an unsupported mode error at %s", r.model, r.src, err, r.at)
		}
	}
	packedEnums := []string{
		"enum e { A, B } __attribute__((packed));\nint main(void) { return sizeof(enum e); }",
		"typedef enum { A, B } __attribute__((__packed__)) t;\nint main(void) { return 0; }",
		"struct s { enum { A, B } __attribute__((packed)) m; char c; };\nint main(void) { return 0; }",
		"int main(void) { enum { A } __attribute__((packed)) v = A; return v; }",
	}
	for _, src := range packedEnums {
		_, err := Build("test.c", []byte(src), Options{DataModel: LP64})
		var e *Error
		if !errors.As(err, &e) || !strings.Contains(e.Error(), "unsupported: a packed enum") {
			t.Errorf("%q: got %v, want an unsupported packed enum error", src, err)
		}
	}
	u8 := []string{
		"int main(void) { return sizeof(u8\"x\"); }",
		"int main(void) { const char *p = \"ab\" u8\"cd\"; return p[2]; }",
		"const char *g = u8\"x\";\nint main(void) { return g[0]; }",
	}
	for _, src := range u8 {
		_, err := Build("test.c", []byte(src), Options{DataModel: LP64})
		var e *Error
		if !errors.As(err, &e) || !strings.Contains(e.Error(), "unsupported: a u8 string literal") {
			t.Errorf("%q: got %v, want an unsupported u8 literal error", src, err)
		}
	}
	sizeofFunc := []string{
		"void f(void) {}\nint main(void) { return sizeof(f) != 1; }",
		"void f(void) {}\nint main(void) { void (*p)(void) = f; return sizeof *p; }",
		"void f(void) {}\nint main(void) { void (*a[2])(void) = {f, f}; return sizeof(*a[1]); }",
		"void f(void) {}\nextern char arr[sizeof f];\nint main(void) { return 0; }",
	}
	for _, src := range sizeofFunc {
		_, err := Build("test.c", []byte(src), Options{DataModel: LP64})
		var e *Error
		if !errors.As(err, &e) || !strings.Contains(e.Error(), "unsupported: sizeof of a function") {
			t.Errorf("%q: got %v, want an unsupported sizeof of a function error", src, err)
		}
	}
	zeroElems := []string{
		"struct e {};\nint main(void) { return sizeof(struct e[3]) != 0; }",
		"struct e {};\nint main(void) { struct e a[3]; return sizeof a; }",
		"struct e {};\nstruct w { struct e x[2]; int k; };\nint main(void) { return sizeof(struct w); }",
		// in declarations the unit walk skips (no initializer): folded all
		// the same (a[sizeof(struct e[3]) + 1] has 1 element in gcc)
		"struct e {};\nint a[sizeof(struct e[3]) + 1];\nint main(void) { return sizeof a != sizeof(int); }",
		"struct e {};\nenum { K = sizeof(struct e[2]) };\nint main(void) { return K != 0; }",
		"struct e {};\nstruct b { unsigned f : sizeof(struct e[4]) + 1; };\nint main(void) { return 0; }",
	}
	for _, src := range zeroElems {
		_, err := Build("test.c", []byte(src), Options{DataModel: LP64})
		var e *Error
		if !errors.As(err, &e) || !strings.Contains(e.Error(), "unsupported:") {
			t.Errorf("%q: got %v, want unsupported (an array of empty structs)", src, err)
		}
	}
	accepted := []struct {
		model DataModel
		src   string
	}{
		{LP64, glibc + "int main(void) { return 0; }"},
		{ILP32, "typedef int register_t __attribute__ ((__mode__ (__word__)));\nint main(void) { register_t r = 1; return r; }"},
		{LP64, "typedef int si_t __attribute__((mode(SI)));\nint main(void) { si_t x = 1; return x; }"},
		{LP64, "int main(void) { long __attribute__((__mode__(__DI__))) q = 1; return (int)q; }"},
		{LP64, "enum e { A, B } __attribute__((unused)) v;\nint main(void) { return sizeof v; }"},
		{LP64, "struct e {};\nint main(void) { struct e one; int z[0]; return sizeof one + sizeof z; }"},
		{LP64, "int f(void) { return 1; }\nint main(void) { int (*p)(void) = f; return sizeof(p) + sizeof(f()) + sizeof(&f); }"},
		{LP64, "int main(void) { const char *p = \"a\\\"b\" \"c\\\\\"; return p[1] + sizeof(\"x\" \"y\"); }"},
	}
	for _, r := range accepted {
		if _, err := Build("test.c", []byte(r.src), Options{DataModel: r.model}); err != nil {
			t.Errorf("%v %q: %v", r.model, r.src, err)
		}
	}
}
