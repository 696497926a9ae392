package main

// Worker processes: chorus check runs each file in a child process of its
// own binary, "chorus worker [analysis flags] FILE", which analyses the
// file in-process and writes its report.File as JSON on file descriptor 3
// (a pipe of its own: whatever the analysis prints on standard output is
// passed on to the parent's standard output, and cannot corrupt it).
// The parent enforces the limits from outside, where a stuck or runaway
// child cannot ignore them: it kills the child past --timeout (lowering
// included, plus a grace period for the analysis's own timeout to
// answer first) or when the child's resident memory passes --memory, and
// reports the file unknown with the reason. A child that dies (a crash, an
// out-of-memory of the Go runtime) is reported the same way; the other
// files' results are unaffected.
//
// CHORUS_TEST_WORKER_HOOK ("crash=NAME,loop=NAME,oom=NAME,print=NAME",
// NAME a file's base name; "loop@lowering=NAME" at the start of a phase)
// makes the worker of that file crash, hang, allocate without bound or
// print on its standard output: the tests of the isolation use it.
//
// The worker writes a line "#phase P" on its report pipe as each phase
// starts (lowering, analysis, confirmation); a file stopped by a limit is
// reported with the phase it was in ("timed out after 5m0s during
// lowering"), so a budget is never a silent failure.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"chorus/internal/ccflags"
	"chorus/report"
)

func init() { subcommands["worker"] = runWorkerCommand }

// workerEnv marks a worker process (the test binary dispatches on it).
const workerEnv = "CHORUS_WORKER"

// runWorkerCommand is the child side.
func runWorkerCommand(args []string, stdout, stderr io.Writer) int {
	o, err := parseCheckArgs(args, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "chorus worker: %v\n", err)
		return 2
	}
	if len(o.units) != 1 {
		fmt.Fprintln(stderr, "chorus worker: want exactly one file")
		return 2
	}
	if err := workerLinkFlags(o); err != nil {
		fmt.Fprintf(stderr, "chorus worker: %v\n", err)
		return 2
	}
	file := o.units[0].file
	tuneWorkerGC(o.bulk.memory) // gctune.go
	reportTo := stdout
	if os.Getenv(workerEnv+"_REPORT_FD") == "3" {
		pipe := os.NewFile(3, "report")
		defer pipe.Close()
		reportTo = pipe
	}
	// Each phase as it starts, before the report: the parent names the
	// phase a limit stopped (phaseLines).
	o.phase = func(p string) {
		fmt.Fprintf(reportTo, "%s%s\n", phasePrefix, p)
		testHook(file, p)
	}
	testHook(file, "")
	out := checkUnit(o, o.units[0])
	f := toReport(out)
	enc := json.NewEncoder(reportTo)
	if err := enc.Encode(f); err != nil {
		fmt.Fprintf(stderr, "chorus worker: %v\n", err)
		return 2
	}
	return 0
}

// testHook misbehaves on purpose for the isolation tests: "what=NAME"
// before the analysis starts, "what@PHASE=NAME" when that phase starts
// (lowering, analysis, confirmation).
func testHook(file, phase string) {
	hook := os.Getenv("CHORUS_TEST_WORKER_HOOK")
	if hook == "" {
		return
	}
	base := filepath.Base(file)
	for _, h := range strings.Split(hook, ",") {
		what, name, _ := strings.Cut(h, "=")
		what, at, _ := strings.Cut(what, "@")
		if name != base || at != phase {
			continue
		}
		switch what {
		case "print":
			fmt.Println("noise on the worker's standard output")
		case "crash":
			var m map[string]int
			go func() { m["x"] = 1 }() // a panic no recover can catch
			time.Sleep(time.Minute)
		case "loop":
			for {
				time.Sleep(time.Second)
			}
		case "oom":
			var keep [][]byte
			for {
				b := make([]byte, 16<<20)
				for i := range b {
					b[i] = 1
				}
				keep = append(keep, b)
			}
		}
	}
}

