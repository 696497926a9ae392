package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// Issue 10: a task handed to an unknown thread pool may run after idx = 7.
// check reports the bounds check unproven (exit 1) and says once how
// pool_submit was modelled, in text and in JSON.
func TestCheckUnknownExternalCallback(t *testing.T) {
	path := writeTemp(t, "pool.c", `extern void pool_submit(void (*f)(void *), void *arg);
int buf[4];
int idx = 0;
void task(void *arg) { buf[idx] = 1; }
int main(void) {
  pool_submit(task, 0);
  pool_submit(task, 0);
  idx = 7;
  return 0;
}
`)
	code, out, errOut := runCmd("check", "--no-cache", path)
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s%s", code, out, errOut)
	}
	if !strings.Contains(out, "pool.c:4:24: warning: index buf[idx]") || !strings.Contains(out, "1 checks: 0 proven, 0 unreachable, 1 unproven") {
		t.Errorf("bounds check in task not reported unproven:\n%s", out)
	}
	if n := strings.Count(out, "note: pool_submit: unknown external function"); n != 1 {
		t.Errorf("%d notes on pool_submit, want 1:\n%s", n, out)
	}
	if !strings.Contains(out, "may call task from any number of threads") {
		t.Errorf("note does not name the callback:\n%s", out)
	}
	code, out, _ = runCmd("check", "--no-cache", "--format", "json", path)
	var rep struct {
		Files []struct {
			Notes []struct {
				File    string `json:"file"`
				Line    int    `json:"line"`
				Message string `json:"message"`
			} `json:"notes"`
		} `json:"files"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 1 {
		t.Fatalf("exit %d, %v\n%s", code, err, out)
	}
	if len(rep.Files) != 1 || len(rep.Files[0].Notes) != 1 || rep.Files[0].Notes[0].Line != 6 ||
		!strings.HasPrefix(rep.Files[0].Notes[0].Message, "pool_submit: ") {
		t.Errorf("json notes: %+v", rep.Files)
	}
}
