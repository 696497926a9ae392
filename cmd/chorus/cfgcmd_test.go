package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCfgCommand(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.c")
	os.WriteFile(good, []byte(`#include <pthread.h>
int g;
void *thr(void *a) { g++; return 0; }
int main() { pthread_t t; pthread_create(&t, 0, thr, 0); return g; }
`), 0o644)
	bad := filepath.Join(dir, "bad.c")
	os.WriteFile(bad, []byte("int main() { return x; }\n"), 0o644)

	run1 := func(args ...string) (int, string, string) {
		var out, errb strings.Builder
		code := run(append([]string{"cfg"}, args...), &out, &errb)
		return code, out.String(), errb.String()
	}

	code, out, errs := run1(good)
	if code != 0 || !strings.Contains(out, "template thr spawned") || !strings.Contains(out, "(LP64)") || errs != "" {
		t.Errorf("text: code %d, stderr %q, out:\n%s", code, errs, out)
	}
	// The data model comes from an SV-COMP task file next to the input.
	os.WriteFile(filepath.Join(dir, "good.yml"), []byte("input_files: 'good.c'\noptions:\n  language: C\n  data_model: ILP32\n"), 0o644)
	if code, out, _ := run1(good); code != 0 || !strings.Contains(out, "(ILP32)") {
		t.Errorf("task file data model not used: code %d\n%s", code, out)
	}
	code, out, _ = run1("--format", "dot", "--data-model", "ILP32", good)
	if code != 0 || !strings.HasPrefix(out, "digraph") || !strings.Contains(out, "cluster_1") {
		t.Errorf("dot: code %d, out:\n%s", code, out)
	}
	code, out, _ = run1(good, "--format=dot")
	if code != 0 || !strings.HasPrefix(out, "digraph") {
		t.Errorf("flag after file: code %d", code)
	}
	code, _, errs = run1(bad)
	if code != 2 || !strings.Contains(errs, "bad.c:1:") || !strings.Contains(errs, "error:") {
		t.Errorf("bad input: code %d, stderr %q", code, errs)
	}
	for _, args := range [][]string{
		{"--format", "xml", good},
		{"--data-model", "ILP64", good},
		{"--nope", good},
		{},
		{good, good},
		{filepath.Join(dir, "missing.c")},
	} {
		if code, _, errs := run1(args...); code != 2 || errs == "" {
			t.Errorf("%v: code %d, stderr %q", args, code, errs)
		}
	}
}
