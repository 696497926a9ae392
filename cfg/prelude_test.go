package cfg

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"modernc.org/cc/v4"
)

// keptLines are the non-empty lines of a pruned text.
func keptLines(text string) map[string]bool {
	out := map[string]bool{}
	for _, l := range strings.Split(text, "\n") {
		if l != "" {
			out[strings.TrimSpace(l)] = true
		}
	}
	return out
}

// TestPrunePreludeKeepsWhatIsNamed: a prototype or macro stays when the
// unit names it, directly or through a kept macro; the others go; lines
// keep their numbers.
func TestPrunePreludeKeepsWhatIsNamed(t *testing.T) {
	predefined := "#define __WCHAR_MAX__ 0x7fffffff\n#define __WCHAR_MIN__ (-__WCHAR_MAX__ - 1)\n#define __CHAR_BIT__ 8\n#define __SIZE_TYPE__ long unsigned int\n#define __INT64_C(c) c ## L"
	builtin := "#ifdef __SIZE_TYPE__\ntypedef __SIZE_TYPE__ __predefined_size_t;\n#endif\ndouble __builtin_fabs(double x);\nint __builtin_abs(int j);\nvoid *__builtin_memcpy(void *dest, const void *src, __SIZE_TYPE__ n);"
	src := []byte("int f(void) { return __WCHAR_MIN__ + (int)__builtin_fabs(-1.0); }\n")
	pre, bi, ok := prunePrelude(predefined, builtin, src)
	if !ok {
		t.Fatal("not pruned")
	}
	if strings.Count(pre, "\n") != strings.Count(predefined, "\n") || strings.Count(bi, "\n") != strings.Count(builtin, "\n") {
		t.Errorf("line numbers changed:\n%s\n%s", pre, bi)
	}
	kp, kb := keptLines(pre), keptLines(bi)
	for _, want := range []string{"#define __WCHAR_MIN__ (-__WCHAR_MAX__ - 1)", "#define __WCHAR_MAX__ 0x7fffffff", "#define __SIZE_TYPE__ long unsigned int"} {
		if !kp[want] {
			t.Errorf("dropped %q:\n%s", want, pre)
		}
	}
	for _, gone := range []string{"#define __CHAR_BIT__ 8", "#define __INT64_C(c) c ## L"} {
		if kp[gone] {
			t.Errorf("kept %q", gone)
		}
	}
	if !kb["double __builtin_fabs(double x);"] || !kb["typedef __SIZE_TYPE__ __predefined_size_t;"] || !kb["#ifdef __SIZE_TYPE__"] {
		t.Errorf("dropped a named or non-prototype line:\n%s", bi)
	}
	if kb["int __builtin_abs(int j);"] || kb["void *__builtin_memcpy(void *dest, const void *src, __SIZE_TYPE__ n);"] {
		t.Errorf("kept an unnamed prototype:\n%s", bi)
	}
}

// TestPrunePreludeRefuses: no pruning where a name can be formed that no
// text spells: token pasting of a kept macro, line splices, the trigraph
// of a backslash, universal character names.
func TestPrunePreludeRefuses(t *testing.T) {
	predefined := "#define __INT64_C(c) c ## L\n#define __CHAR_BIT__ 8"
	builtin := "int __builtin_abs(int j);"
	for name, src := range map[string]string{
		"paste":              "long x = __INT64_C(1);",
		"splice":             "int x = __builtin_\\\nabs(1);",
		"splice with blanks": "int x = __builtin_\\  \nabs(1);",
		"trigraph":           "int x = __builtin_?" + "?/\nabs(1);",
		"ucn":                "int x = __builtin_\\u0061bs(1);",
	} {
		pre, bi, ok := prunePrelude(predefined, builtin, []byte(src))
		if ok || pre != predefined || bi != builtin {
			t.Errorf("%s: pruned (ok=%v)", name, ok)
		}
	}
	// A line that is always kept (cc.Builtin's own macros) pastes.
	pasting := "#define __builtin_glue(a, b) a ## b\n" + builtin
	if pre, bi, ok := prunePrelude(predefined, pasting, []byte("int x = __builtin_glue(__builtin_, abs)(1);")); ok || pre != predefined || bi != pasting {
		t.Errorf("always-kept paste: pruned (ok=%v)", ok)
	}
}

