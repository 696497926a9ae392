package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// Corpus tests over ../shared/corpus (skipped when absent or with -short).
// A timeout or an error is an unknown result, never safe.

var (
	corpusReport  = flag.Bool("corpus-report", false, "log one line per corpus task")
	corpusTimeout = flag.Duration("corpus-timeout", 10*time.Second, "per-file time limit of the corpus tests")
	corpusFilter  = flag.String("corpus-filter", "", "only corpus files whose path contains this")
	corpusDomain  = flag.String("corpus-domain", "interval", "abstract domain of the corpus tests")
	ddverify      = flag.Bool("ddverify", false, "run TestDDVerify (30 large drivers; minutes)")
)

func corpusRoot(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("corpus tests skipped with -short")
	}
	root := filepath.Join("..", "..", "..", "shared", "corpus")
	if env := os.Getenv("CHORUS_CORPUS"); env != "" {
		root = env
	}
	if st, err := os.Stat(root); err != nil || !st.IsDir() {
		t.Skip("corpus not found at " + root)
	}
	return root
}

type svcompTask struct {
	dir, input, dataModel string
	expectTrue            bool
}

func readManifest(t testing.TB, root string) []svcompTask {
	f, err := os.Open(filepath.Join(root, "svcomp", "MANIFEST.tsv"))
	if err != nil {
		t.Skip("no MANIFEST.tsv: ", err)
	}
	defer f.Close()
	byFile := map[string]*svcompTask{}
	var order []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	first := true
	for sc.Scan() {
		if first {
			first = false
			continue
		}
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) < 6 || cols[3] != "unreach-call" {
			continue
		}
		key := cols[0] + "/" + cols[2]
		exp := cols[4] == "true"
		if tk, ok := byFile[key]; ok {
			// The same input under several task files: the strictest
			// expectation (false) wins.
			tk.expectTrue = tk.expectTrue && exp
			continue
		}
		byFile[key] = &svcompTask{dir: cols[0], input: cols[2], dataModel: cols[5], expectTrue: exp}
		order = append(order, key)
	}
	var out []svcompTask
	for _, k := range order {
		out = append(out, *byFile[k])
	}
	return out
}

// TestSVCOMPNoWrongSafe runs check --checks assert on every unreach-call
// task and fails on any task reported safe whose expected verdict is
// false. It logs proved/total of the expected-true tasks per directory.
func TestSVCOMPNoWrongSafe(t *testing.T) {
	root := corpusRoot(t)
	tasks := readManifest(t, root)
	type tally struct{ trueTotal, trueProved, falseTotal, unknown, errors, wrongSafe int }
	per := map[string]*tally{}
	for _, tk := range tasks {
		path := filepath.Join(root, "svcomp", tk.dir, tk.input)
		if *corpusFilter != "" && !strings.Contains(path, *corpusFilter) {
			continue
		}
		ty := per[tk.dir]
		if ty == nil {
			ty = &tally{}
			per[tk.dir] = ty
		}
		o := &checkOptions{domain: *corpusDomain, kinds: nil, dataModel: tk.dataModel, timeout: *corpusTimeout, maxRounds: 200}
		o.kinds = append(o.kinds, checkKindNames["assert"])
		start := time.Now()
		out := checkFile(o, path)
		safe := out.err == nil && out.res.Safe()
		if tk.expectTrue {
			ty.trueTotal++
			if safe {
				ty.trueProved++
			}
		} else {
			ty.falseTotal++
			if safe {
				ty.wrongSafe++
				t.Errorf("WRONG SAFE: %s (expected verdict false)", path)
			}
		}
		detail := ""
		switch {
		case out.err != nil:
			ty.errors++
			detail = firstLine(out.err.Error())
		case !safe:
			ty.unknown++
			p, u, w := out.res.Count()
			detail = fmt.Sprintf("%d proven, %d unreachable, %d unproven", p, u, w)
		default:
			p, u, w := out.res.Count()
			detail = fmt.Sprintf("safe: %d proven, %d unreachable, %d unproven", p, u, w)
		}
		if *corpusReport {
			t.Logf("%-60s expected=%-5v %6.2fs %s", tk.dir+"/"+tk.input, tk.expectTrue, time.Since(start).Seconds(), detail)
		}
	}
	dirs := make([]string, 0, len(per))
	for d := range per {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	for _, d := range dirs {
		ty := per[d]
		t.Logf("%-15s expected-true proved %d/%d; expected-false %d (wrong safe %d); not safe: %d unproven, %d errors/timeouts",
			d, ty.trueProved, ty.trueTotal, ty.falseTotal, ty.wrongSafe, ty.unknown, ty.errors)
	}
}

// TestDDVerify analyzes the DDVerify drivers (ILP32, --checks
// bounds,overflow) and requires every one to be analyzed without error.
//
// Opt-in (-ddverify): lowering the drivers takes minutes, more than a
// package test may take in CI.
func TestDDVerify(t *testing.T) {
	if !*ddverify {
		t.Skip("run with -args -ddverify")
	}
	root := corpusRoot(t)
	files, _ := filepath.Glob(filepath.Join(root, "ddverify", "*.c"))
	if len(files) == 0 {
		t.Skip("no ddverify drivers")
	}
	var totalChecks, totalProven int
	for _, path := range files {
		if *corpusFilter != "" && !strings.Contains(path, *corpusFilter) {
			continue
		}
		o := &checkOptions{domain: *corpusDomain, dataModel: "ILP32", timeout: *corpusTimeout, maxRounds: 200}
		o.kinds = append(o.kinds, checkKindNames["bounds"], checkKindNames["overflow"])
		start := time.Now()
		out := checkFile(o, path)
		el := time.Since(start)
		if out.err != nil {
			t.Errorf("%s: %s (%.1fs)", filepath.Base(path), firstLine(out.err.Error()), el.Seconds())
			continue
		}
		p, u, w := out.res.Count()
		totalChecks += p + u + w
		totalProven += p + u
		st := out.res.Stats
		t.Logf("%-20s %5d checks, %5d proven, %4d unreachable, %5d unproven, %6.2fs (setup %.1fs, solve %.1fs, interference %.1fs, checks %.1fs), %d locations, %d positions, %d rounds, %s game, %d hubs",
			filepath.Base(path), p+u+w, p, u, w, el.Seconds(), st.Setup.Seconds(), st.Solve.Seconds(), st.Interference.Seconds(), st.Checks.Seconds(),
			st.Locations, st.GamePositions, len(st.Rounds), st.Game, st.Hubs)
	}
	t.Logf("total: %d checks, %d proven or unreachable", totalChecks, totalProven)
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
