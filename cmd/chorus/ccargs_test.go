package main

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"chorus/cfg"
)

func TestSplitArgs(t *testing.T) {
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.String("domain", "", "")
	fs.Bool("quiet", false, "")
	fs.Int("j", 1, "")
	fs.String("p", "", "")
	own, cc, files, err := splitArgs(fs, strings.Fields("a.c --domain octagon -I inc -DX=1 -j 2 --quiet -O2 -p build b.c -o x.o -MF d -- -c.c"))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"--domain", "octagon", "-j", "2", "--quiet", "-p", "build"}; !reflect.DeepEqual(own, want) {
		t.Errorf("own = %q, want %q", own, want)
	}
	if want := []string{"-I", "inc", "-DX=1", "-O2", "-o", "x.o", "-MF", "d"}; !reflect.DeepEqual(cc, want) {
		t.Errorf("cc = %q, want %q", cc, want)
	}
	if want := []string{"a.c", "b.c", "-c.c"}; !reflect.DeepEqual(files, want) {
		t.Errorf("files = %q, want %q", files, want)
	}
	for _, bad := range [][]string{{"--frob", "a.c"}, {"-Q", "a.c"}, {"a.c", "--domain"}, {"a.c", "-I"}} {
		if _, _, _, err := splitArgs(fs, bad); err == nil {
			t.Errorf("splitArgs(%q): no error", bad)
		}
	}
}

const flagsProgram = `#include "lim.h"
extern void __VERIFIER_assert(int);
int a[LIM];
int main(void) {
  int i = FORCED + VAL;
  a[i] = 1;
  __VERIFIER_assert(i == 3);
  __VERIFIER_assert(sizeof(long) == WORD);
  return 0;
}
`

// TestCompilerFlags: -D, -U, -I (relative to the working directory),
// -include, -m32 and ignored flags reach the frontend of the worker
// processes, and unknown flags are usage errors.
func TestCompilerFlags(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, "inc"), 0o755)
	os.WriteFile(filepath.Join(dir, "inc", "lim.h"), []byte("#define LIM 4\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "force.h"), []byte("#define FORCED 1\n"), 0o644)
	src := filepath.Join(dir, "flags.c")
	os.WriteFile(src, []byte(flagsProgram), 0o644)
	wd, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)

	common := []string{"check", "--no-cache", "--format", "json", "-Iinc", "-include", "force.h", "-O2", "-Wall", "-g", "-c", "-o", "flags.o", "-MD", "-MF", "flags.d", "-pthread", "-std=gnu11"}
	code, out, errs := runCmd(append(common, "-DVAL=2", "-UVAL", "-DVAL=1+1", "-DWORD=8", "--", "flags.c")...)
	if code != 0 {
		t.Fatalf("LP64: exit %d\n%s\n%s", code, out, errs)
	}
	code, out, errs = runCmd(append(common, "-DVAL=2", "-DWORD=4", "-m32", "flags.c")...)
	if code != 0 {
		t.Fatalf("-m32: exit %d\n%s\n%s", code, out, errs)
	}
	code, out, _ = runCmd(append(common, "-DVAL=2", "-DWORD=4", "-m64", "flags.c")...)
	if code != 1 {
		t.Errorf("-m64 with WORD=4: exit %d, want 1 (sizeof(long) is 8)\n%s", code, out)
	}
	code, out, _ = runCmd(append(common, "-DWORD=8", "flags.c")...)
	if code != 2 || !strings.Contains(out, "VAL") {
		t.Errorf("without -DVAL: exit %d, want 2 naming VAL\n%s", code, out)
	} else {
		t.Logf("without -DVAL: %s", parseJSONReport(t, out).Files[0].Error)
	}
	code, _, errs = runCmd("check", "--no-cache", "-Iinc", "--frobnicate", "flags.c")
	if code != 2 || !strings.Contains(errs, "unknown flag --frobnicate") || !strings.Contains(errs, "usage:") {
		t.Errorf("unknown flag: exit %d\n%s", code, errs)
	}
	code, _, errs = runCmd("check", "--no-cache", "-fwrapv", "flags.c")
	if code != 2 || !strings.Contains(errs, "-fwrapv") {
		t.Errorf("-fwrapv: exit %d\n%s", code, errs)
	}
	code, _, errs = runCmd("check", "--data-model", "LP64", "-m32", "flags.c")
	if code != 2 || !strings.Contains(errs, "contradicts") {
		t.Errorf("--data-model LP64 -m32: exit %d\n%s", code, errs)
	}
	// chorus cfg takes the same flags.
	code, out, errs = runCmd("cfg", "-Iinc", "-include", "force.h", "-DVAL=2", "-DWORD=4", "-m32", "-O2", "flags.c")
	if code != 0 || !strings.Contains(out, "(ILP32)") {
		t.Errorf("cfg: exit %d\n%s\n%s", code, out, errs)
	}
}

