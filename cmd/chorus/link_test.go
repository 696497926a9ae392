package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// chorus check -p build/ --link on a small CMake-like project
// (testdata/link: two units, each entry with its own flags, a header that
// needs the build's -D, a static name in both units, pthread_create and a
// callback across units). The program analyses as one; without --link the
// unit with main fails (its thread function has no body there).
func TestCheckCompileDBLink(t *testing.T) {
	src := filepath.Join("..", "..", "testdata", "link")
	root := t.TempDir()
	for _, f := range []string{"include/jobs.h", "src/main.c", "src/worker.c"} {
		data, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(filepath.Join(root, filepath.Dir(f)), 0o755)
		if err := os.WriteFile(filepath.Join(root, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tmpl, err := os.ReadFile(filepath.Join(src, "compile_commands.template.json"))
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(root, "build"), 0o755)
	db := strings.ReplaceAll(string(tmpl), "@ROOT@", root)
	if err := os.WriteFile(filepath.Join(root, "build", "compile_commands.json"), []byte(db), 0o644); err != nil {
		t.Fatal(err)
	}
	build := filepath.Join(root, "build")
	code, out, errOut := runCmd("check", "--no-cache", "-p", build, "--link")
	if code != 1 {
		t.Fatalf("exit %d, want 1 (one unproven check)\n%s%s", code, out, errOut)
	}
	if !strings.Contains(out, "worker.c:10:3: warning: index slots[count] out of bounds") || !strings.Contains(out, "count@worker.c 100") {
		t.Errorf("worker's static count (100) not told apart from main's:\n%s", out)
	}
	if !strings.Contains(out, "5 checks: 4 proven, 0 unreachable, 1 unproven") {
		t.Errorf("want main.c's record (called back from worker.c) and worker proven:\n%s", out)
	}
	code, _, errOut = runCmd("check", "--no-cache", "-p", build)
	if code != 2 || !strings.Contains(errOut, "pthread_create of worker, which has no body") {
		t.Errorf("without --link: exit %d, want 2 and the missing body\n%s", code, errOut)
	}
	// Conflicting definitions are an error, as for the linker.
	dup := filepath.Join(root, "src", "dup.c")
	os.WriteFile(dup, []byte("void submit(void (*fn)(int), int v) { }\n"), 0o644)
	code, _, errOut = runCmd("check", "--no-cache", "--link", "-DNSLOTS=4", "-I", filepath.Join(root, "include"),
		filepath.Join(root, "src", "main.c"), filepath.Join(root, "src", "worker.c"), dup)
	if code != 2 || !strings.Contains(errOut, "multiple definitions of function submit") {
		t.Errorf("two definitions of submit: exit %d\n%s", code, errOut)
	}
}

// Issue 10: --confirm explores a --link program (it used to lower the
// linked name "a.c + b.c" as a file, fail, and confirm nothing): the
// worker of b.c reads idx after main (a.c) set it to 5, so its bounds
// check is violated, with a schedule through both files, and --replay
// writes the schedule as a C program.
func TestCheckLinkConfirm(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.c")
	b := filepath.Join(dir, "b.c")
	os.WriteFile(a, []byte(`#include <pthread.h>
int buf[4];
int idx;
extern void *worker(void *);
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  idx = 5;
  pthread_join(t, 0);
  return 0;
}
`), 0o644)
	os.WriteFile(b, []byte(`extern int buf[4];
extern int idx;
static int count;
void *worker(void *arg) { buf[idx] = 1; count++; return 0; }
`), 0o644)
	replay := filepath.Join(dir, "replay")
	code, out, errOut := runCmd("check", "--no-cache", "--link", "--confirm", "2", "--replay", replay, a, b)
	if code != 1 || !strings.Contains(out, "b.c:4:27: error: index buf[idx] out of bounds") || !strings.Contains(out, "violated; schedule: ") ||
		!strings.Contains(out, "a.c:8:3") {
		t.Fatalf("exit %d, want the check in b.c violated with a schedule through a.c:8\n%s%s", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(replay, "b.c.4.27.c")); err != nil {
		t.Errorf("no replay program: %v", err)
	}
}

// Issue 10: --link over a database that compiles a file twice (two
// programs' flags) links it once, with its first entry's flags, and says
// so; without the rule the program had two definitions of everything.
func TestCheckLinkFileCompiledTwice(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "x.c"), []byte("int buf[4];\nextern int idx(void);\nint main(void) {\n  buf[idx() + OFF] = 1;\n  return 0;\n}\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "y.c"), []byte("int idx(void) { return 1; }\n"), 0o644)
	db := `[{"directory": "` + dir + `", "file": "x.c", "arguments": ["cc", "-DOFF=2", "-c", "x.c", "-o", "low.o"], "output": "low.o"},
 {"directory": "` + dir + `", "file": "x.c", "arguments": ["cc", "-DOFF=7", "-c", "x.c", "-o", "high.o"], "output": "high.o"},
 {"directory": "` + dir + `", "file": "y.c", "arguments": ["cc", "-c", "y.c"]}]`
	os.WriteFile(filepath.Join(dir, "compile_commands.json"), []byte(db), 0o644)
	code, out, errs := runCmd("check", "--no-cache", "-p", dir, "--link")
	if code != 0 || !strings.Contains(out, "2 checks: 2 proven") || !strings.Contains(errs, "x.c: note: --link: compiled by several entries; linked once, with the flags of the first (low.o), not of high.o") {
		t.Errorf("exit %d, want x.c linked once with -DOFF=2 (proven) and a note\n%s%s", code, out, errs)
	}
}