// workerGrace is how long past --timeout the parent waits before it
// kills a worker: the analysis's own timeout answers first when it can
// (it names the phase); lowering and any phase that does not check its
// context are bounded by the kill.
func workerGrace(timeout time.Duration) time.Duration {
	return time.Second + timeout/10
}

// workerStdoutMu serializes the workers' own standard output (passed on
// whole, one file at a time).
var workerStdoutMu sync.Mutex

// runWorkerProcess analyses file in a child process; what the child
// prints on standard output goes to stdout.
func runWorkerProcess(o *checkOptions, u unit, parentStdout io.Writer) report.File {
	file := u.file
	fail := func(kind, format string, a ...any) report.File {
		return report.File{File: file, Verdict: "unknown", Checks: []report.Check{}, Failure: kind,
			Error: file + ": " + fmt.Sprintf(format, a...)}
	}
	exe, err := os.Executable()
	if err != nil {
		return fail(report.FailCrash, "cannot start a worker: %v", err)
	}
	args := append([]string{"worker"}, o.bulk.childArgs...)
	var linkEnv string
	if len(u.members) > 0 {
		// A linked program: the members' files, their own flags in the
		// environment (linkEnvVar); the worker links them.
		var flags [][]string
		args = append(args, "--")
		for _, m := range u.members {
			args = append(args, m.file)
			flags = append(flags, m.cc.Args())
		}
		data, _ := json.Marshal(flags)
		linkEnv = linkEnvVar + "=" + string(data)
	} else {
		args = append(args, u.cc.Args()...)
		args = append(args, "--", file)
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), workerEnv+"=1", workerEnv+"_REPORT_FD=3")
	if linkEnv != "" {
		cmd.Env = append(cmd.Env, linkEnv)
	}
	if env := workerMemoryEnv(o); env != "" {
		cmd.Env = append(cmd.Env, env) // gctune.go
	}
	var stdout, reportBuf bytes.Buffer
	stderr := &tailBuffer{max: 8 << 10}
	cmd.Stdout, cmd.Stderr = &stdout, stderr
	pr, pw, err := os.Pipe()
	if err != nil {
		return fail(report.FailCrash, "cannot start a worker: %v", err)
	}
	cmd.ExtraFiles = []*os.File{pw}
	if err := cmd.Start(); err != nil {
		pr.Close()
		pw.Close()
		return fail(report.FailCrash, "cannot start a worker: %v", err)
	}
	pw.Close()
	readDone := make(chan struct{})
	go func() {
		io.Copy(&reportBuf, pr)
		pr.Close()
		close(readDone)
	}()
	var (
		mu     sync.Mutex
		killed string // why the parent killed the child
	)
	kill := func(why string) {
		mu.Lock()
		if killed == "" {
			killed = why
			cmd.Process.Kill()
		}
		mu.Unlock()
	}
	done := make(chan struct{})
	if o.timeout > 0 {
		t := time.AfterFunc(o.timeout+workerGrace(o.timeout), func() { kill("time") })
		defer t.Stop()
	}
	var peak int64
	if o.bulk.memory > 0 {
		go func() {
			tick := time.NewTicker(50 * time.Millisecond)
			defer tick.Stop()
			for {
				select {
				case <-done:
					return
				case <-tick.C:
					if rss := residentBytes(cmd.Process.Pid); rss > 0 {
						if rss > peak {
							peak = rss
						}
						if rss > o.bulk.memory {
							kill("memory")
							return
						}
					}
				}
			}
		}()
	}
	werr := cmd.Wait()
	close(done)
	<-readDone
	if stdout.Len() > 0 {
		workerStdoutMu.Lock()
		parentStdout.Write(stdout.Bytes())
		workerStdoutMu.Unlock()
	}
	cpu := int64(0)
	if st := cmd.ProcessState; st != nil {
		cpu = (st.UserTime() + st.SystemTime()).Milliseconds()
	}
	mu.Lock()
	why := killed
	mu.Unlock()
	phase, rep := phaseLines(reportBuf.Bytes())
	during := "before lowering"
	if phase != "" {
		during = "during " + phase
		if phase == "analysis" {
			during = "during the analysis"
		}
	}
	switch why {
	case "time":
		f := fail(report.FailLimit, "timed out after %v %s (the budget covers the whole file, lowering included; the worker was stopped)", o.timeout, during)
		f.CPUMS = cpu
		return f
	case "memory":
		f := fail(report.FailLimit, "exceeded the memory limit of %s %s (the worker was stopped)", o.bulk.memoryFlag, during)
		f.CPUMS = cpu
		return f
	}
	var f report.File
	if werr == nil {
		if jerr := json.Unmarshal(rep, &f); jerr == nil && f.File != "" {
			f.CPUMS = cpu
			return f
		}
	}
	// The worker died or answered nonsense.
	tail := strings.TrimSpace(stderr.String())
	kind := report.FailCrash
	reason := "the worker process failed"
	var ee *exec.ExitError
	if errors.As(werr, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			reason += " (" + ws.Signal().String() + ")"
		} else {
			reason += " (exit status " + strconv.Itoa(ee.ExitCode()) + ")"
		}
	}
	if strings.Contains(tail, "out of memory") || strings.Contains(tail, "cannot allocate memory") {
		kind, reason = report.FailLimit, "ran out of memory "+during
	}
	if tail != "" {
		reason += ": " + firstLines(tail, 3)
	}
	f = fail(kind, "%s", reason)
	f.CPUMS = cpu
	return f
}

