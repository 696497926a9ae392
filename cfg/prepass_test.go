package cfg

import (
	"strings"
	"testing"

	"chorus/internal/ccflags"
	"time"
)

// streamCannotBeCut decides whether translateFile may skip the
// preprocessor pass that stops at errors before parsing: only units that
// can neither fail an #include nor hit the expansion limit.
func TestStreamCannotBeCut(t *testing.T) {
	preprocessed := "# 1 \"a.c\"\n# 1 \"<built-in>\" 1\n#line 4 \"a.c\"\n#pragma pack(1)\n#ident \"x\"\nint x = 1;\n"
	for _, c := range []struct {
		name string
		opts Options
		src  string
		want bool
	}{
		{"preprocessed .i", Options{}, preprocessed, true},
		{"no directives", Options{}, "int main(void) { return 0; }\n", true},
		{"include", Options{}, "#include <nosuch.h>\nint *", false},
		{"include_next after spaces", Options{}, "int a;\n  #  include_next <x.h>\n", false},
		{"define", Options{}, "#define A B B\nint x;", false},
		{"line continuation", Options{}, "#\\\ninclude <x.h>\n", false},
		{"digraph", Options{}, "%:include <x.h>\n", false},
		{"trigraph", Options{}, "??=include <x.h>\n", false},
		{"hash in a string", Options{}, "char *s = \"#include\";\n", false},
		{"forced include", Options{ForcedIncludes: []string{"x.h"}}, "int x;", false},
		{"command-line macro", Options{Macros: []ccflags.Macro{{Name: "A", Value: "1"}}}, "int x;", false},
		{"large", Options{}, strings.Repeat("int x;\n", maxUncheckedSource/7+1), false},
	} {
		if got := streamCannotBeCut(c.opts, []byte(c.src)); got != c.want {
			t.Errorf("%s: streamCannotBeCut = %v, want %v", c.name, got, c.want)
		}
	}
}

// A unit that ends inside a macro invocation or after '*' with no
// directive of its own is translated without the error pre-pass: it must
// still end in a positioned error, not a hang (the parser loops when the
// stream ends right after '*', translateFile).
func TestUnterminatedWithoutPrepass(t *testing.T) {
	for _, src := range []string{"int *", "int *__INTMAX_C(", "int f(void) { return __INTMAX_C(1 *", "int * __builtin_offsetof(", "int *'"} {
		if !streamCannotBeCut(Options{}, []byte(src)) {
			t.Fatalf("%q: expected to skip the pre-pass", src)
		}
		done := make(chan error, 1)
		go func() {
			_, err := Build("u.c", []byte(src), Options{})
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), "u.c:") {
				t.Errorf("%q: want an error at u.c, got %v", src, err)
			}
		case <-time.After(time.Minute):
			t.Fatalf("%q: Build does not return", src)
		}
	}
}
