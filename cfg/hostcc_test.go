package cfg

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"chorus/internal/ccflags"
)

// TestIncludeSearch: absolute include names, the gcc search order
// (-iquote for "..." only, -I before -isystem before the system, -idirafter
// last), forced includes and command-line macros in order; InputDigest
// changes with each of them.
func TestIncludeSearch(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, s string) string {
		p := filepath.Join(dir, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	abs := write("abs/a.h", "#define FROM_ABS 1\n")
	write("q/which.h", "#define QUOTE 1\n")
	write("i/which.h", "#define INC 1\n")
	write("i/sys.h", "#define SYS_FROM_I 1\n")
	write("s/sys.h", "#define SYS_FROM_S 1\n")
	write("after/late.h", "#define LATE 1\n")
	force := write("force.h", "#define FORCED 1\n")
	src := `#include "` + abs + `"
#include <` + abs + `>
#include "which.h"
#include <which.h>
#include <sys.h>
#include <late.h>
#if FROM_ABS && QUOTE && INC && SYS_FROM_I && !defined(SYS_FROM_S) && LATE && FORCED && A == 2 && !defined(B) && _REENTRANT && __STDC_VERSION__ == 199901L
int ok;
#else
#error wrong include search
#endif
int main(void) { return 0; }
`
	file := write("main.c", src)
	opts := Options{
		DataModel:      LP64,
		QuoteDirs:      []string{filepath.Join(dir, "q")},
		IncludeDirs:    []string{filepath.Join(dir, "i")},
		SystemDirs:     []string{filepath.Join(dir, "s")},
		AfterDirs:      []string{filepath.Join(dir, "after")},
		ForcedIncludes: []string{force},
		Macros:         []ccflags.Macro{{Name: "A", Value: "1"}, {Name: "B", Value: "1"}, {Name: "A", Undef: true}, {Name: "A", Value: "2"}, {Name: "B", Undef: true}},
		Std:            "c99",
		Pthread:        true,
	}
	if _, err := BuildFile(file, opts); err != nil {
		t.Fatalf("Build: %v", err)
	}
	d0, err := InputDigest(file, opts)
	if err != nil {
		t.Fatal(err)
	}
	for name, change := range map[string]func(o *Options){
		"macro":   func(o *Options) { o.Macros = append(o.Macros, ccflags.Macro{Name: "C", Value: "1"}) },
		"include": func(o *Options) { o.ForcedIncludes = nil },
		"dirs":    func(o *Options) { o.AfterDirs = nil },
		"std":     func(o *Options) { o.Std = "c11" },
	} {
		o := opts
		change(&o)
		d, err := InputDigest(file, o)
		if err != nil || string(d) == string(d0) {
			t.Errorf("%s: digest unchanged (%v)", name, err)
		}
	}
	// Without the flags the unit does not compile, and the error names
	// the file.
	_, err = BuildFile(file, Options{DataModel: LP64})
	if err == nil || !strings.Contains(err.Error(), "main.c") {
		t.Errorf("without flags: %v", err)
	}
}

// Issue 10: -std=c89/c99/c11 make typeof and asm ordinary identifiers, as
// gcc does; -std=gnu99 and the default keep them keywords (the program
// is then a syntax error, with its position).
func TestStdKeywords(t *testing.T) {
	src := []byte("int typeof = 1;\nint asm = 2;\nint main(void) { return typeof + asm; }\n")
	for _, std := range []string{"c89", "c99", "c11"} {
		if _, err := Build("kw.c", src, Options{DataModel: LP64, Std: std}); err != nil {
			t.Errorf("-std=%s: %v", std, err)
		}
	}
	for _, std := range []string{"gnu99", ""} {
		_, err := Build("kw.c", src, Options{DataModel: LP64, Std: std})
		if err == nil || !strings.Contains(err.Error(), "kw.c:1:") {
			t.Errorf("-std=%q: want a syntax error at kw.c:1, got %v", std, err)
		}
	}
	// typeof stays usable as __typeof__ in ISO modes.
	if _, err := Build("kw2.c", []byte("int x; __typeof__(x) y; int main(void) { return y; }\n"), Options{DataModel: LP64, Std: "c99"}); err != nil {
		t.Errorf("__typeof__ under -std=c99: %v", err)
	}
}
