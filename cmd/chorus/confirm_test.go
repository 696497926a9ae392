package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const racyCounter = `
typedef unsigned long pthread_t;
extern int pthread_create(pthread_t *, const void *, void *(*)(void *), void *);
extern int pthread_join(pthread_t, void **);
extern void __VERIFIER_assert(int);
int g = 0;
void *inc(void *arg) { g = g + 1; return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, inc, 0);
  pthread_create(&b, 0, inc, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  __VERIFIER_assert(g == 2);
  return 0;
}
`

// The same counter under a lock: the assertion holds in every execution,
// so --confirm must not report it violated (whether or not it is proven).
const lockedCounter = `
typedef unsigned long pthread_t;
typedef union { int __lock; } pthread_mutex_t;
extern int pthread_create(pthread_t *, const void *, void *(*)(void *), void *);
extern int pthread_join(pthread_t, void **);
extern int pthread_mutex_lock(pthread_mutex_t *);
extern int pthread_mutex_unlock(pthread_mutex_t *);
extern void __VERIFIER_assert(int);
int g = 0;
pthread_mutex_t m;
void *inc(void *arg) { pthread_mutex_lock(&m); g = g + 1; pthread_mutex_unlock(&m); return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, inc, 0);
  pthread_create(&b, 0, inc, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  __VERIFIER_assert(g == 2);
  return 0;
}
`

func writeC(t *testing.T, name, src string) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

func TestConfirmViolatedText(t *testing.T) {
	f := writeC(t, "racy.c", racyCounter)
	var out, errb bytes.Buffer
	code := run([]string{"check", "--confirm", "2", f}, &out, &errb)
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s%s", code, out.String(), errb.String())
	}
	text := out.String()
	if !strings.Contains(text, "racy.c:14:3: error: ") || !strings.Contains(text, "(violated; schedule: T0 racy.c:") {
		t.Fatalf("no violated line for the assertion:\n%s", text)
	}
	// Both workers must appear in the schedule (the lost update needs them).
	if !strings.Contains(text, "T1 racy.c:7:") || !strings.Contains(text, "T2 racy.c:7:") {
		t.Errorf("schedule lacks a worker step:\n%s", text)
	}
}

func TestConfirmViolatedJSON(t *testing.T) {
	f := writeC(t, "racy.c", racyCounter)
	var out, errb bytes.Buffer
	if code := run([]string{"check", "--confirm", "2", "--format", "json", f}, &out, &errb); code != 1 {
		t.Fatalf("exit %d, want 1: %s", code, errb.String())
	}
	var doc struct {
		Files []struct {
			Verdict string `json:"verdict"`
			Checks  []struct {
				Kind     string             `json:"kind"`
				Line     int                `json:"line"`
				Status   string             `json:"status"`
				Schedule []scheduleStepJSON `json:"schedule"`
			} `json:"checks"`
		} `json:"files"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatalf("bad JSON: %v\n%s", err, out.String())
	}
	if len(doc.Files) != 1 || doc.Files[0].Verdict != "unsafe" {
		t.Fatalf("verdict: %s", out.String())
	}
	found := false
	for _, c := range doc.Files[0].Checks {
		if c.Kind == "assert" && c.Line == 14 {
			found = true
			if c.Status != "violated" || len(c.Schedule) == 0 {
				t.Fatalf("assert: status %q, %d steps", c.Status, len(c.Schedule))
			}
			last := c.Schedule[len(c.Schedule)-1]
			if last.Thread != 0 || last.Line != 14 || !strings.HasSuffix(last.File, "racy.c") {
				t.Errorf("last step %+v, want main at line 14", last)
			}
		}
	}
	if !found {
		t.Fatalf("assertion missing: %s", out.String())
	}
}

func TestConfirmNeverViolatesSafe(t *testing.T) {
	f := writeC(t, "locked.c", lockedCounter)
	var out, errb bytes.Buffer
	run([]string{"check", "--confirm", "3", f}, &out, &errb)
	if strings.Contains(out.String(), "violated") {
		t.Fatalf("safe program reported violated:\n%s", out.String())
	}
	out.Reset()
	run([]string{"check", "--confirm", "3", "--format", "json", f}, &out, &errb)
	if strings.Contains(out.String(), `"violated"`) || strings.Contains(out.String(), `"unsafe"`) {
		t.Fatalf("safe program reported violated:\n%s", out.String())
	}
}

func TestConfirmBudgetFor(t *testing.T) {
	s := time.Second
	for _, c := range []struct{ flag, timeout, elapsed, want time.Duration }{
		{0, 0, 3 * s, 20 * s},          // default
		{5 * s, 0, 3 * s, 5 * s},       // --confirm-timeout
		{0, 10 * s, 1 * s, 5 * s},      // half of --timeout
		{0, 10 * s, 8 * s, 2 * s},      // what --timeout leaves
		{30 * s, 10 * s, 1 * s, 9 * s}, // never past --timeout
		{0, 10 * s, 12 * s, 0},         // nothing left: no confirmation
	} {
		if got := confirmBudgetFor(c.flag, c.timeout, c.elapsed); got != c.want {
			t.Errorf("confirmBudgetFor(%v, %v, %v) = %v, want %v", c.flag, c.timeout, c.elapsed, got, c.want)
		}
	}
}

func TestConfirmTimeoutFlag(t *testing.T) {
	f := writeC(t, "racy.c", racyCounter)
	var out, errb bytes.Buffer
	if code := run([]string{"check", "--confirm", "2", "--confirm-timeout", "5s", f}, &out, &errb); code != 1 || !strings.Contains(out.String(), "violated") {
		t.Fatalf("exit %d:\n%s%s", code, out.String(), errb.String())
	}
}

// --replay DIR writes the violated assertion's schedule as a C program
// that gcc compiles and that reproduces the failure.
func TestConfirmReplayFlag(t *testing.T) {
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("gcc not installed")
	}
	f := writeC(t, "racy.c", racyCounter)
	dir := t.TempDir()
	var out, errb bytes.Buffer
	if code := run([]string{"check", "--confirm", "2", "--replay", dir, f}, &out, &errb); code != 1 {
		t.Fatalf("exit %d:\n%s%s", code, out.String(), errb.String())
	}
	c := filepath.Join(dir, "racy.c.14.3.c")
	if _, err := os.Stat(c); err != nil {
		entries, _ := os.ReadDir(dir)
		t.Fatalf("%v (directory holds %v)", err, entries)
	}
	bin := filepath.Join(dir, "replay")
	if o, err := exec.Command(gcc, "-w", "-o", bin, c).CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, o)
	}
	o, err := exec.Command(bin).CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 || !strings.Contains(string(o), "chorus replay: assertion g == 2 failed at racy.c:14") {
		t.Errorf("replay: %v: %s", err, o)
	}
}
