package confirm

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"chorus/cfg"
)

// replayPrograms fail in different ways: a lost update, a bug needing an
// input value, per-thread arguments with heap memory and a lock.
var replayPrograms = map[string]string{
	"racy": racy,
	"input": pthreadDecls + `
extern int __VERIFIER_nondet_int(void);
int g;
void *w(void *arg) { int x = __VERIFIER_nondet_int(); if (x == 3) g = g + x; return 0; }
int main(void) {
  pthread_t a;
  pthread_create(&a, 0, w, 0);
  pthread_join(a, 0);
  if (g == 3) reach_error();
  return 0;
}
`,
	"heap": pthreadDecls + `
extern void *malloc(unsigned long);
extern int pthread_mutex_lock(void *);
extern int pthread_mutex_unlock(void *);
int m;
int *arr;
int idx;
void *w(void *arg) {
  long me = (long)arg;
  pthread_mutex_lock(&m);
  int i = idx;
  pthread_mutex_unlock(&m);
  arr[i] = arr[i] + (int)me;
  pthread_mutex_lock(&m);
  idx = i + 1;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t[2];
  arr = malloc(2 * sizeof(int));
  arr[0] = 0; arr[1] = 0;
  pthread_create(&t[0], 0, w, (void *)1);
  pthread_create(&t[1], 0, w, (void *)2);
  pthread_join(t[0], 0);
  pthread_join(t[1], 0);
  if (arr[0] + arr[1] != 3 || arr[1] == 0) reach_error();
  return 0;
}
`,
}

// TestReplayCGcc: each counterexample, written as a C program, compiles
// with gcc and reproduces the failure (exit status 1 and the message).
func TestReplayCGcc(t *testing.T) {
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("gcc not installed")
	}
	dir := t.TempDir()
	for name, src := range replayPrograms {
		p := build(t, src)
		cex, err := Confirm(context.Background(), p, p.Checks, 2, Budget{Timeout: 10 * time.Second})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var reach *Counterexample
		for c, x := range cex {
			if strings.Contains(c.Msg, "reach_error") {
				reach = x
			}
		}
		if reach == nil {
			t.Fatalf("%s: reach_error not confirmed (%d violations)", name, len(cex))
		}
		code, err := ReplayC(p, reach)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		c := filepath.Join(dir, name+".c")
		if err := os.WriteFile(c, code, 0o644); err != nil {
			t.Fatal(err)
		}
		bin := filepath.Join(dir, name)
		if out, err := exec.Command(gcc, "-O1", "-w", "-o", bin, c).CombinedOutput(); err != nil {
			t.Fatalf("%s: gcc: %v\n%s\n%s", name, err, out, code)
		}
		out, err := exec.Command(bin).CombinedOutput()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 1 || !strings.Contains(string(out), "chorus replay: reach_error() reachable failed") {
			t.Errorf("%s: %v: %s\n%s", name, err, out, code)
		}
	}
}

// A schedule altered so that an assume no longer holds diverges.
func TestReplayCDiverges(t *testing.T) {
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("gcc not installed")
	}
	p := build(t, replayPrograms["input"])
	cex, err := Confirm(context.Background(), p, p.Checks, 1, Budget{Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range cex {
		for i := range x.Schedule {
			if x.Schedule[i].Havoc {
				x.Schedule[i].Value = 2 // the bug needs 3
			}
		}
		code, err := ReplayC(p, x)
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		c := filepath.Join(dir, "d.c")
		os.WriteFile(c, code, 0o644)
		if out, err := exec.Command(gcc, "-w", "-o", filepath.Join(dir, "d"), c).CombinedOutput(); err != nil {
			t.Fatalf("gcc: %v\n%s", err, out)
		}
		out, err := exec.Command(filepath.Join(dir, "d")).CombinedOutput()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 3 {
			t.Errorf("altered schedule: %v: %s", err, out)
		}
	}
	_ = cfg.AssertCheck
}