// TestPrototypeName: the builtin lines pruning may drop, and lines it must
// keep whatever they name.
func TestPrototypeName(t *testing.T) {
	for line, want := range map[string]string{
		"void *__builtin_memcpy(void *dest, const void *src, __SIZE_TYPE__ n);": "__builtin_memcpy",
		"int __builtin_clz (unsigned int x);":                                   "__builtin_clz",
		"long double __builtin_atanl( long double x);":                          "__builtin_atanl",
		"typedef void *__builtin_va_list;":                                      "",
		"int __predefined_declarator;":                                          "",
		"#define __builtin_va_copy(dst, src) dst = src":                         "",
		"void (*__builtin_signal(int, void (*)(int)))(int);":                    "",
		"/* int __builtin_x(int); */":                                           "",
		"__builtin_x(int);":                                                     "",
		"int f(int);":                                                           "",
	} {
		if got := prototypeName(line); got != want {
			t.Errorf("prototypeName(%q) = %q, want %q", line, got, want)
		}
	}
}

// TestPrunedPreludeSameIR: the lowered program of a whole-unit source is
// the same with the pruned prelude as with all of it: cfg's preprocessed
// test sources and, when the corpus is there, every SV-COMP task (both
// data models). A prelude line pruning wrongly dropped would change a
// type, a constant or the lowering (or fail it).
func TestPrunedPreludeSameIR(t *testing.T) {
	var files []string
	if !testing.Short() {
		root := filepath.Join("..", "..", "shared", "corpus", "svcomp")
		if env := os.Getenv("CHORUS_CORPUS"); env != "" {
			root = filepath.Join(env, "svcomp")
		}
		files, _ = filepath.Glob(filepath.Join(root, "*", "*.i"))
	}
	inline := map[string]string{
		"uses.i": "# 1 \"uses.c\"\ntypedef __SIZE_TYPE__ size_t;\nlong m = __LONG_MAX__; int w = __WCHAR_MIN__; int b = __CHAR_BIT__;\n" +
			"int main(void) { size_t n = sizeof(long); double d = __builtin_fabs(-2.0); int a = __builtin_abs(-3);\n" +
			"if (__builtin_expect(n == 8, 1)) a++; return (int)d + a + b + (int)n; }\n",
		"shadow.i": "int __builtin_abs(int);\nint main(void) { int x = __builtin_abs(-1); return x; }\n",
		// Declared, never called: abort() is then no failure (abortIsError).
		"convention.i": "extern void abort(void);\nextern void __VERIFIER_error(void);\nint g;\nint main(void) { if (g) abort(); return 0; }\n",
	}
	type unit struct {
		name string
		src  []byte
	}
	var units []unit
	for name, src := range inline {
		units = append(units, unit{name, []byte(src)})
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		units = append(units, unit{f, src})
	}
	lower := func(name string, src []byte, dm DataModel, prune bool) string {
		prunePreludes = prune
		defer func() { prunePreludes = true }()
		prog, err := Build(name, src, Options{DataModel: dm})
		if err != nil {
			return "error: " + err.Error()
		}
		var b bytes.Buffer
		prog.Write(&b)
		return b.String()
	}
	conf, err := frontendConfig(Options{})
	if err != nil {
		t.Fatal(err)
	}
	pruned := 0
	for _, u := range units {
		if pre, _, ok := prunePrelude(conf.Predefined, cc.Builtin, u.src); ok && wholeUnitText(Options{}, u.src) && pre != conf.Predefined {
			pruned++
		}
		for _, dm := range []DataModel{LP64, ILP32} {
			whole, part := lower(u.name, u.src, dm, false), lower(u.name, u.src, dm, true)
			if whole != part {
				t.Errorf("%s (%v): the pruned prelude changes the program:\n--- whole prelude:\n%.2000s\n--- pruned:\n%.2000s", u.name, dm, whole, part)
			}
			if _, ok := inline[u.name]; ok && strings.HasPrefix(whole, "error: ") {
				t.Errorf("%s: %s", u.name, whole)
			}
		}
	}
	if pruned == 0 {
		t.Error("no unit was pruned: the test compares nothing")
	}
}

