package cfg

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"chorus/internal/ccflags"
)

// TestCastNamesFirstSameIR: translating the safely blanked source first
// (castNamesFirst) lowers every DDVerify driver to the same IR, byte for
// byte, as translating the original first (whose redeclaration error
// made translateFile retry with the blanked source), and every driver
// takes the new path (safeCastParamBlanks accepts it; six have a '#' in
// a printk format, which definesNoMacro admits). An unsafe blank (a type
// name blanked after a qualifier, a different blanking) or a wrong
// fallback changes some IR or some error. floppy.c (its lowering alone
// takes most of a minute twice) is left out.
func TestCastNamesFirstSameIR(t *testing.T) {
	files, _ := filepath.Glob("../../shared/corpus/ddverify/*.c")
	if len(files) == 0 {
		t.Skip("DDVerify corpus not present")
	}
	if testing.Short() {
		files = files[:4]
	}
	defer func(old bool) { castNamesFirst = old }(castNamesFirst)
	opts := Options{DataModel: ILP32}
	conf, err := frontendConfig(opts)
	if err != nil {
		t.Fatal(err)
	}
	taken := 0
	for _, f := range files {
		if filepath.Base(f) == "floppy.c" {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := safeCastParamBlanks(conf, opts, src); ok {
			taken++
		} else {
			t.Errorf("%s: the blanked source is not taken first", filepath.Base(f))
		}
		var out [2]bytes.Buffer
		for i, first := range []bool{false, true} {
			castNamesFirst = first
			p, err := BuildFile(f, opts)
			if err != nil {
				t.Fatalf("%s (blanked first %v): %v", f, first, err)
			}
			p.Write(&out[i])
		}
		if !bytes.Equal(out[0].Bytes(), out[1].Bytes()) {
			t.Errorf("%s: the IR differs when the blanked source is translated first", filepath.Base(f))
		}
	}
	if taken < len(files)-1 {
		t.Errorf("the blanked source is taken first for %d of %d drivers", taken, len(files)-1)
	}
}

// TestSafeCastParamBlanks: the blanked source is taken first only when
// every blanked name is certainly a parameter name.
func TestSafeCastParamBlanks(t *testing.T) {
	opts := Options{DataModel: ILP32}
	conf, err := frontendConfig(opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		src  string
		safe bool
	}{
		{"void f(void *p) { ((int (*)(struct s *a, int b))p)(0, 0); }\n", true},
		{"typedef long off_t; void f(void *p) { ((int (*)(off_t o))p)(0); }\n", true},
		{"void f(void *p) { ((int (*)(unsigned long n))p)(0); }\n", true},
		// after a qualifier the identifier may be a typedef name
		{"typedef int T; void f(void *p) { ((int (*)(const T))p)(0); }\n", false},
		{"typedef int T; void f(void *p) { ((int (*)(volatile T))p)(0); }\n", false},
		{"typedef int T; void f(void *p) { ((int (*)(register T))p)(0); }\n", false},
		{"typedef int T; void f(void *p) { ((int (*)(__restrict T))p)(0); }\n", false},
		// a predefined macro as the name or before it
		{"void f(void *p) { ((int (*)(int linux))p)(0); }\n", false},
		{"void f(void *p) { ((int (*)(unix x))p)(0); }\n", false},
		// a macro of the file, an include: not the whole text
		{"#define C const\ntypedef int T; void f(void *p) { ((int (*)(C T))p)(0); }\n", false},
		{"#include <stddef.h>\nvoid f(void *p) { ((int (*)(size_t n))p)(0); }\n", false},
		// nothing to blank
		{"void f(void *p) { ((int (*)(int))p)(0); }\n", false},
	} {
		_, ok := safeCastParamBlanks(conf, opts, []byte(c.src))
		if ok != c.safe {
			t.Errorf("%q: safe %v, want %v", c.src, ok, c.safe)
		}
	}
}

// TestCastNamesFirstSameErrors: when the blanked source fails too, the
// error is the original's, as when the original was translated first (a
// syntax error, an undeclared name). (Not two redeclarations: cc walks
// a scope's names in map order, so which one it reports varies from run
// to run.)
func TestCastNamesFirstSameErrors(t *testing.T) {
	defer func(old bool) { castNamesFirst = old }(castNamesFirst)
	for _, src := range []string{
		"void f(void *p) { ((int (*)(int a))p)(0); ((int (*)(int a))p)(0); }\nint g( { }\n",
		"void f(void *p) { ((int (*)(int a))p)(0); ((int (*)(int a))p)(0); return q; }\n",
	} {
		var msgs [2]string
		for i, first := range []bool{false, true} {
			castNamesFirst = first
			_, err := Build("t.c", []byte(src), Options{DataModel: ILP32})
			if err == nil {
				t.Fatalf("%q: no error", src)
			}
			msgs[i] = err.Error()
		}
		if msgs[0] != msgs[1] {
			t.Errorf("%q: error %q, want %q", src, msgs[1], msgs[0])
		}
	}
}

// TestDefinesNoMacro: a '#' after other text on its line is admitted only
// when no comment can end before it; every directive must be a line
// marker, #line, #pragma or #ident.
func TestDefinesNoMacro(t *testing.T) {
	for _, c := range []struct {
		src string
		ok  bool
	}{
		{"# 1 \"a.c\"\n#line 2\n#pragma x\nint x;\n", true},
		{"void f(void) { printk(\"%#x\", 1); }\n", true},
		{"#define X 1\n", false},
		{"  #  include <a.h>\n", false},
		{"/* c */ #define X 1\n", false},
		{"/* c\n */ #define X 1\n", false},
		{"int x; // \"#\"\n", false}, // '/' before it: refused, conservatively
		{"int x;\r#define X 1\r", false},
		{"int x; \\\n#define X 1\n", false},
		{"int x %: define X 1\n", false},
		{"??= define X 1\n", false},
	} {
		if got := definesNoMacro(Options{}, []byte(c.src)); got != c.ok {
			t.Errorf("%q: %v, want %v", c.src, got, c.ok)
		}
	}
	if definesNoMacro(Options{Macros: []ccflags.Macro{{Name: "X"}}}, []byte("int x;\n")) {
		t.Errorf("a command-line macro is admitted")
	}
}
