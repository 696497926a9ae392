package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"chorus/internal/compdb"
	"chorus/report"
)

// TestRealCorpus runs chorus check -p over the real C projects of
// ../shared/corpus/real (pigz, C-Thread-Pool, zstd, memcached), each with
// its recorded compile database (@ROOT@ substituted into a temporary
// copy), every check kind, and prints per project: translation units,
// checks, proven, unreachable, unproven, notes, chorus's time and the time
// of gcc -fsyntax-only over the same entries.
//
// Strict: every translation unit must lower and be analysed, or be
// unknown for a stated budget only (the error names the time or memory
// limit: "timed out after ... during lowering/the analysis", "exceeded
// the memory limit", "ran out of memory"); any other error, a crash or a
// unit without main that is not analysed as a library is a failure.
// Without -real-corpus only thpool runs (30 s per file: part of go test
// ./...); -real-corpus (make bench-real) runs all four (tens of minutes of
// CPU).
var (
	realCorpus   = flag.Bool("real-corpus", false, "TestRealCorpus: every project of ../shared/corpus/real, not just thpool")
	realTimeout  = flag.Duration("real-timeout", 5*time.Minute, "TestRealCorpus: per-file time limit")
	realJobs     = flag.Int("real-jobs", 2, "TestRealCorpus: worker processes")
	realProjects = flag.String("real-projects", "", "TestRealCorpus: comma-separated projects to run (default: thpool, or all with -real-corpus)")
)

// TestRealCorpusLowers lowers translation units of the real projects (no
// analysis), each with its compile database entry's flags: each must
// lower (a unit without main lowers as a library; one whose functions
// are all preprocessed away, like zstd's debug.c, lowers to an empty
// client). By default, the cheap part that runs in go test ./...: every
// unit of thpool and the realSmallUnits smallest units of each other
// project (zstd's include debug.c and threading.c); with -real-corpus or
// -real-projects every unit of the projects.
func TestRealCorpusLowers(t *testing.T) {
	root := filepath.Join(corpusRoot(t), "real")
	if st, err := os.Stat(root); err != nil || !st.IsDir() {
		t.Skip("no real corpus at " + root)
	}
	projects := []string{"memcached", "pigz", "thpool", "zstd"}
	all := *realCorpus
	if *realProjects != "" {
		projects, all = strings.Split(*realProjects, ","), true
	}
	for _, p := range projects {
		t.Run(p, func(t *testing.T) {
			db := realDB(t, filepath.Join(root, p))
			var notes []string
			units, err := compileDBUnits(db, nil, nil, &notes)
			if err != nil {
				t.Fatal(err)
			}
			if !all && p != "thpool" {
				units = smallestUnits(units, realSmallUnits)
			}
			o := &checkOptions{}
			lowered := 0
			for _, u := range units {
				opts, err := frontendOptions(o, u)
				if err == nil {
					_, err = buildUnit(o, u, opts)
				}
				if err != nil {
					t.Errorf("%s does not lower: %s", u.file, firstLine(err.Error()))
					continue
				}
				lowered++
			}
			t.Logf("%s: %d of %d units lower (%d entries not C)", p, lowered, len(units), len(notes))
		})
	}
}

// realSmallUnits is how many of a project's units the default
// TestRealCorpusLowers lowers (the smallest source files).
const realSmallUnits = 4

// smallestUnits returns the n units with the smallest source files.
func smallestUnits(units []unit, n int) []unit {
	size := map[string]int64{}
	for _, u := range units {
		if st, err := os.Stat(u.file); err == nil {
			size[u.file] = st.Size()
		}
	}
	out := append([]unit(nil), units...)
	sort.SliceStable(out, func(i, j int) bool { return size[out[i].file] < size[out[j].file] })
	if len(out) > n {
		out = out[:n]
	}
	return out
}

func TestRealCorpus(t *testing.T) {
	root := filepath.Join(corpusRoot(t), "real")
	if st, err := os.Stat(root); err != nil || !st.IsDir() {
		t.Skip("no real corpus at " + root)
	}
	projects := []string{"thpool"}
	switch {
	case *realProjects != "":
		projects = strings.Split(*realProjects, ",")
	case *realCorpus:
		projects = nil
		dirs, _ := os.ReadDir(root)
		for _, d := range dirs {
			if _, err := os.Stat(filepath.Join(root, d.Name(), "compile_commands.template.json")); err == nil {
				projects = append(projects, d.Name())
			}
		}
		sort.Strings(projects)
	}
	for _, p := range projects {
		t.Run(p, func(t *testing.T) { realProject(t, filepath.Join(root, p)) })
	}
}