// TestBlankUnusedPrototypes: which file-scope declarations go, which
// stay; the file keeps its length and its lines.
func TestBlankUnusedPrototypes(t *testing.T) {
	inPrelude := func(w string) bool { return w == "__builtin_abs" }
	for _, c := range []struct {
		decl string
		drop bool
	}{
		{"extern int unused_f(int x, const char *s);", true},
		{"extern void *unused_g(void) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__malloc__));", true},
		{"extern int unused_h(int) __asm__ (\"\" \"unused_h64\");", true},
		{"__attribute__((noreturn)) static void unused_i(void);", true},
		{"extern int used_f(int);", false},                  // called below
		{"unused_j(int);", false},                           // no specifier
		{"extern int unused_k(int), unused_l(int);", false}, // two declarators
		{"extern struct tag *unused_m(void);", false},       // names a tag
		{"extern int unused_n(struct tag2 *);", false},      // names a tag
		{"typedef int unused_o(int);", false},               // a type
		{"extern enum e unused_p(void);", false},            // names an enum
		{"int unused_q(int a) { return a; }", false},        // a definition
		{"int unused_r(a) int a; { return a; }", false},     // K&R definition
		{"extern __typeof__(used_f) unused_s;", false},      // typeof
		{"_Atomic(int) unused_t(void);", false},             // _Atomic(...)
		{"extern int __builtin_abs(int);", false},           // the prelude names it
		{"extern int unused_u(void) /* c */;", false},       // a comment
		{"int unused_v = sizeof(int);", false},              // an object
		{"extern void (*unused_w(int))(int);", false},       // returns a function pointer
		{"extern int\n# 3 \"x.h\"\nunused_x(void);", false}, // a directive inside
		{"extern void __VERIFIER_error(void);", false},      // declared: abort() is no failure
		{"extern void reach_error(void);", false},           // the same
	} {
		src := "# 1 \"t.c\"\n" + c.decl + "\nint used_f(int);\nint main(void) { return used_f(1); }\n"
		out := blankUnusedPrototypes([]byte(src), inPrelude)
		if len(out) != len(src) || strings.Count(string(out), "\n") != strings.Count(src, "\n") {
			t.Errorf("%q: length or lines changed:\n%s", c.decl, out)
		}
		dropped := !strings.Contains(string(out), strings.TrimSuffix(strings.SplitN(c.decl, "(", 2)[0], " "))
		if dropped != c.drop {
			t.Errorf("%q: dropped %v, want %v:\n%s", c.decl, dropped, c.drop, out)
		}
		if _, err := Build("t.i", out, Options{}); err != nil && c.drop {
			t.Errorf("%q: the pruned file does not lower: %v", c.decl, err)
		}
	}
	// Block scope and strings are not file scope; digraphs refuse.
	for _, src := range []string{
		"int main(void) { extern int unused_a(int); return 0; }\n",
		"char *s = \"; extern int unused_b(int);\";\n",
		"int main(void) <% return 0; %>\nextern int unused_c(int);\n",
	} {
		if out := blankUnusedPrototypes([]byte(src), inPrelude); string(out) != src {
			t.Errorf("%q: blanked:\n%s", src, out)
		}
	}
}