// TestCompileDatabase: -p reads a build directory's database ("command"
// and "arguments" entries, relative paths), analyses each C entry with its
// own flags, tells two compiles of one file apart, skips assembly with a
// note, and with FILE arguments analyses only their entries.
func TestCompileDatabase(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "src", "inc"), 0o755)
	os.MkdirAll(filepath.Join(root, "build"), 0o755)
	os.WriteFile(filepath.Join(root, "src", "inc", "lim.h"), []byte("#define LIM 4\n"), 0o644)
	os.WriteFile(filepath.Join(root, "src", "force.h"), []byte("#define FORCED 1\n"), 0o644)
	os.WriteFile(filepath.Join(root, "src", "flags.c"), []byte(flagsProgram), 0o644)
	os.WriteFile(filepath.Join(root, "src", "other.c"), []byte(safeProgram), 0o644)
	os.WriteFile(filepath.Join(root, "src", "asm.S"), []byte("nop\n"), 0o644)
	db := []map[string]any{
		{"directory": "../src", "file": "flags.c", "command": `/usr/bin/cc -Iinc -include force.h "-DVAL=2" -DWORD=8 -O2 -c -o ok.o flags.c`, "output": "ok.o"},
		{"directory": "../src", "file": "flags.c", "arguments": []string{"cc", "-Iinc", "-include", "force.h", "-DVAL=1", "-DWORD=8", "-c", "-o", "bad.o", "flags.c"}, "output": "bad.o"},
		{"directory": "../src", "file": "asm.S", "arguments": []string{"cc", "-c", "asm.S"}},
		{"directory": filepath.Join(root, "src"), "file": filepath.Join(root, "src", "other.c"), "arguments": []string{"cc", "-c", "other.c"}},
	}
	data, _ := json.Marshal(db)
	os.WriteFile(filepath.Join(root, "build", "compile_commands.json"), data, 0o644)

	code, out, errs := runCmd("check", "--no-cache", "--format", "json", "--checks", "assert", "-p", filepath.Join(root, "build"))
	if code != 1 {
		t.Fatalf("exit %d, want 1 (bad.o fails)\n%s\n%s", code, out, errs)
	}
	if !strings.Contains(errs, "asm.S: note: skipped, not C") {
		t.Errorf("no note about asm.S:\n%s", errs)
	}
	r := parseJSONReport(t, out)
	got := map[string]string{}
	for _, f := range r.Files {
		got[filepath.Base(f.File)+"/"+f.Entry] = f.Verdict
	}
	want := map[string]string{"flags.c/ok.o": "safe", "flags.c/bad.o": "unknown", "other.c/": "safe"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("verdicts %v, want %v", got, want)
	}
	code, out, _ = runCmd("check", "--no-cache", "--checks", "assert", "-p", filepath.Join(root, "build"))
	if code != 1 || !strings.Contains(out, "flags.c:7:3: warning: assertion i == 3 not proven (fails whenever reached: i 2) [assert] (compile command bad.o)") {
		t.Errorf("text output does not name the compile command: exit %d\n%s", code, out)
	}
	// With FILE arguments: only their entries; the database may be named
	// directly.
	code, out, errs = runCmd("check", "--no-cache", "--format", "json", "-p", filepath.Join(root, "build", "compile_commands.json"), filepath.Join(root, "src", "other.c"))
	if code != 0 || len(parseJSONReport(t, out).Files) != 1 {
		t.Errorf("-p with a file: exit %d\n%s\n%s", code, out, errs)
	}
	code, _, errs = runCmd("check", "-p", filepath.Join(root, "build"), filepath.Join(root, "src", "missing.c"))
	if code != 2 || !strings.Contains(errs, "not in the compile database") {
		t.Errorf("-p with a file not in it: exit %d\n%s", code, errs)
	}
	code, _, errs = runCmd("check", "-p", filepath.Join(root, "nowhere"))
	if code != 2 {
		t.Errorf("-p of a missing database: exit %d\n%s", code, errs)
	}
	// chorus cfg -p FILE lowers with the entry's flags.
	code, _, errs = runCmd("cfg", "-p", filepath.Join(root, "build"), filepath.Join(root, "src", "flags.c"))
	if code != 0 {
		t.Errorf("cfg -p: exit %d\n%s", code, errs)
	}
}

// TestHostConfigDiskCache: the host compiler's configuration is stored
// once and read back (the probe is not run again).
func TestHostConfigDiskCache(t *testing.T) {
	if cfg.HostCompiler() == "" {
		t.Skip("no host C compiler")
	}
	saved := hostCacheDir
	hostCacheDir = t.TempDir()
	defer func() { hostCacheDir = saved }()
	p := cfg.HostProbe{DataModel: cfg.LP64, Std: "gnu99", Pthread: true}
	hc, err := diskHostConfig(p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(hc.Predefined, "__STDC_VERSION__ 199901L") || !strings.Contains(hc.Predefined, "_REENTRANT") {
		t.Errorf("the probe's flags did not reach the compiler:\n%.300s", hc.Predefined)
	}
	files, _ := filepath.Glob(filepath.Join(hostCacheDir, "*.json"))
	if len(files) != 1 {
		t.Fatalf("%d cache files, want 1", len(files))
	}
	// A planted entry is what the next lookup returns.
	planted := hc
	planted.Predefined = "#define CHORUS_PLANTED 1"
	data, _ := json.Marshal(planted)
	os.WriteFile(files[0], data, 0o644)
	again, err := diskHostConfig(p)
	if err != nil || again.Predefined != planted.Predefined {
		t.Errorf("second lookup did not use the cache: %v %.80q", err, again.Predefined)
	}
	// Another probe is another entry; a corrupt entry is probed again.
	os.WriteFile(files[0], []byte("{"), 0o644)
	if hc2, err := diskHostConfig(p); err != nil || hc2.Predefined != hc.Predefined {
		t.Errorf("corrupt entry: %v", err)
	}
}