// realDB writes the project's compile database with @ROOT@ substituted
// into a temporary directory and returns that directory.
func realDB(t *testing.T, dir string) string {
	t.Helper()
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		abs = r
	}
	tmpl, err := os.ReadFile(filepath.Join(abs, "compile_commands.template.json"))
	if err != nil {
		t.Skip("no compile_commands.template.json: ", err)
	}
	out := t.TempDir()
	data := strings.ReplaceAll(string(tmpl), "@ROOT@", abs)
	if err := os.WriteFile(filepath.Join(out, compdb.FileName), []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

func realProject(t *testing.T, dir string) {
	name := filepath.Base(dir)
	db := realDB(t, dir)
	start := time.Now()
	limit := *realTimeout
	if !*realCorpus && *realProjects == "" && limit > 30*time.Second {
		// The default run is part of go test ./...: thpool.c is analysed
		// as a library (minutes of CPU under load); a file over the limit
		// is counted, not a failure.
		limit = 30 * time.Second
	}
	code, out, errs := runCmd("check", "-p", db, "--format", "json", "--no-cache", "--quiet",
		"-j", strconv.Itoa(*realJobs), "--timeout", limit.String())
	wall := time.Since(start)
	if code == 2 && !strings.HasPrefix(strings.TrimSpace(out), "{") {
		t.Fatalf("%s: exit 2\n%s", name, errs)
	}
	r := parseJSONReport(t, out)
	var units, analysed, limited, notes, checks, proven, unreach, unproven int
	var cpu int64
	for _, f := range r.Files {
		units++
		cpu += f.CPUMS
		notes += len(f.Notes)
		switch {
		case f.Error == "":
			analysed++
		case f.Failure == report.FailLimit && statedBudget(f.Error):
			limited++
			t.Logf("%s: limit: %s", name, firstLine(f.Error))
		default:
			t.Errorf("%s: file error: %s", name, firstLine(f.Error))
		}
		for _, c := range f.Checks {
			checks++
			switch c.Status {
			case report.Proven:
				proven++
			case report.Unreachable:
				unreach++
			default:
				unproven++
			}
		}
	}
	skipped := 0 // entries that are not C (--quiet silences their notes)
	if entries, err := compdb.Load(db); err == nil {
		skipped = len(entries) - units
	}
	gcc := gccSyntaxTime(t, db)
	ratio := "n/a"
	if gcc > 0 {
		ratio = fmt.Sprintf("%.0fx", float64(cpu)/float64(gcc.Milliseconds()+1))
	}
	t.Logf("%-10s units %d (+%d not C): analysed %d, limit %d; checks %d: proven %d, unreachable %d, unproven %d; notes %d; chorus %.1fs wall %.1fs CPU; gcc -fsyntax-only %.1fs; CPU ratio %s",
		name, units, skipped, analysed, limited, checks, proven, unreach, unproven, notes, wall.Seconds(), float64(cpu)/1000, gcc.Seconds(), ratio)
}

// gccSyntaxTime runs gcc -fsyntax-only on every C entry of the database
// with the entry's own flags (outputs and dependency files dropped) and
// returns the total wall time (0 when gcc is missing).
func gccSyntaxTime(t *testing.T, db string) time.Duration {
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		return 0
	}
	entries, err := compdb.Load(db)
	if err != nil {
		t.Fatal(err)
	}
	var total time.Duration
	for _, e := range entries {
		if ext := filepath.Ext(e.File); ext != ".c" {
			continue
		}
		var args []string
		for i := 0; i < len(e.Args); i++ {
			a := e.Args[i]
			switch {
			case a == "-o" || a == "-MF" || a == "-MT" || a == "-MQ":
				i++
			case a == "-c" || strings.HasPrefix(a, "-M") || strings.HasPrefix(a, "-o") || strings.HasPrefix(a, "-fprofile") || a == "-ftest-coverage":
			default:
				args = append(args, a)
			}
		}
		cmd := exec.Command(gcc, append([]string{"-fsyntax-only", "-w"}, args...)...)
		cmd.Dir = e.Directory
		start := time.Now()
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Logf("gcc -fsyntax-only %s: %v\n%s", e.File, err, out)
		}
		total += time.Since(start)
	}
	return total
}

// statedBudget reports whether a file's error names the budget that
// stopped it (worker.go, checkUnit).
func statedBudget(err string) bool {
	for _, b := range []string{"timed out after ", "exceeded the memory limit of ", "ran out of memory "} {
		if strings.Contains(err, b) {
			return true
		}
	}
	return false
}
