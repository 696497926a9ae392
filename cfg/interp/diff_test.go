package interp

// Differential test of the C frontend (cfg.Build) against gcc: every
// program in testdata/diff is compiled with gcc -O0 and run, then lowered
// with cfg.Build (LP64, and ILP32 unless listed in lp64Only), checked with cfg.Sanity and interpreted; the
// printed outputs and exit statuses must agree and no check may fail (the
// programs are free of undefined behaviour, checked with
// -fsanitize=undefined,address when they were written). The interpreter
// also checks every memory access against the points-to cells of its
// Deref (Options.CheckCells) and that no local register is read before it
// is written (Options.CheckUninit).
//
// Frontend bugs found by this test are listed in knownFailures with the
// symptom; such programs are reported with t.Log instead of failing, so
// the list stays visible. A listed program that passes is an error (the
// entry must be removed).

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"chorus/cfg"
)

// Frontend bugs found by this test, all fixed in cfg since (commits
// 41ee1ed, 341df86): "for (int i = 0; c; p)" tested the post expression
// instead of c (cc/v4's IterationStatementForDecl keeps c in
// ExpressionList and p in ExpressionList2); m[i][j] on arrays of arrays
// loaded a pointer from m; sizeof(1 + 2L) was rejected as a variable
// length type; (*fp)(args) read memory at fp; pointers stored by
// initializers (int *p = &x) were missing from the points-to sets (found
// by Options.CheckCells through testdata/check/lock_through_pointer.c);
// 2-D array parameters failed with "internal: aggregate in a register";
// (int[]){5, 6, 7} got an object of a pointer's size (fixed in 2f73402).

// knownFailures maps a testdata/diff file to an open frontend (or IR)
// gap it shows.
var knownFailures = map[string]string{
	"73_threads_join_value.c": "pthread_join(t, &ret) does not deliver the thread's return value (cfg.Join has no result; ret stays null)",
}

// lp64Only lists the programs whose output depends on the data model
// (gcc here builds LP64 only; gcc -m32 lacks its libraries). Every other
// program is also lowered with ILP32 and must print the same.
var lp64Only = map[string]string{
	"11_compound_assign.c":   "shifts a long by 40",
	"13_casts.c":             "converts -1 to unsigned long",
	"14_sizeof.c":            "prints sizeof(long) and pointer sizes",
	"22_global_init.c":       "a long initializer beyond 32 bits",
	"27_shifts.c":            "unsigned long shifts by 60 and 63",
	"28_divrem.c":            "long division of -10^12",
	"34_long.c":              "64-bit long arithmetic",
	"46_printf_formats.c":    "%lu/%ld/%lx of values beyond 32 bits",
	"52_bool.c":              "1L << 40",
	"58_long_bits.c":         "64-bit unsigned long bit manipulation",
	"62_integer_promotion.c": "long vs unsigned int comparison (rank rules differ)",
}

const diffDir = "../../testdata/diff"

// buildC lowers a C file the way the analysis does (LP64) and runs the IR
// sanity checker on it.
func buildC(path string) (*cfg.Program, error) {
	return buildCModel(path, cfg.LP64)
}

func buildCModel(path string, model cfg.DataModel) (*cfg.Program, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	p, err := cfg.Build(path, src, cfg.Options{DataModel: model, ShareAll: os.Getenv("INTERP_DIFF_SHARE") != ""})
	if err != nil {
		return nil, err
	}
	if err := cfg.Sanity(p); err != nil {
		return nil, fmt.Errorf("sanity: %v", err)
	}
	return p, nil
}

// buildCWithin is buildC with a time limit, so that a frontend that hangs
// fails the test instead of stalling it (the lowering goroutine is left
// behind).
func buildCWithin(path string, limit time.Duration) (*cfg.Program, error) {
	type result struct {
		p   *cfg.Program
		err error
	}
	ch := make(chan result, 1)
	go func() {
		p, err := buildC(path)
		ch <- result{p, err}
	}()
	select {
	case r := <-ch:
		return r.p, r.err
	case <-time.After(limit):
		return nil, fmt.Errorf("lowering %s did not finish within %v (hang)", path, limit)
	}
}

// diffShareAll makes the children lower every shareable call to a shared
// body (cfg.Options.ShareAll) instead of inlining it.
var diffShareAll bool

// TestDifferentialSharedBodies runs the differential test with every
// shareable call going to a shared body: the call/return protocol of
// shared bodies (RetSite, return sites) must run the programs as gcc's
// build does.
func TestDifferentialSharedBodies(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	diffShareAll = true
	defer func() { diffShareAll = false }()
	TestDifferentialAgainstGCC(t)
}

