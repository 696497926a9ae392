package main

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"chorus/analysis"
)

// TestGCCDifferential runs the probes of testdata/gccdiff (README.md
// there): each file must hold under gcc (compiled and run: exit 0), and
// for each of its probe asserts, negated alone, chorus must not call the
// negation proven or unreachable with either domain — it fails in every
// run of gcc's binary. Skipped without gcc; a file that needs -m32 is
// skipped where gcc cannot link 32-bit programs.
func TestGCCDifferential(t *testing.T) {
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("no gcc on PATH")
	}
	files, _ := filepath.Glob("../../testdata/gccdiff/*.c")
	if len(files) == 0 {
		t.Fatal("no probes in testdata/gccdiff")
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(string(src), "\n")
			chorusFlags, gccFlags := gccdiffFlags(lines[0])
			dir := t.TempDir()
			bin := filepath.Join(dir, "probe")
			build := exec.Command(gcc, append(append([]string{"-w", "-pthread"}, gccFlags...), "-o", bin, path)...)
			if out, err := build.CombinedOutput(); err != nil {
				for _, f := range gccFlags {
					if f == "-m32" {
						t.Skipf("gcc cannot build -m32 programs here: %s", firstLine(string(out)))
					}
				}
				t.Fatalf("gcc: %v\n%s", err, out)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			if out, err := exec.CommandContext(ctx, bin).CombinedOutput(); err != nil {
				t.Fatalf("gcc's binary fails (a probe does not hold): %v\n%s", err, out)
			}
			var probes []int
			for i, l := range lines {
				if strings.Contains(l, "// probe") {
					probes = append(probes, i)
				}
			}
			for _, i := range probes {
				variant := append([]string(nil), lines...)
				for _, j := range probes {
					if j != i {
						variant[j] = ""
					}
				}
				neg, ok := negateAssert(lines[i])
				if !ok {
					t.Fatalf("%s:%d: no assert(...) to negate", path, i+1)
				}
				variant[i] = neg
				file := filepath.Join(dir, filepath.Base(path))
				if err := os.WriteFile(file, []byte(strings.Join(variant, "\n")), 0o644); err != nil {
					t.Fatal(err)
				}
				for _, dom := range []string{"interval", "octagon"} {
					args := append(append([]string{"--checks", "assert", "--domain", dom}, chorusFlags...), file)
					o, err := parseCheckArgs(args, io.Discard)
					if err != nil {
						t.Fatalf("%s:1: bad chorus flags %q: %v", path, chorusFlags, err)
					}
					o.timeout = 60 * time.Second
					out := checkFile(o, file)
					if out.err != nil {
						t.Errorf("%s:%d (negated, %s): %v", path, i+1, dom, out.err)
						continue
					}
					found := false
					for _, c := range out.res.Checks {
						if c.Check.Pos.Line != i+1 {
							continue
						}
						found = true
						if c.Status == analysis.Proven || c.Status == analysis.Unreachable {
							t.Errorf("%s:%d: the negation of a probe that holds in gcc's binary is %s with --domain %s:\n\t%s", path, i+1, c.Status, dom, strings.TrimSpace(neg))
						}
					}
					if !found {
						t.Errorf("%s:%d (negated, %s): no check on the line", path, i+1, dom)
					}
				}
			}
		})
	}
}

// gccdiffFlags reads "// gccdiff: chorus=A,B gcc=C,D" (commas separate
// the flags of one tool).
func gccdiffFlags(first string) (chorusFlags, gccFlags []string) {
	rest, ok := strings.CutPrefix(strings.TrimSpace(first), "// gccdiff:")
	if !ok {
		return nil, nil
	}
	for _, f := range strings.Fields(rest) {
		if v, ok := strings.CutPrefix(f, "chorus="); ok {
			chorusFlags = append(chorusFlags, strings.Split(v, ",")...)
		} else if v, ok := strings.CutPrefix(f, "gcc="); ok {
			gccFlags = append(gccFlags, strings.Split(v, ",")...)
		}
	}
	return chorusFlags, gccFlags
}

// negateAssert turns the line's first assert(c) into assert(!(c)).
func negateAssert(line string) (string, bool) {
	i := strings.Index(line, "assert(")
	if i < 0 {
		return "", false
	}
	open := i + len("assert(")
	depth := 1
	for j := open; j < len(line); j++ {
		switch line[j] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return line[:open] + "!(" + line[open:j] + ")" + line[j:], true
			}
		case '\'':
			// skip a character literal ('(' or ')' inside one)
			if k := strings.IndexByte(line[j+1:], '\''); k >= 0 {
				j += k + 1
			}
		}
	}
	return "", false
}