// residentBytes is the resident set size of a process (0 when unknown).
func residentBytes(pid int) int64 {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/statm")
	if err != nil {
		return 0
	}
	fields := strings.Fields(string(data))
	if len(fields) < 2 {
		return 0
	}
	pages, err := strconv.ParseInt(fields[1], 10, 64)
	if err != nil {
		return 0
	}
	return pages * int64(os.Getpagesize())
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, " | ")
}

// tailBuffer keeps the first max bytes written (a panic's message and the
// top of its stack come first).
type tailBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
	max int
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if room := t.max - t.buf.Len(); room > 0 {
		if len(p) > room {
			t.buf.Write(p[:room])
		} else {
			t.buf.Write(p)
		}
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.buf.String()
}

// phasePrefix marks a phase line on a worker's report pipe.
const phasePrefix = "#phase "

// phaseLines splits a worker's report pipe into the last phase it
// started ("" if none) and the report that follows the phase lines.
func phaseLines(data []byte) (phase string, rest []byte) {
	for bytes.HasPrefix(data, []byte(phasePrefix)) {
		line, more, _ := bytes.Cut(data, []byte("\n"))
		phase = string(line[len(phasePrefix):])
		data = more
	}
	return phase, data
}

// linkEnvVar carries the compiler flags of a linked program's members to
// its worker (JSON: one argument list per member file, in order).
const linkEnvVar = workerEnv + "_LINK_FLAGS"

// workerLinkFlags gives the members of the worker's linked unit their own
// compiler flags (linkEnvVar), as the parent had them.
func workerLinkFlags(o *checkOptions) error {
	data := os.Getenv(linkEnvVar)
	if data == "" {
		return nil
	}
	var flags [][]string
	if err := json.Unmarshal([]byte(data), &flags); err != nil {
		return fmt.Errorf("%s: %v", linkEnvVar, err)
	}
	u := &o.units[0]
	if len(u.members) != len(flags) {
		return fmt.Errorf("%s: %d flag lists for %d files", linkEnvVar, len(flags), len(u.members))
	}
	for i := range u.members {
		fl, err := ccflags.Parse(flags[i], "")
		if err != nil {
			return fmt.Errorf("%s: %v", u.members[i].file, err)
		}
		fl.Files, fl.Ignored = nil, nil
		u.members[i].cc = fl
	}
	u.cc = u.members[0].cc
	return nil
}