func TestDifferentialAgainstGCC(t *testing.T) {
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("gcc not found")
	}
	files, err := filepath.Glob(filepath.Join(diffDir, "*.c"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 40 {
		t.Fatalf("only %d differential programs in %s", len(files), diffDir)
	}
	tmp := t.TempDir()
	passed, known := 0, 0
	for _, file := range files {
		name := filepath.Base(file)
		t.Run(strings.TrimSuffix(name, ".c"), func(t *testing.T) {
			exe := filepath.Join(tmp, strings.TrimSuffix(name, ".c"))
			if out, err := exec.Command(gcc, "-O0", "-w", "-o", exe, file).CombinedOutput(); err != nil {
				t.Fatalf("gcc: %v\n%s", err, out)
			}
			var want bytes.Buffer
			cmd := exec.Command(exe)
			cmd.Stdout = &want
			if err := cmd.Run(); err != nil {
				if _, ok := err.(*exec.ExitError); !ok {
					t.Fatalf("running the gcc build: %v", err)
				}
			}
			var problems []string
			if problem := interpretAndCompare(t, file, cfg.LP64, want.String(), cmd.ProcessState.ExitCode()); problem != "" {
				problems = append(problems, problem)
			}
			if _, lp64 := lp64Only[name]; !lp64 {
				if problem := interpretAndCompare(t, file, cfg.ILP32, want.String(), cmd.ProcessState.ExitCode()); problem != "" {
					problems = append(problems, "ILP32: "+problem)
				}
			}
			problem := strings.Join(problems, "\n")
			switch _, isKnown := knownFailures[name]; {
			case problem == "" && !isKnown:
				passed++
			case problem != "" && isKnown:
				known++
			}
			judgeKnown(t, name, knownFailures[name], problems)
		})
	}
	t.Logf("%d/%d programs agree with gcc, %d known failures", passed, len(files), known)
}

// childResult is what the child process reports about one program.
type childResult struct {
	Err      string // frontend or interpreter set-up error
	Reason   string
	Error    string // the runtime error that ended the run
	Failures []string
	Output   string
	HasExit  bool // main returned; Exit is its value modulo 256
	Exit     int
	// Schedules describes a random schedule of a multithreaded program
	// whose outcome differs from the first-enabled one ("": none).
	Schedules string
}

// TestDiffChild is the child half of the differential test: it lowers and
// interprets $INTERP_DIFF_CHILD and writes a childResult to
// $INTERP_DIFF_OUT. Running each program in its own process lets the
// parent kill a frontend or interpreter that hangs.
func TestDiffChild(t *testing.T) {
	file, out := os.Getenv("INTERP_DIFF_CHILD"), os.Getenv("INTERP_DIFF_OUT")
	if file == "" || out == "" {
		t.Skip("only run as a child of TestDifferentialAgainstGCC")
	}
	var r childResult
	model := cfg.LP64
	if os.Getenv("INTERP_DIFF_MODEL") == "ILP32" {
		model = cfg.ILP32
	}
	if p, err := buildCModel(file, model); err != nil {
		r.Err = "frontend: " + err.Error()
	} else if res, err := Run(p, FirstEnabled(), RunOptions{MaxSteps: 2_000_000, Machine: Options{CheckCells: true, CheckUninit: true}}); err != nil {
		r.Err = "interp: " + err.Error()
	} else {
		r.Reason, r.Output = res.Reason.String(), res.Output
		r.HasExit, r.Exit = res.MainReturned, res.ExitStatus
		if res.Error != nil {
			r.Error = res.Error.Event.String()
		}
		for _, f := range res.Failures {
			r.Failures = append(r.Failures, f.Event.String())
		}
		// A multithreaded program here prints the same under every
		// schedule (its threads synchronize before printing): try a few
		// random ones as well.
		if src, _ := os.ReadFile(file); bytes.Contains(src, []byte("pthread_create")) {
			for seed := uint64(1); seed <= 3 && r.Schedules == ""; seed++ {
				other, err := Run(p, Random(seed), RunOptions{MaxSteps: 2_000_000, Machine: Options{CheckCells: true, CheckUninit: true}})
				if err == nil && (other.Output != res.Output || other.Reason != res.Reason) {
					r.Schedules = fmt.Sprintf("random schedule %d: %v, output %q differs from the first-enabled run", seed, other.Reason, other.Output)
				}
			}
		}
	}
	data, _ := json.Marshal(r)
	if err := os.WriteFile(out, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// childTimeout bounds lowering plus interpretation of one program.
const childTimeout = 20 * time.Second

// interpretAndCompare returns "" when the interpreter prints want, or a
// description of the difference.
func interpretAndCompare(t *testing.T, file string, model cfg.DataModel, want string, wantExit int) string {
	out := filepath.Join(t.TempDir(), "result.json")
	ctx, cancel := context.WithTimeout(context.Background(), childTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestDiffChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), "INTERP_DIFF_CHILD="+file, "INTERP_DIFF_OUT="+out, "INTERP_DIFF_MODEL="+model.String())
	if diffShareAll {
		cmd.Env = append(cmd.Env, "INTERP_DIFF_SHARE=1")
	}
	log, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		return fmt.Sprintf("lowering + interpretation did not finish within %v (hang)", childTimeout)
	}
	data, rerr := os.ReadFile(out)
	if rerr != nil {
		return fmt.Sprintf("child process failed: %v\n%s", err, lastLines(string(log), 15))
	}
	var r childResult
	if err := json.Unmarshal(data, &r); err != nil {
		return "bad child result: " + err.Error()
	}
	if r.Err != "" {
		return r.Err
	}
	var msg []string
	if r.Reason != Finished.String() {
		m := "run ended: " + r.Reason
		if r.Error != "" {
			m += ": " + r.Error
		}
		msg = append(msg, m)
	}
	for _, f := range r.Failures {
		msg = append(msg, "check failed in a program without undefined behaviour: "+f)
	}
	if r.Schedules != "" {
		msg = append(msg, r.Schedules)
	}
	if r.HasExit && r.Exit != wantExit {
		msg = append(msg, fmt.Sprintf("exit status %d, gcc's build exits with %d", r.Exit, wantExit))
	}
	if r.Output != want {
		msg = append(msg, "output differs from gcc:\n"+lineDiff(want, r.Output))
	}
	return strings.Join(msg, "\n")
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// lineDiff shows the first differing line of two outputs.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return "line " + strconv.Itoa(i+1) + ":\n  gcc:    " + wl + "\n  interp: " + gl
		}
	}
	return "(outputs differ only in a trailing newline)"
}
