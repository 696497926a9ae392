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

// Issue 10: a unit with no function of external linkage (zstd's debug.c
// and threading.c once their functions are preprocessed away) is
// analysed with 0 checks and a note, not an error; and a library client
// may read a global of external linkage by name and call the static
// function it points to, so that function's check is not proven.
func TestCheckLibraryWithoutEntries(t *testing.T) {
	empty := writeTemp(t, "empty.c", "int level = 2;\nstatic int unused(int x) { return x; }\n")
	code, out, errOut := runCmd("check", "--no-cache", empty)
	if code != 0 || !strings.Contains(out, "0 checks") || !strings.Contains(out, "empty.c: note: no main function and no function with external linkage") || strings.Contains(out, "error") {
		t.Fatalf("exit %d, want 0 with a note and 0 checks\n%s%s", code, out, errOut)
	}
	table := writeTemp(t, "table.c", `static int buf[4];
static void f(int i) { buf[i] = 1; }
void (*tbl[1])(int) = { f };
`)
	code, out, errOut = runCmd("check", "--no-cache", table)
	if code != 1 || !strings.Contains(out, "table.c:2:24: warning: index buf[i]") || !strings.Contains(out, "the library hands out pointers to f") {
		t.Fatalf("exit %d, want the bounds check in f unproven\n%s%s", code, out, errOut)
	}
	hook := writeTemp(t, "hook.c", `static int buf[4];
static void f(int i) { buf[i] = 1; }
void (*hook)(int) = f;
void g(void) {}
`)
	code, out, errOut = runCmd("check", "--no-cache", hook)
	if code != 1 || !strings.Contains(out, "hook.c:2:24: warning: index buf[i]") {
		t.Fatalf("exit %d, want the bounds check in f unproven\n%s%s", code, out, errOut)
	}
}
